import { getExportKey } from "@/lib/server/exports/get-export-key";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { AttemptParamsSchema } from "@/lib/shared/schemas/params";
import { ExportKeyResponseSchema } from "@/lib/shared/schemas/responses/attempts";

/** The attempt's emergency-export public key; the exam page keeps it on the device for when the network is gone. */
export const GET = route(
  {
    access: "candidate",
    params: AttemptParamsSchema,
    doc: {
      operationId: "getExportKey",
      area: "candidate",
      summary: "The attempt's emergency-export public key",
      responses: { 200: { description: "The key", schema: ExportKeyResponseSchema } },
    },
  },
  async ({ params, principal }) => {
    return json(await getExportKey({ attemptId: params.attemptId, candidate: principal }));
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
