import { z } from "zod";

import { saveGrade } from "@/lib/server/grading/save-grade";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { GradeParamsSchema, SaveGradeSchema } from "@/lib/shared/schemas/grading";
import { SavedGradeSchema } from "@/lib/shared/schemas/responses/grading";

/** A person's mark on one answer, checked against the revision it was based on (docs/results.md, "Grading"). */
export const PUT = route(
  {
    access: "grader",
    params: GradeParamsSchema,
    body: SaveGradeSchema,
    doc: {
      operationId: "saveGrade",
      area: "admin",
      summary: "Mark one answer",
      description:
        "An admin, the bearer token, or a grader assigned to the exam (anyone else is 403). " +
        "Points (at most the question's, at most four decimals) and a comment, by `marker`, with the `revision` " +
        "of the mark this change is based on (0 for a new one). A `final` mark (settling) is an admin's (403 for " +
        "a grader), and one person cannot give both the first and the second mark of an answer (409 SAME_MARKER). " +
        "Another grader's save on the same revision wins " +
        "once: the other gets 409 GRADE_CONFLICT with the current mark, and nothing is written. The paper's " +
        "result gets a new version in the same transaction.",
      responses: { 200: { description: "The saved mark", schema: SavedGradeSchema } },
      errors: ["GRADE_CONFLICT", "SAME_MARKER"],
      errorDetails: { GRADE_CONFLICT: z.object({ current: z.unknown() }) },
    },
  },
  async ({ params, body, principal }) => json(await saveGrade({ ...params, input: body, caller: principal })),
);

export const { GET, POST, PATCH, DELETE, OPTIONS } = methodsNotAllowed("PUT");
