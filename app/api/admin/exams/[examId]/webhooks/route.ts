import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { createWebhookEndpoint } from "@/lib/server/webhooks/create-webhook-endpoint";
import { listWebhookEndpoints } from "@/lib/server/webhooks/list-webhook-endpoints";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";
import { CreateWebhookSchema } from "@/lib/shared/schemas/webhooks";

export const dynamic = "force-dynamic";

/** Adds a receiver of the exam's events (issue 16); the signing secret is in this response only. */
export const POST = route(
  { access: "admin", params: ExamParamsSchema, body: CreateWebhookSchema },
  async ({ params, body, principal }) =>
    json(await createWebhookEndpoint({ examId: params.examId, input: body, caller: principal }), { status: 201 }),
);

/** The exam's receivers, with their breakers and delivery counts. */
export const GET = route({ access: "admin", params: ExamParamsSchema }, async ({ params }) =>
  json(await listWebhookEndpoints({ examId: params.examId }), { headers: { "Cache-Control": "no-store" } }),
);

export const { PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET", "POST");
