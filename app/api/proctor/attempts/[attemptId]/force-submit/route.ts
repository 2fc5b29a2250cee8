import { forceSubmitAttempt } from "@/lib/server/attempts/force-submit-attempt";
import { validationError } from "@/lib/server/http/errors";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { readJsonBody } from "@/lib/server/http/read-json-body";
import { json, route } from "@/lib/server/http/route";
import { AttemptParamsSchema } from "@/lib/shared/schemas/params";
import { ForceSubmitSchema } from "@/lib/shared/schemas/proctor-actions";

/**
 * Submits the attempt on the candidate's behalf with what the server holds. Idempotent without a key: an
 * attempt already submitted (by anyone) answers 200 with that submission and `alreadySubmitted: true`.
 * The body is optional (`{ "reason" }`, or nothing), so it is read here rather than by `route()`.
 */
export const POST = route({ access: "proctor", params: AttemptParamsSchema }, async ({ params, principal, request }) => {
  const parsed = ForceSubmitSchema.safeParse((await readJsonBody(request)) ?? {});
  if (!parsed.success) throw validationError(parsed.error);
  return json(await forceSubmitAttempt({ id: params.attemptId, caller: principal, reason: parsed.data.reason ?? null }));
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
