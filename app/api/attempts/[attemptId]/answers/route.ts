import { saveAnswers } from "@/lib/server/answers/save-answers";
import { json, route } from "@/lib/server/http/route";
import { AttemptParamsSchema } from "@/lib/shared/schemas/params";
import { AutosaveSchema } from "@/lib/shared/schemas/sync";

/** Versioned delta autosave: per answer applied / duplicate / stale. */
export const POST = route({ access: "candidate", params: AttemptParamsSchema, body: AutosaveSchema }, async ({ params, body, principal }) => {
  const result = await saveAnswers({ attemptId: params.attemptId, candidate: principal, deviceId: body.deviceId, answers: body.answers });
  return json(result);
});
