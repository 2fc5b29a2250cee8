import "server-only";

import { randomBytes, randomUUID } from "node:crypto";

import { AppError } from "@/lib/shared/errors";
import type { CreateWebhookInput, WebhookEndpoint } from "@/lib/shared/schemas/webhooks";

import { recordAuditEvent } from "../audit/record-audit-event";
import { actorOf } from "../auth/actor";
import type { ApiTokenPrincipal, StaffPrincipal } from "../auth/sessions";
import { db } from "../db/client";
import { queryRows, sql } from "../db/sql";
import { readEndpoints } from "./webhook-views";

/** A Standard Webhooks signing secret: `whsec_` and 24 random bytes in base64. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

/** Adds a receiver to an exam; the secret is returned here only (and on rotation). Audited. */
export async function createWebhookEndpoint(options: {
  examId: string;
  input: CreateWebhookInput;
  caller: StaffPrincipal | ApiTokenPrincipal;
}): Promise<WebhookEndpoint & { secret: string }> {
  const secret = newWebhookSecret();
  return db.$transaction(async (tx) => {
    const exam = await tx.exam.findUnique({ where: { id: options.examId }, select: { id: true } });
    if (!exam) throw new AppError("NOT_FOUND", "Not found.");
    const id = randomUUID();
    await queryRows(
      sql`INSERT INTO webhook_endpoints (id, exam_id, url, events, enabled, secret)
          VALUES (${id}::uuid, ${options.examId}::uuid, ${options.input.url}, ${[...options.input.events]}::text[],
                  ${options.input.enabled ?? true}, ${secret})`,
      tx,
    );
    await queryRows(sql`INSERT INTO webhook_breakers (endpoint_id) VALUES (${id}::uuid)`, tx);
    await recordAuditEvent(
      {
        actor: actorOf(options.caller),
        action: "webhook.created",
        examId: options.examId,
        data: { endpointId: id, url: options.input.url, events: [...options.input.events] },
      },
      tx,
    );
    const [endpoint] = await readEndpoints({ endpointId: id }, tx);
    if (!endpoint) throw new Error("the new endpoint is not readable");
    return { ...endpoint, secret };
  });
}
