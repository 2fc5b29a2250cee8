import { failureFromBody, type ApiFailure } from "@/lib/shared/i18n/api-failure";

type ApiCallResult = { ok: true; body: unknown } | { ok: false; failure: ApiFailure };

/**
 * One request to our API from a form or button of the staff and start pages, or from the proctor dashboard:
 * the parsed JSON body on success (null when there is none), otherwise what failed, for `useDescribeFailure`
 * to put in the reader's language. The exam page does not use this: its requests go through the sync engine,
 * which retries.
 */
export async function callApi(
  url: string,
  init: {
    method?: string;
    json?: unknown;
    /** A body that is not JSON, sent as-is with its media type (a CSV upload, a zip file). */
    text?: { body: string | Blob; contentType: string };
    headers?: Record<string, string>;
    cache?: RequestCache;
  } = {},
): Promise<ApiCallResult> {
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
  return { ok: true, body };
}
