import { z } from "zod";

import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { route } from "@/lib/server/http/route";
import { exportAnswersCsv } from "@/lib/server/results/export-answers-csv";
import { AppError } from "@/lib/shared/errors";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";

export const dynamic = "force-dynamic";

/** Every answer of every submitted paper as a CSV download, streamed (docs/results.md, "Exports"). */
export const GET = route(
  {
    access: "admin",
    params: ExamParamsSchema,
    doc: {
      operationId: "exportAnswersCsv",
      area: "admin",
      summary: "Every submitted answer as CSV",
      description:
        "One row per answer of every submitted paper: name, email, attempt_id, position, question_id, type, answer " +
        '(option labels joined with "; ", text or number), version, answered_at. UTF-8 with a byte order mark, ' +
        "CRLF, streamed.",
      responses: {
        200: {
          description: "A CSV download (UTF-8 with BOM)",
          contentType: "text/csv",
          schema: z.string(),
          headers: { "Content-Disposition": '`attachment; filename="answers-{examId}.csv"`' },
        },
      },
    },
  },
  async ({ params }) => {
    const csv = await exportAnswersCsv(params.examId);
    if (!csv) throw new AppError("NOT_FOUND", "Not found.");
    return new Response(csv, {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="answers-${params.examId}.csv"`,
        "Cache-Control": "no-store",
      },
    });
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
