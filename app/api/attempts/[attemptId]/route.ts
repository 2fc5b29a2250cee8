import { getAttempt } from "@/lib/server/attempts/get-attempt";
import { json, route } from "@/lib/server/http/route";
import { AttemptParamsSchema } from "@/lib/shared/schemas/params";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";

export const GET = route({ access: "candidate", params: AttemptParamsSchema }, async ({ params, principal }) => {
  return json(await getAttempt({ attemptId: params.attemptId, candidate: principal }));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
