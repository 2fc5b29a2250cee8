import type { z } from "@/lib/shared/zod";

import { failureFromBody, type ApiFailure } from "@/lib/shared/i18n/api-failure";

/** What a call gives back: the body (parsed by the call's schema when it has one), or what failed. */
export type ApiCallResult<T = unknown> = { ok: true; body: T } | { ok: false; failure: ApiFailure };

export type CallApiInit = {
  method?: string;
  json?: unknown;
  /** A body that is not JSON, sent as-is with its media type (a CSV upload, a zip file). */
  text?: { body: string | Blob; contentType: string };
  headers?: Record<string, string>;
  cache?: RequestCache;
};

/**
 * One request to our API from a form or button of the staff and start pages, or from the proctor dashboard:
 * the JSON body on success, otherwise what failed, for `useDescribeFailure` to put in the reader's language.
 * The exam page does not use this: its requests go through the sync engine, which retries.
 *
 * With `schema` (one of `lib/shared/schemas`, the same the server answers with), a 2xx body is parsed by it
 * and typed by it; a body that does not match is a failure (`http`, the status, no code: "unexpected"), never
 * a value of the wrong shape. Without a schema the body is `unknown` (null when there is none): use that only
 * where the page does not read it.
 */
export async function callApi<S extends z.ZodType>(
  url: string,
  init: CallApiInit & { schema: S },
): Promise<ApiCallResult<z.output<S>>>;
export async function callApi(url: string, init?: CallApiInit & { schema?: undefined }): Promise<ApiCallResult>;
export async function callApi(
  url: string,
  init: CallApiInit & { schema?: z.ZodType } = {},
): Promise<ApiCallResult<unknown>> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method ?? "GET",
      headers: {
        Accept: "application/json",
        ...(init.json === undefined ? {} : { "Content-Type": "application/json" }),
        ...(init.text === undefined ? {} : { "Content-Type": init.text.contentType }),
        ...init.headers,
      },
      ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
      ...(init.text === undefined ? {} : { body: init.text.body }),
      ...(init.cache ? { cache: init.cache } : {}),
    });
  } catch {
    return { ok: false, failure: { kind: "network" } };
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) return { ok: false, failure: failureFromBody(response.status, body) };
  if (!init.schema) return { ok: true, body };
  const parsed = init.schema.safeParse(body);
  if (!parsed.success) {
    return {
      ok: false,
      failure: {
        kind: "http",
        status: response.status,
        code: null,
        message: "the response did not match its schema",
        issues: [],
      },
    };
  }
  return { ok: true, body: parsed.data };
}

/**
 * A refused or unreachable call, thrown where a caller needs a throw (a React Query query or mutation): it
 * carries what failed, for `useDescribeFailure`; its `message` is the API's English sentence, for the console.
 */
export class ApiCallError extends Error {
  readonly failure: ApiFailure;

  constructor(failure: ApiFailure) {
    super(failure.kind === "network" ? "network error" : (failure.message ?? `HTTP ${failure.status}`));
    this.name = "ApiCallError";
    this.failure = failure;
  }
}

/** What failed: an error that is not an `ApiCallError` counts as not reaching the API. */
export function failureOf(error: unknown): ApiFailure {
  return error instanceof ApiCallError ? error.failure : { kind: "network" };
}
