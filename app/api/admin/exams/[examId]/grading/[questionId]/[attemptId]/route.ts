import { saveGrade } from "@/lib/server/grading/save-grade";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { GradeParamsSchema, SaveGradeSchema } from "@/lib/shared/schemas/grading";

/** A person's mark on one answer, checked against the revision it was based on (docs/results.md, "Grading"). */
export const PUT = route(
  { access: "grader", params: GradeParamsSchema, body: SaveGradeSchema },
  async ({ params, body, principal }) => json(await saveGrade({ ...params, input: body, caller: principal })),
);

export const { GET, POST, PATCH, DELETE, OPTIONS } = methodsNotAllowed("PUT");
