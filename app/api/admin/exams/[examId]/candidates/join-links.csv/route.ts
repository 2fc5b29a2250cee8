import { z } from "zod";

import { exportJoinLinks } from "@/lib/server/enrollments/export-join-links";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { requestLocale } from "@/lib/server/http/request-locale";
import { route } from "@/lib/server/http/route";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";

export const dynamic = "force-dynamic";

/** Every candidate's join link as a CSV download (docs/admin-api.md). */
export const GET = route(
  {
    access: "admin",
    params: ExamParamsSchema,
    doc: {
      operationId: "exportJoinLinks",
      area: "admin",
      summary: "Every candidate's join link as CSV",
      description: "By name in the reader's order (the holdfast_locale cookie or Accept-Language), then email.",
      responses: {
        200: {
          description: "A CSV download (UTF-8)",
          contentType: "text/csv",
          schema: z.string(),
          headers: { "Content-Disposition": '`attachment; filename="join-links-{examId}.csv"`' },
        },
      },
    },
  },
  async ({ params, request }) => {
    const csv = await exportJoinLinks({ examId: params.examId, locale: requestLocale(request) });
    return new Response(csv, {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="join-links-${params.examId}.csv"`,
        "Cache-Control": "no-store",
      },
    });
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
