import "server-only";

import { Webhook } from "standardwebhooks";

import { parseRetryAfter } from "@/lib/shared/webhook-backoff";

import type { ClaimedDelivery } from "./delivery-worker";

/*
 * One try of a delivery on the wire (ADR 018): the body, its Standard Webhooks signatures, the POST and what
 * came back. The claim before it and the outcome after it are the worker's (./delivery-worker.ts).
 */

/** The exact body sent on every try of a delivery: a Standard Webhooks `{ type, timestamp, data }`. */
export function deliveryBody(delivery: Pick<ClaimedDelivery, "event_type" | "occurred_at" | "payload">): string {
  return JSON.stringify({
    type: delivery.event_type,
    timestamp: delivery.occurred_at.toISOString(),
    data: delivery.payload,
  });
}

/** The signature header: the current secret's, and during a rotation the previous one's too, space-separated. */
export function signatureHeader(
  delivery: Pick<ClaimedDelivery, "id" | "secret" | "previous_secret" | "previous_secret_valid_until">,
  at: Date,
  body: string,
): string {
  const signatures = [new Webhook(delivery.secret).sign(delivery.id, at, body)];
  if (delivery.previous_secret && delivery.previous_secret_valid_until && delivery.previous_secret_valid_until > at) {
    signatures.push(new Webhook(delivery.previous_secret).sign(delivery.id, at, body));
  }
  return signatures.join(" ");
}

export type SendResult = {
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  snippet: string | null;
  retryAfterMs: number | null;
};

const SNIPPET_CHARS = 500;

/** POSTs one delivery, signed; never throws: a network error or a timeout is a result without a status. */
export async function postDelivery(delivery: ClaimedDelivery, timeoutMs: number): Promise<SendResult> {
  const body = deliveryBody(delivery);
  const at = new Date();
  const started = performance.now();
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(delivery.url, {
      method: "POST",
      redirect: "manual",
      signal,
      headers: {
        "content-type": "application/json",
        "user-agent": "Holdfast-Webhooks/1",
        "webhook-id": delivery.id,
        "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
        "webhook-signature": signatureHeader(delivery, at, body),
      },
      body,
    });
    let text = "";
    try {
      text = await response.text();
    } catch {
      text = "";
    }
    return {
      statusCode: response.status,
      latencyMs: Math.round(performance.now() - started),
      error: null,
      snippet: text.slice(0, SNIPPET_CHARS) || null,
      retryAfterMs: parseRetryAfter(response.headers.get("retry-after")),
    };
  } catch (error) {
    const timedOut = signal.aborted;
    return {
      statusCode: null,
      latencyMs: Math.round(performance.now() - started),
      error: timedOut ? `timeout after ${timeoutMs} ms` : describeError(error),
      snippet: null,
      retryAfterMs: null,
    };
  }
}

function describeError(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as Error & { cause?: unknown }).cause;
    const detail = cause instanceof Error ? `: ${cause.message}` : "";
    return `${error.message}${detail}`.slice(0, SNIPPET_CHARS);
  }
  return "network error";
}
