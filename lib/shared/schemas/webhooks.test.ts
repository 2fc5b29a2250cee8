import { describe, expect, it } from "vitest";

import {
  CreateWebhookSchema,
  DeliveryIdSchema,
  RetryEndpointSchema,
  UpdateWebhookSchema,
  WEBHOOK_URL_MAX,
} from "./webhooks";

describe("CreateWebhookSchema", () => {
  it("accepts an https URL, or plain http to this machine, with events each once", () => {
    expect(
      CreateWebhookSchema.safeParse({ url: "https://lms.example.org/hooks/holdfast", events: ["result.released"] })
        .success,
    ).toBe(true);
    const local = CreateWebhookSchema.parse({
      url: "  http://127.0.0.1:4100/hook ",
      events: ["submission.created", "result.updated"],
    });
    expect(local.url).toBe("http://127.0.0.1:4100/hook");
  });

  it("refuses other schemes, non-URLs and URLs over the limit", () => {
    for (const url of ["ftp://example.org/x", "javascript:alert(1)", "example.org/hook", "", "http://"]) {
      expect(CreateWebhookSchema.safeParse({ url, events: ["result.released"] }).success, url).toBe(false);
    }
    const long = `https://example.org/${"a".repeat(WEBHOOK_URL_MAX)}`;
    expect(CreateWebhookSchema.safeParse({ url: long, events: ["result.released"] }).success).toBe(false);
  });

  it("needs at least one known event, each once", () => {
    const url = "https://example.org/hook";
    expect(CreateWebhookSchema.safeParse({ url, events: [] }).success).toBe(false);
    expect(CreateWebhookSchema.safeParse({ url, events: ["result.deleted"] }).success).toBe(false);
    expect(CreateWebhookSchema.safeParse({ url, events: ["result.released", "result.released"] }).success).toBe(false);
  });
});

describe("the other bodies", () => {
  it("an update changes something", () => {
    expect(UpdateWebhookSchema.safeParse({ enabled: false }).success).toBe(true);
    expect(UpdateWebhookSchema.safeParse({}).success).toBe(false);
  });

  it("retry-since takes an ISO time with its offset", () => {
    expect(RetryEndpointSchema.safeParse({ since: "2026-12-01T08:00:00.000Z" }).success).toBe(true);
    expect(RetryEndpointSchema.safeParse({ since: "2026-12-01T08:00:00+08:00" }).success).toBe(true);
    expect(RetryEndpointSchema.safeParse({ since: "yesterday" }).success).toBe(false);
  });

  it("a delivery id is a webhook-id", () => {
    expect(DeliveryIdSchema.safeParse(`msg_${"0123456789abcdef".repeat(2)}`).success).toBe(true);
    expect(DeliveryIdSchema.safeParse("00000000-0000-4000-8000-000000000001").success).toBe(false);
    expect(DeliveryIdSchema.safeParse("msg_../../etc").success).toBe(false);
  });
});
