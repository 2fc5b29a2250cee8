import { getAttempt } from "@/lib/server/attempts/get-attempt";
import { json, route } from "@/lib/server/http/route";
import { AttemptParamsSchema } from "@/lib/shared/schemas/params";

export const GET = route({ access: "candidate", params: AttemptParamsSchema }, async ({ params, principal }) => {
  return json(await getAttempt({ attemptId: params.attemptId, candidate: principal }));
});
