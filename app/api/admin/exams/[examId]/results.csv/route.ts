import { z } from "zod";

import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { requestLocale } from "@/lib/server/http/request-locale";
import { route } from "@/lib/server/http/route";
import { exportResultsCsv } from "@/lib/server/results/export-results-csv";
import { AppError } from "@/lib/shared/errors";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";

export const dynamic = "force-dynamic";

/** Every enrolled candidate's result as a CSV download, streamed (docs/admin-api.md, "Results"). */
export const GET = route(
  {
    access: "admin",
    params: ExamParamsSchema,
    doc: {
      operationId: "exportResultsCsv",
      area: "admin",
      summary: "Every enrolled candidate's result as CSV",
      description:
        "One row per enrolled candidate, by name in the reader's order (the holdfast_locale cookie or " +
        "Accept-Language: pinyin order for Chinese), then email: name, email, external_id (the student number, empty when none), status (not_started, " +
        "in_progress, submitted), submitted_at, " +
        "score, max_score, graded (true when no answer waits for a person), then q<position> per question with the " +
        "points (exact decimals, at most four places). UTF-8 with a byte order mark, CRLF, streamed.",
      responses: {
        200: {
          description: "A CSV download (UTF-8 with BOM)",
          contentType: "text/csv",
          schema: z.string(),
          headers: { "Content-Disposition": '`attachment; filename="results-{examId}.csv"`' },
        },
      },
    },
  },
  async ({ params, request }) => {
    const csv = await exportResultsCsv(params.examId, requestLocale(request));
    if (!csv) throw new AppError("NOT_FOUND", "Not found.");
    return new Response(csv, {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="results-${params.examId}.csv"`,
        "Cache-Control": "no-store",
      },
    });
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
