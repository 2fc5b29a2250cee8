import { getAttempt } from "@/lib/server/attempts/get-attempt";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { AttemptParamsSchema } from "@/lib/shared/schemas/params";
import { AttemptViewSchema } from "@/lib/shared/schemas/responses/attempts";

export const GET = route(
  {
    access: "candidate",
    params: AttemptParamsSchema,
    doc: {
      operationId: "getAttempt",
      area: "candidate",
      summary: "The attempt's state on the server",
      responses: { 200: { description: "The attempt", schema: AttemptViewSchema } },
    },
  },
  async ({ params, principal }) => {
    return json(await getAttempt({ attemptId: params.attemptId, candidate: principal }));
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
