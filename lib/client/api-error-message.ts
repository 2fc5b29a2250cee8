import { failureFromBody, type ApiFailure } from "@/lib/shared/i18n/api-failure";

export type ApiCallResult = { ok: true; body: unknown } | { ok: false; failure: ApiFailure };

/**
 * One request from a form or button of the staff and start pages: the parsed JSON body on success (null
 * when there is none), otherwise what failed, for `useDescribeFailure` to put in the reader's language.
 * The exam page does not use this: its requests go through the sync engine, which retries.
 */
export async function callApi(
  url: string,
  init: { method: string; json?: unknown; body?: BodyInit; headers?: Record<string, string> },
): Promise<ApiCallResult> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method,
      ...(init.json === undefined
        ? { body: init.body, headers: init.headers }
        : { headers: { "Content-Type": "application/json", ...init.headers }, body: JSON.stringify(init.json) }),
    });
  } catch {
    return { ok: false, failure: { kind: "network" } };
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) return { ok: false, failure: failureFromBody(response.status, body) };
  return { ok: true, body };
}
