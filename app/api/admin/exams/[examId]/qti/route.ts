import { z } from "zod";

import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { exportExamQti } from "@/lib/server/qti/export-exam-qti";
import { importExamQti } from "@/lib/server/qti/import-exam-qti";
import { AppError, validationError } from "@/lib/shared/errors";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";
import { QTI_PACKAGE_REFUSALS, QtiImportQuerySchema } from "@/lib/shared/schemas/qti";
import { AdminExamSchema, QtiImportResultSchema } from "@/lib/shared/schemas/responses/exams";

export const dynamic = "force-dynamic";

/** The exam's questions as a QTI 3.0 content package (docs/authoring.md, "QTI 3.0"). */
export const GET = route(
  {
    access: "admin",
    params: ExamParamsSchema,
    doc: {
      operationId: "exportExamQti",
      area: "admin",
      summary: "The exam's questions as a QTI 3.0 package",
      description:
        "An IMS content package (zip): imsmanifest.xml, an assessment test listing the items in exam order and " +
        'one qti-assessment-item per question (docs/authoring.md, "QTI 3.0").',
      responses: {
        200: {
          description: "A zip download",
          contentType: "application/zip",
          schema: z.string().describe("binary"),
          headers: { "Content-Disposition": "`attachment` with a file name made from the exam's title" },
        },
      },
    },
  },
  async ({ params }) => {
    const { fileName, zip } = await exportExamQti({ examId: params.examId });
    const ascii = fileName.replace(/[^A-Za-z0-9._-]/g, "_");
    return new Response(zip as Uint8Array<ArrayBuffer>, {
      headers: {
        "Content-Type": "application/zip",
        "Content-Disposition": `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
        "Cache-Control": "no-store",
      },
    });
  },
);

/**
 * Imports a QTI 3.0 package (`application/zip`): `?dryRun=1` previews every item; without it the readable
 * items are appended to the exam, all or nothing (`?skipUnsupported=1` leaves the unsupported ones out).
 */
export const POST = route(
  {
    access: "admin",
    params: ExamParamsSchema,
    zip: true,
    doc: {
      operationId: "importExamQti",
      area: "admin",
      summary: "Import questions from a QTI 3.0 package",
      description:
        "With `?dryRun=1` the preview of every item (ok, or why it cannot be imported), nothing written. " +
        "Without it the items are appended to the exam's questions as one edit (a new revision; refused like " +
        "any edit once candidates started, QUESTIONS_LOCKED). A package with unsupported items is refused whole " +
        "(422 QTI_ITEMS_UNSUPPORTED, the preview in `error.details`) unless `?skipUnsupported=1`; a package " +
        "that cannot be read is 422 QTI_PACKAGE_INVALID with `details.reason`.",
      query: QtiImportQuerySchema,
      zipBody:
        "An IMS content package (zip) with QTI 3.0 items: choice, text entry and extended text interactions. " +
        "At most 4 MiB, 2,000 files and 32 MiB of XML unpacked.",
      responses: { 200: { description: "The preview, or the import", schema: QtiImportResultSchema } },
      errors: [
        "QTI_PACKAGE_INVALID",
        "QTI_ITEMS_UNSUPPORTED",
        "EDIT_CONFLICT",
        "QUESTIONS_LOCKED",
        "UNSUPPORTED_MEDIA_TYPE",
        "PAYLOAD_TOO_LARGE",
      ],
      errorDetails: {
        EDIT_CONFLICT: z.object({ exam: AdminExamSchema }),
        QTI_ITEMS_UNSUPPORTED: QtiImportResultSchema,
        QTI_PACKAGE_INVALID: z.object({ reason: z.enum(QTI_PACKAGE_REFUSALS), file: z.string().optional() }),
      },
    },
  },
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
