import { saveAnswers } from "@/lib/server/answers/save-answers";
import { json, route } from "@/lib/server/http/route";
import { consumeAutosave } from "@/lib/server/limits/consume-sync-capacity";
import { observeSyncRequest } from "@/lib/server/metrics/observe-sync-request";
import { recordAutosaveResults } from "@/lib/server/metrics/record-answer-outcomes";
import { AttemptParamsSchema } from "@/lib/shared/schemas/params";
import { AutosaveSchema } from "@/lib/shared/schemas/sync";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";

/** Versioned delta autosave: per answer applied / duplicate / stale. Rate-limited, counted and timed. */
export const POST = observeSyncRequest(
  "autosave",
  route(
    { access: "candidate", params: AttemptParamsSchema, body: AutosaveSchema },
    async ({ params, body, principal }) => {
      await consumeAutosave(principal.enrollmentId);
      const result = await saveAnswers({
        attemptId: params.attemptId,
        candidate: principal,
        deviceId: body.deviceId,
        answers: body.answers,
      });
      recordAutosaveResults(result.results);
      return json(result);
    },
  ),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
