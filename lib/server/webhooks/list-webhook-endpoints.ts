import "server-only";

import { AppError } from "@/lib/shared/errors";
import type { WebhookEndpoint } from "@/lib/shared/schemas/webhooks";

import { db } from "../db/client";
import { readEndpoints } from "./webhook-views";

/** An exam's receivers (not deleted), oldest first. */
export async function listWebhookEndpoints(options: { examId: string }): Promise<{ endpoints: WebhookEndpoint[] }> {
  const exam = await db.exam.findUnique({ where: { id: options.examId }, select: { id: true } });
  if (!exam) throw new AppError("NOT_FOUND", "Not found.");
  return { endpoints: await readEndpoints({ examId: options.examId }) };
}
