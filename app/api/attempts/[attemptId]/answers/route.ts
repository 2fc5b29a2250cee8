import { saveAnswers } from "@/lib/server/answers/save-answers";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { recordAutosaveResults } from "@/lib/server/metrics/record-answer-outcomes";
import { AttemptParamsSchema } from "@/lib/shared/schemas/params";
import { AutosaveResponseSchema } from "@/lib/shared/schemas/responses/attempts";
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
    doc: {
      operationId: "saveAnswers",
      area: "candidate",
      summary: "Versioned delta autosave",
      description:
        "Stores each answer iff its (version, deviceId) is greater than the stored one. A stale answer is a " +
        "normal 200 result carrying the server's value; unknown question ids are 422 and nothing is applied.",
      responses: { 200: { description: "Per answer: applied, duplicate or stale", schema: AutosaveResponseSchema } },
      errors: ["ALREADY_SUBMITTED", "DEADLINE_PASSED"],
    },
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
