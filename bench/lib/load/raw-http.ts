// A request sent exactly as given: any method, any headers (no Content-Type added), a body as bytes,
// optionally streamed in chunks without a Content-Length. For requests a well-behaved client never
// sends (bench/scenarios/bad-input.ts); the load scenarios use lib/load/http-client.ts.
import { request as httpRequest, type Agent, type IncomingHttpHeaders } from "node:http";

export type RawRequest = {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Send the body with Transfer-Encoding: chunked, in pieces of this many bytes, without a Content-Length. */
  chunkBytes?: number;
};

/** `status` 0: no response (connection refused or reset, time-out); `error` then says which. */
export type RawResponse = { status: number; headers: IncomingHttpHeaders; body: string; error?: string; ms: number };

const MAX_RESPONSE_BYTES = 256 * 1024;

export function sendRaw(options: {
  agent: Agent | false;
  port: number;
  request: RawRequest;
  timeoutMs: number;
}): Promise<RawResponse> {
  const { request } = options;
  const startedAt = performance.now();
  return new Promise((resolve) => {
    let isSettled = false;
    const settle = (response: Omit<RawResponse, "ms">): void => {
      if (isSettled) return;
      isSettled = true;
      resolve({ ...response, ms: Math.round(performance.now() - startedAt) });
    };
    const headers: Record<string, string | number> = { ...request.headers };
    const isChunked = request.body !== undefined && request.chunkBytes !== undefined;
    if (
      request.body !== undefined &&
      !isChunked &&
      !Object.keys(headers).some((name) => name.toLowerCase() === "content-length")
    ) {
      headers["content-length"] = request.body.byteLength;
    }
    const outgoing = httpRequest(
      {
        host: "127.0.0.1",
        port: options.port,
        method: request.method,
        path: request.path,
        headers,
        agent: options.agent,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          size += chunk.byteLength;
          if (size <= MAX_RESPONSE_BYTES) chunks.push(chunk);
        });
        response.on("end", () =>
          settle({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        response.on("error", (error) =>
          settle({ status: 0, headers: {}, body: "", error: (error as NodeJS.ErrnoException).code ?? error.message }),
        );
      },
    );
    outgoing.setTimeout(options.timeoutMs, () =>
      outgoing.destroy(Object.assign(new Error("timeout"), { code: "TIMEOUT" })),
    );
    // A server may answer (413) and close before it has read a large body: the write then fails, but the
    // response that arrived first is what counts, so a write error waits briefly for it.
    outgoing.on("error", (error) => {
      const code = (error as NodeJS.ErrnoException).code ?? error.message;
      if (code === "EPIPE" || code === "ECONNRESET")
        setTimeout(() => settle({ status: 0, headers: {}, body: "", error: code }), 1_000);
      else settle({ status: 0, headers: {}, body: "", error: code });
    });
    if (request.body === undefined) {
      outgoing.end();
    } else if (isChunked) {
      const size = Math.max(1, request.chunkBytes ?? 1);
      for (let offset = 0; offset < request.body.byteLength; offset += size)
        outgoing.write(request.body.subarray(offset, offset + size));
      outgoing.end();
    } else {
      outgoing.end(request.body);
    }
  });
}
