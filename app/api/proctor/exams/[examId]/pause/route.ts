import { z } from "zod";

import { optionalIdempotencyKey } from "@/lib/server/http/idempotency-key";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { IDEMPOTENT_REPLAYED } from "@/lib/server/http/route-doc";
import { pauseExam } from "@/lib/server/pauses/change-pause";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";
import { PauseSchema } from "@/lib/shared/schemas/pauses";
import { PauseResponseSchema } from "@/lib/shared/schemas/responses/proctor";

/**
 * Stops the clock of every running attempt of the exam, or of `enrollmentIds` (ADR 016). With an
 * Idempotency-Key, a retry never pauses twice: it gets the first response, with `Idempotent-Replayed: true`.
 * The body is checked by the operation after the scope: an exam the caller may not see is a 404 whatever the body.
 */
export const POST = route(
  // z.unknown(): route() still requires a JSON body; its fields are the operation's to check, after the scope.
  {
    access: "proctor",
    params: ExamParamsSchema,
    body: z.unknown(),
    doc: {
      operationId: "pauseExam",
      area: "proctor",
      summary: "Pause the exam, or a selection of its candidates",
      description:
        "Stops the clock of every running attempt in scope (without `enrollmentIds`: the whole exam, and candidates " +
        "who start meanwhile start paused). Paused attempts are never auto-submitted; editing is locked on the " +
        "candidate's page, a submit is still accepted. Pausing what is already paused answers 200 with `attempts: 0`. " +
        "With an Idempotency-Key a retry never pauses twice: it gets the stored response.",
      checkedBody: PauseSchema,
      idempotencyKey: "optional",
      responses: {
        200: { description: "What the pause did", schema: PauseResponseSchema, headers: IDEMPOTENT_REPLAYED },
      },
      errors: ["IDEMPOTENCY_KEY_REUSED", "REQUEST_IN_PROGRESS"],
    },
  },
  async ({ params, body, principal, request }) => {
    const { response, isReplay } = await pauseExam({
      examId: params.examId,
      caller: principal,
      body,
      requestKey: optionalIdempotencyKey(request),
    });
    return json(response, { headers: isReplay ? { "Idempotent-Replayed": "true" } : {} });
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
