import { z } from "zod";

import { optionalIdempotencyKey } from "@/lib/server/http/idempotency-key";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { IDEMPOTENT_REPLAYED } from "@/lib/server/http/route-doc";
import { resumeExam } from "@/lib/server/pauses/change-pause";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";
import { ResumeSchema } from "@/lib/shared/schemas/pauses";
import { PauseResponseSchema } from "@/lib/shared/schemas/responses/proctor";

/**
 * Gives every paused attempt of the exam, or of `enrollmentIds`, exactly the time it was paused, and ends a
 * whole-exam pause (ADR 016). With an Idempotency-Key, a retry never resumes twice: it gets the first response,
 * with `Idempotent-Replayed: true`. The body is checked after the scope: an exam the caller may not see is a 404.
 */
export const POST = route(
  // z.unknown(): route() still requires a JSON body; its fields are the operation's to check, after the scope.
  {
    access: "proctor",
    params: ExamParamsSchema,
    body: z.unknown(),
    doc: {
      operationId: "resumeExam",
      area: "proctor",
      summary: "Resume the exam, or a selection of its candidates",
      description:
        "Moves each paused attempt's deadline by exactly the time it was paused (the database's clock, to the " +
        "millisecond, not capped by the exam's closing time) and ends a whole-exam pause. Resuming what is not " +
        "paused answers 200 with `attempts: 0`. With an Idempotency-Key a retry never resumes twice.",
      checkedBody: ResumeSchema,
      idempotencyKey: "optional",
      responses: {
        200: { description: "What the resume did", schema: PauseResponseSchema, headers: IDEMPOTENT_REPLAYED },
      },
      errors: ["IDEMPOTENCY_KEY_REUSED", "REQUEST_IN_PROGRESS"],
    },
  },
  async ({ params, body, principal, request }) => {
    const { response, isReplay } = await resumeExam({
      examId: params.examId,
      caller: principal,
      body,
      requestKey: optionalIdempotencyKey(request),
    });
    return json(response, { headers: isReplay ? { "Idempotent-Replayed": "true" } : {} });
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
