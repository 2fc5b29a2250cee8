import { exportAuditCsv } from "@/lib/server/audit/export-audit-csv";
import { listAuditEvents } from "@/lib/server/audit/list-audit-events";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { validationError } from "@/lib/shared/errors";
import { AUDIT_PAGE_DEFAULT, AuditQuerySchema, auditQueryInput } from "@/lib/shared/schemas/audit";
import { AuditPageSchema } from "@/lib/shared/schemas/responses/audit";

export const dynamic = "force-dynamic";

/**
 * The audit log, newest first (docs/admin-api.md, "Audit log"): a JSON page with `nextCursor`, or with
 * `?format=csv` or `Accept: text/csv` the whole filtered log as a CSV download.
 */
export const GET = route(
  {
    access: "admin",
    doc: {
      operationId: "listAuditEvents",
      area: "admin",
      summary: "The audit log: who did what and when",
      description:
        "Newest first, filtered by exam, person, kind and time; keyset pages (`nextCursor`). With `?format=csv` or " +
        "`Accept: text/csv`, the whole filtered log as one CSV download (UTF-8 with a byte order mark; a cell " +
        "starting with = + - @ gets a leading apostrophe). Entries can never be changed or deleted.",
      query: AuditQuerySchema,
      responses: {
        200: {
          description: "A page of entries (JSON), or the CSV file",
          schema: AuditPageSchema,
          headers: { "Content-Disposition": '`attachment; filename="audit-log.csv"` (CSV only)' },
        },
      },
      errors: ["VALIDATION_FAILED"],
    },
  },
  async ({ request }) => {
    const parsed = AuditQuerySchema.safeParse(auditQueryInput(new URL(request.url).searchParams));
    if (!parsed.success) throw validationError(parsed.error, "query");
    const query = parsed.data;
    const wantsCsv = query.format === "csv" || (query.format === undefined && acceptsCsv(request));
    if (wantsCsv) {
      return new Response(exportAuditCsv({ query }), {
        headers: {
          "Content-Type": "text/csv; charset=utf-8",
          "Content-Disposition": 'attachment; filename="audit-log.csv"',
          "Cache-Control": "no-store",
        },
      });
    }
    const page = await listAuditEvents({ query, limit: query.limit ?? AUDIT_PAGE_DEFAULT });
    return json(page, { headers: { "Cache-Control": "no-store" } });
  },
);

/** `Accept: text/csv` asks for the file; a browser's `*\/*` or `application/json` gets JSON. */
function acceptsCsv(request: Request): boolean {
  return /(^|,)\s*text\/csv\s*(;|,|$)/i.test(request.headers.get("accept") ?? "");
}

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
