import { importEmergencyExport } from "@/lib/server/exports/import-emergency-export";
import { json, route } from "@/lib/server/http/route";
import { EmergencyExportFileSchema } from "@/lib/shared/schemas/emergency-export";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";

/** Staff upload a candidate's emergency file: decrypted, scoped to the uploader's exams, applied or kept late. */
export const POST = route({ access: "proctor", body: EmergencyExportFileSchema }, async ({ body, principal }) => {
  return json(await importEmergencyExport({ file: body, principal }));
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
