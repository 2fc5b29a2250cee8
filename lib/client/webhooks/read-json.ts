import { callApi } from "@/lib/client/call-api";
import type { ApiFailure } from "@/lib/shared/i18n/api-failure";

/** A failed read, carrying what failed so the page can say it in the reader's language. */
export class ApiReadError extends Error {
  constructor(readonly failure: ApiFailure) {
    super("api read failed");
  }
}

/** A GET for a query: the body, or an ApiReadError. Never cached by the browser (the pages poll). */
export async function readJson<T>(url: string): Promise<T> {
  const result = await callApi(url, { cache: "no-store" });
  if (!result.ok) throw new ApiReadError(result.failure);
  return result.body as T;
}

export function failureOf(error: unknown): ApiFailure {
  return error instanceof ApiReadError ? error.failure : { kind: "network" };
}
