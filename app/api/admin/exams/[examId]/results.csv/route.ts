import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { route } from "@/lib/server/http/route";
import { exportResultsCsv } from "@/lib/server/results/export-results-csv";
import { AppError } from "@/lib/shared/errors";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";

export const dynamic = "force-dynamic";

/** Every enrolled candidate's result as a CSV download, streamed (docs/admin-api.md, "Results"). */
export const GET = route({ access: "admin", params: ExamParamsSchema }, async ({ params }) => {
  const csv = await exportResultsCsv(params.examId);
  if (!csv) throw new AppError("NOT_FOUND", "Not found.");
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="results-${params.examId}.csv"`,
      "Cache-Control": "no-store",
    },
  });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
