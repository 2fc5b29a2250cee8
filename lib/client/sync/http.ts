import { parseRetryAfterMs } from "@/lib/shared/backoff";
import { isErrorBody } from "@/lib/shared/errors";

/** The part of `fetch` the sync engine uses; tests pass a scripted one. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** `setTimeout`/`clearTimeout`, injectable so tests drive time. */
export type Timers = {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
};

/**
 * What came back: either no answer at all (`network`: offline, DNS, reset, timeout, or a 2xx whose body is
 * not JSON, which is what a captive portal sends), or the server's status with its error body's code.
 */
export type HttpOutcome =
  | { kind: "network"; message: string }
  | {
      kind: "answer";
      status: number;
      code: string | null;
      message: string | null;
      details: Record<string, unknown> | null;
      body: unknown;
      retryAfterMs: number | null;
    };

export type SendOptions = {
  fetch: FetchLike;
  timers: Timers;
  now: () => number;
  method: "GET" | "POST";
  url: string;
  body?: string;
  headers?: Record<string, string>;
  keepalive?: boolean;
  /** A request that hangs (hotel Wi-Fi) is abandoned after this long and counts as a network error. */
  timeoutMs: number;
};

export async function send(options: SendOptions): Promise<HttpOutcome> {
  const controller = new AbortController();
  const timer = options.timers.setTimeout(() => controller.abort(), options.timeoutMs);
  try {
    const response = await options.fetch(options.url, {
      method: options.method,
      headers: {
        Accept: "application/json",
        ...(options.body !== undefined ? { "Content-Type": "application/json" } : {}),
        ...options.headers,
      },
      body: options.body,
      credentials: "same-origin",
      cache: "no-store",
      keepalive: options.keepalive ?? false,
      signal: controller.signal,
    });
    const text = await response.text();
    let body: unknown = null;
    try {
      body = text === "" ? null : (JSON.parse(text) as unknown);
    } catch {
      if (response.ok) return { kind: "network", message: "The answer was not JSON (a captive portal or proxy?)." };
    }
    const error = isErrorBody(body) ? body.error : null;
    return {
      kind: "answer",
      status: response.status,
      code: error?.code ?? null,
      message: error?.message ?? null,
      details: error?.details ?? null,
      body,
      retryAfterMs: parseRetryAfterMs(response.headers.get("retry-after"), options.now()),
    };
  } catch (error) {
    return { kind: "network", message: error instanceof Error ? error.message : String(error) };
  } finally {
    options.timers.clearTimeout(timer);
  }
}
