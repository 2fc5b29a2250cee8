import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { exportExamQti } from "@/lib/server/qti/export-exam-qti";
import { importExamQti } from "@/lib/server/qti/import-exam-qti";
import { AppError, validationError } from "@/lib/shared/errors";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";
import { QtiImportQuerySchema } from "@/lib/shared/schemas/qti";

export const dynamic = "force-dynamic";

/** The exam's questions as a QTI 3.0 content package (docs/authoring.md, "QTI 3.0"). */
export const GET = route({ access: "admin", params: ExamParamsSchema }, async ({ params }) => {
  const { fileName, zip } = await exportExamQti({ examId: params.examId });
  const ascii = fileName.replace(/[^A-Za-z0-9._-]/g, "_");
  return new Response(zip as Uint8Array<ArrayBuffer>, {
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
      "Cache-Control": "no-store",
    },
  });
});

/**
 * Imports a QTI 3.0 package (`application/zip`): `?dryRun=1` previews every item; without it the readable
 * items are appended to the exam, all or nothing (`?skipUnsupported=1` leaves the unsupported ones out).
 */
export const POST = route(
  { access: "admin", params: ExamParamsSchema, zip: true },
  async ({ params, zip, principal, request }) => {
    const search = new URL(request.url).searchParams;
    const query = QtiImportQuerySchema.safeParse({
      dryRun: search.get("dryRun") ?? undefined,
      skipUnsupported: search.get("skipUnsupported") ?? undefined,
      revision: search.get("revision") ?? undefined,
    });
    if (!query.success) throw validationError(query.error, "query");
    if (zip === undefined) {
      throw new AppError(
        "UNSUPPORTED_MEDIA_TYPE",
        "Send the QTI package as the body, with Content-Type: application/zip.",
      );
    }
    return json(await importExamQti({ examId: params.examId, zip, query: query.data, caller: principal }));
  },
);

export const { PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET", "POST");
