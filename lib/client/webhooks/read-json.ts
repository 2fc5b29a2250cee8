import { ApiCallError, callApi, failureOf } from "@/lib/client/call-api";
import type { z } from "@/lib/shared/zod";

export { failureOf };

/** A GET for a query: the body parsed by `schema`, or an `ApiCallError`. Never cached by the browser (the pages poll). */
export async function readJson<S extends z.ZodType>(url: string, schema: S): Promise<z.output<S>> {
  const result = await callApi(url, { cache: "no-store", schema });
  if (!result.ok) throw new ApiCallError(result.failure);
  return result.body;
}
