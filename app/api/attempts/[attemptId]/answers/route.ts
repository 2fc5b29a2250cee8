import { saveAnswers } from "@/lib/server/answers/save-answers";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { recordAutosaveResults } from "@/lib/server/metrics/record-answer-outcomes";
import { AttemptParamsSchema } from "@/lib/shared/schemas/params";
import { AutosaveSchema } from "@/lib/shared/schemas/sync";

/**
 * Versioned delta autosave: per answer applied / duplicate / stale; the device status it may carry is kept as a
 * heartbeat's (ADR 022). Rate-limited, counted and timed.
 */
export const POST = route(
  {
    access: "candidate",
    params: AttemptParamsSchema,
    body: AutosaveSchema,
    limit: "autosave",
    observe: "autosave",
    // The session is checked in the autosave's one statement (save-answers.ts): one round trip, not two.
    foldsSessionCheck: true,
  },
  async ({ params, body, principal }) => {
    const result = await saveAnswers({
      attemptId: params.attemptId,
      candidate: principal,
      deviceId: body.deviceId,
      answers: body.answers,
      device: body.device,
    });
    recordAutosaveResults(result.results);
    return json(result);
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
