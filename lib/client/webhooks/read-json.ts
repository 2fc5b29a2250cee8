import { callApi } from "@/lib/client/call-api";
import type { ApiFailure } from "@/lib/shared/i18n/api-failure";
import type { z } from "@/lib/shared/zod";

/** A failed read, carrying what failed so the page can say it in the reader's language. */
export class ApiReadError extends Error {
  constructor(readonly failure: ApiFailure) {
    super("api read failed");
  }
}

/** A GET for a query: the body parsed by `schema`, or an ApiReadError. Never cached by the browser (the pages poll). */
export async function readJson<S extends z.ZodType>(url: string, schema: S): Promise<z.output<S>> {
  const result = await callApi(url, { cache: "no-store", schema });
  if (!result.ok) throw new ApiReadError(result.failure);
  return result.body;
}

export function failureOf(error: unknown): ApiFailure {
  return error instanceof ApiReadError ? error.failure : { kind: "network" };
}
