// Calls a route handler in-process with a real Request, the way Next.js does.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- route handlers type their own params
type Handler = (request: Request, context: { params: Promise<any> }) => Response | Promise<Response>;

export type CallOptions = {
  method?: string;
  path?: string;
  params?: Record<string, string | string[]>;
  /** Serialised as JSON. */
  json?: unknown;
  /** Sent as-is (for malformed bodies). */
  raw?: string | Uint8Array | ReadableStream<Uint8Array>;
  headers?: Record<string, string>;
  cookie?: string;
  bearer?: string;
};

export type CallResult<T = unknown> = { status: number; headers: Headers; body: T; text: string };

// Tests read response bodies loosely; the assertions are the type check.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function call<T = any>(handler: Handler, options: CallOptions = {}): Promise<CallResult<T>> {
  const headers = new Headers(options.headers);
  let body: BodyInit | undefined;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers.set("content-type", "application/json");
  } else if (options.raw !== undefined) {
    body = options.raw as BodyInit;
  }
  if (options.cookie) headers.set("cookie", options.cookie);
  if (options.bearer) headers.set("authorization", `Bearer ${options.bearer}`);
  const request = new Request(`http://holdfast.test${options.path ?? "/"}`, {
    method: options.method ?? (body === undefined ? "GET" : "POST"),
    headers,
    body,
    // Required by undici for streamed bodies.
    ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
  } as RequestInit);
  const response = await handler(request, { params: Promise.resolve(options.params ?? {}) });
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

/** "name=value" from a Set-Cookie header, ready for a Cookie header. */
export function cookieFrom(response: { headers: Headers }): string {
  const setCookie = response.headers.get("set-cookie");
  if (!setCookie) throw new Error("response set no cookie");
  const pair = setCookie.split(";")[0];
  if (!pair) throw new Error("malformed Set-Cookie");
  return pair;
}
