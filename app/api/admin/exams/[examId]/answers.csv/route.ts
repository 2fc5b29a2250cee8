import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { route } from "@/lib/server/http/route";
import { exportAnswersCsv } from "@/lib/server/results/export-answers-csv";
import { AppError } from "@/lib/shared/errors";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";

export const dynamic = "force-dynamic";

/** Every answer of every submitted paper as a CSV download, streamed (docs/results.md, "Exports"). */
export const GET = route({ access: "admin", params: ExamParamsSchema }, async ({ params }) => {
  const csv = await exportAnswersCsv(params.examId);
  if (!csv) throw new AppError("NOT_FOUND", "Not found.");
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="answers-${params.examId}.csv"`,
      "Cache-Control": "no-store",
    },
  });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
