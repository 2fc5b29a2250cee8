import { listDisagreements } from "@/lib/server/grading/list-disagreements";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { AppError } from "@/lib/shared/errors";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";

export const dynamic = "force-dynamic";

/** Double marks that differ and wait for an admin's final mark (docs/results.md, "Grading"). */
export const GET = route({ access: "admin", params: ExamParamsSchema }, async ({ params }) => {
  const disagreements = await listDisagreements(params);
  if (!disagreements) throw new AppError("NOT_FOUND", "Not found.");
  return json(disagreements, { headers: { "Cache-Control": "no-store" } });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
