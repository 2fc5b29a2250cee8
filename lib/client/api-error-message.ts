import { isErrorBody } from "@/lib/shared/errors";

/** The API's own words for a failed request (its `error.message`), or a plain fallback. */
export async function apiErrorMessage(response: Response): Promise<string> {
  const body: unknown = await response.json().catch(() => null);
  if (isErrorBody(body)) return body.error.message;
  return `Holdfast answered with an unexpected error (${response.status}). Try again in a moment.`;
}

/** What to say when the request never got an answer. */
export const NETWORK_ERROR_MESSAGE = "Holdfast could not be reached. Check your connection and try again.";
