import { exportJoinLinks } from "@/lib/server/enrollments/export-join-links";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { route } from "@/lib/server/http/route";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";

export const dynamic = "force-dynamic";

/** Every candidate's join link as a CSV download (docs/admin-api.md). */
export const GET = route({ access: "admin", params: ExamParamsSchema }, async ({ params }) => {
  const csv = await exportJoinLinks({ examId: params.examId });
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="join-links-${params.examId}.csv"`,
      "Cache-Control": "no-store",
    },
  });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
