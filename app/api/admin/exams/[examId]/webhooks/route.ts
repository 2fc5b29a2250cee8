import { z } from "zod";

import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { createWebhookEndpoint } from "@/lib/server/webhooks/create-webhook-endpoint";
import { listWebhookEndpoints } from "@/lib/server/webhooks/list-webhook-endpoints";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";
import { CreateWebhookSchema, CreatedWebhookSchema, WebhookEndpointSchema } from "@/lib/shared/schemas/webhooks";

export const dynamic = "force-dynamic";

/** Adds a receiver of the exam's events (issue 16); the signing secret is in this response only. */
export const POST = route(
  {
    access: "admin",
    params: ExamParamsSchema,
    body: CreateWebhookSchema,
    doc: {
      operationId: "createWebhookEndpoint",
      area: "admin",
      summary: "Add a webhook receiver to an exam",
      description:
        "A URL (http or https, at most 2,000 characters) and the events it wants (`submission.created`, " +
        "`result.released`, `result.updated`). Deliveries follow the Standard Webhooks specification, signed with " +
        "the returned `secret` (`whsec_…`), which is shown only here and on rotation.",
      responses: { 201: { description: "The endpoint, with its secret", schema: CreatedWebhookSchema } },
      errors: ["VALIDATION_FAILED"],
    },
  },
  async ({ params, body, principal }) =>
    json(await createWebhookEndpoint({ examId: params.examId, input: body, caller: principal }), { status: 201 }),
);

/** The exam's receivers, with their breakers and delivery counts. */
export const GET = route(
  {
    access: "admin",
    params: ExamParamsSchema,
    doc: {
      operationId: "listWebhookEndpoints",
      area: "admin",
      summary: "An exam's webhook receivers",
      description: "Each with its circuit breaker (shared by every instance) and its deliveries counted by status.",
      responses: {
        200: { description: "The endpoints", schema: z.object({ endpoints: z.array(WebhookEndpointSchema) }) },
      },
    },
  },
  async ({ params }) =>
    json(await listWebhookEndpoints({ examId: params.examId }), { headers: { "Cache-Control": "no-store" } }),
);

export const { PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET", "POST");
