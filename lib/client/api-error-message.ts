import { isErrorBody } from "@/lib/shared/errors";

/** The API's own words for a failed request (its `error.message`), or a plain fallback. */
export async function apiErrorMessage(response: Response): Promise<string> {
  const body: unknown = await response.json().catch(() => null);
  if (isErrorBody(body)) return body.error.message;
  return `Holdfast answered with an unexpected error (${response.status}). Try again in a moment.`;
}

/** What to say when the request never got an answer. */
export const NETWORK_ERROR_MESSAGE = "Holdfast could not be reached. Check your connection and try again.";

export type ApiCallResult = { ok: true; body: unknown } | { ok: false; message: string };

/**
 * One request from a form or button of the staff and start pages: the parsed JSON body on success (null
 * when there is none), otherwise the sentence to show — the API's own message, or the network one. The
 * exam page does not use this: its requests go through the sync engine, which retries.
 */
export async function callApi(url: string, init: { method: string; json?: unknown }): Promise<ApiCallResult> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method,
      ...(init.json === undefined ? {} : { headers: { "Content-Type": "application/json" }, body: JSON.stringify(init.json) }),
    });
  } catch {
    return { ok: false, message: NETWORK_ERROR_MESSAGE };
  }
  if (!response.ok) return { ok: false, message: await apiErrorMessage(response) };
  return { ok: true, body: await response.json().catch(() => null) };
}
