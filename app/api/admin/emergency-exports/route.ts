import { importEmergencyExport } from "@/lib/server/exports/import-emergency-export";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { EmergencyExportFileSchema } from "@/lib/shared/schemas/emergency-export";
import { EmergencyImportResultSchema } from "@/lib/shared/schemas/responses/attempts";

/** Staff upload a candidate's emergency file: decrypted, scoped to the uploader's exams, applied or kept late. */
export const POST = route(
  {
    access: "proctor",
    body: EmergencyExportFileSchema,
    doc: {
      operationId: "importEmergencyExport",
      area: "admin",
      summary: "Upload a candidate's emergency export file",
      description:
        "Decrypts the file a candidate downloaded while offline and applies its answers with the autosave " +
        "rule, or keeps them as late answers when the attempt is frozen. Scoped to the uploader's exams.",
      responses: {
        200: { description: "What the file held and what was done with it", schema: EmergencyImportResultSchema },
      },
    },
  },
  async ({ body, principal }) => {
    return json(await importEmergencyExport({ file: body, principal }));
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
