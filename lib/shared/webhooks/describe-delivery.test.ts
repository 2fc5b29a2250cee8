import { describe, expect, it } from "vitest";

import type { WebhookDelivery } from "../schemas/webhooks";
import { attentionCount, deliveryState, eventKey } from "./describe-delivery";

const NOW = Date.parse("2026-12-02T10:00:00Z");

function delivery(overrides: Partial<WebhookDelivery>): WebhookDelivery {
  return {
    id: "msg_2abc",
    endpointId: "00000000-0000-4000-8000-000000000001",
    endpointUrl: "http://127.0.0.1:9999/hook",
    examId: "00000000-0000-4000-8000-000000000002",
    examTitle: "Networks 101",
    candidateName: "Ada Lovelace",
    eventType: "result.released",
    status: "pending",
    attempts: 0,
    nextAttemptAt: null,
    createdAt: "2026-12-02T09:00:00Z",
    deliveredAt: null,
    lastStatus: null,
    lastError: null,
    deadReason: null,
    cancelReason: null,
    ...overrides,
  };
}

describe("deliveryState", () => {
  it("a pending delivery due later names its next try; one due now or without a time is being sent", () => {
    expect(deliveryState(delivery({ nextAttemptAt: "2026-12-02T10:05:00Z" }), NOW)).toEqual({
      key: "nextAttempt",
      at: "2026-12-02T10:05:00Z",
    });
    expect(deliveryState(delivery({ nextAttemptAt: "2026-12-02T09:59:00Z" }), NOW)).toEqual({ key: "sendingNow" });
    expect(deliveryState(delivery({ nextAttemptAt: null }), NOW)).toEqual({ key: "sendingNow" });
  });

  it("a delivered one says when", () => {
    expect(
      deliveryState(delivery({ status: "delivered", deliveredAt: "2026-12-02T09:30:00Z", attempts: 2 }), NOW),
    ).toEqual({ key: "deliveredAt", at: "2026-12-02T09:30:00Z" });
  });

  it("a dead one says why: the receiver's final status, attempts given up, or 410 Gone", () => {
    expect(
      deliveryState(delivery({ status: "dead", deadReason: "final_status", lastStatus: 400, attempts: 1 }), NOW),
    ).toEqual({ key: "deadReasons.final_statusCode", status: 400 });
    expect(deliveryState(delivery({ status: "dead", deadReason: "final_status", lastStatus: null }), NOW)).toEqual({
      key: "deadReasons.final_status",
    });
    expect(
      deliveryState(delivery({ status: "dead", deadReason: "attempts_exhausted", lastStatus: 500, attempts: 4 }), NOW),
    ).toEqual({ key: "deadReasons.attempts_exhausted", count: 4 });
    expect(deliveryState(delivery({ status: "dead", deadReason: "gone_410", lastStatus: 410 }), NOW)).toEqual({
      key: "deadReasons.gone_410",
    });
  });

  it("a cancelled one names its reason", () => {
    expect(deliveryState(delivery({ status: "cancelled", cancelReason: "superseded" }), NOW)).toEqual({
      key: "cancelReasons.superseded",
    });
    expect(deliveryState(delivery({ status: "cancelled", cancelReason: "endpoint_deleted" }), NOW)).toEqual({
      key: "cancelReasons.endpoint_deleted",
    });
  });
});

describe("eventKey and attentionCount", () => {
  it("turns an event into its catalog key", () => {
    expect(eventKey("submission.created")).toBe("submission_created");
    expect(eventKey("result.updated")).toBe("result_updated");
  });

  it("counts dead deliveries and open breakers together, never below zero", () => {
    expect(attentionCount({ dead: 2, openBreakers: 1 })).toBe(3);
    expect(attentionCount({ dead: 0, openBreakers: 0 })).toBe(0);
    expect(attentionCount({ dead: -1, openBreakers: 2 })).toBe(2);
  });
});
