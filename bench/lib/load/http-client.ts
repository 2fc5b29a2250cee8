// A small HTTP/1.1 client on node:http with keep-alive, cheaper per request than fetch, so the load
// generator (which shares the machine with the servers it measures) takes as little CPU as it can.
// It only ever connects to 127.0.0.1.
import { Agent, request as httpRequest, type IncomingHttpHeaders } from "node:http";

import { parseRetryAfterMs } from "../../../lib/shared/backoff";

/** `status` 0: no response (connection refused or reset, time-out); `error` then says which. */
export type HttpResult = { status: number; headers: IncomingHttpHeaders; body: string; error?: string };
export type HttpResponse = HttpResult;

/**
 * `scheduling`: which idle socket the next request takes. `lifo` (Node's default) reuses the most recently used
 * ones, so a few hot sockets carry the load; `fifo` takes the least recently used, spreading requests over
 * every socket as many independent clients (one browser per candidate) do. Behind `npm start`'s workers, which
 * are handed connections in turn, the difference is where the work lands: lifo's hot set can sit mostly on one
 * worker while the other idles (docs/benchmarks/log/2026-12-03-where-the-time-goes.md).
 */
export function createAgent(maxSockets: number, scheduling: "lifo" | "fifo" = "lifo"): Agent {
  return new Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets, scheduling });
}

function failed(error: Error): HttpResult {
  return { status: 0, headers: {}, body: "", error: (error as NodeJS.ErrnoException).code ?? error.message };
}

export function send(options: {
  agent: Agent;
  port: number;
  method: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  body?: string;
  timeoutMs?: number;
  /** Aborting destroys the request: the caller sees `ERR ABORTED`. */
  signal?: AbortSignal;
  /**
   * Asked as the response's head arrives (the server has processed the request): true throws the connection
   * away unread, and the caller sees `ERR ECONNRESET`, as after a reset on the way back (response-drops.ts).
   */
  isDropped?: () => boolean;
}): Promise<HttpResult> {
  return new Promise((resolve) => {
    const headers: Record<string, string | number> = { ...options.headers };
    if (options.body !== undefined) {
      // JSON unless the caller says otherwise (a CSV upload).
      headers["content-type"] ??= "application/json";
      headers["content-length"] = Buffer.byteLength(options.body);
    }
    const request = httpRequest(
      {
        host: "127.0.0.1",
        port: options.port,
        method: options.method,
        path: options.path,
        headers,
        agent: options.agent,
      },
      (response) => {
        if (options.isDropped?.()) {
          response.on("error", () => undefined);
          request.destroy();
          resolve({ status: 0, headers: {}, body: "", error: "ECONNRESET" });
          return;
        }
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        response.on("error", (error) => resolve(failed(error)));
      },
    );
    request.setTimeout(options.timeoutMs ?? 30_000, () =>
      request.destroy(Object.assign(new Error("timeout"), { code: "TIMEOUT" })),
    );
    request.on("error", (error) => resolve(failed(error)));
    if (options.signal) {
      const onAbort = (): void => void request.destroy(Object.assign(new Error("aborted"), { code: "ABORTED" }));
      if (options.signal.aborted) onAbort();
      else {
        options.signal.addEventListener("abort", onAbort, { once: true });
        request.once("close", () => options.signal?.removeEventListener("abort", onAbort));
      }
    }
    request.end(options.body);
  });
}

/** The `code` of the contract's error body, if the response has one. */
export function errorCode(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { error?: { code?: unknown } };
    return typeof parsed.error?.code === "string" ? parsed.error.code : undefined;
  } catch {
    return undefined;
  }
}

/** "405", "409 ALREADY_SUBMITTED", "ERR ECONNRESET": how a response is counted in the report. */
export function outcomeKey(result: HttpResult): string {
  if (result.status === 0) return `ERR ${result.error ?? "unknown"}`;
  if (result.status < 300) return String(result.status);
  const code = errorCode(result.body);
  return code ? `${result.status} ${code}` : String(result.status);
}

/** The answer's `Retry-After` in milliseconds (the contract's reading of it), or null. */
export function retryAfterMs(result: HttpResult, nowMs: number = Date.now()): number | null {
  if (result.status === 0) return null;
  const header = result.headers["retry-after"];
  return parseRetryAfterMs(Array.isArray(header) ? header[0] : header, nowMs);
}
