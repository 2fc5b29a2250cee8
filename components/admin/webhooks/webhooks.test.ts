import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { NextIntlClientProvider } from "next-intl";
import { createElement, type ComponentProps, type ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";

import { webhookKeys } from "@/lib/client/webhooks/query-keys";
import type { WebhookDelivery, WebhookDeliveryDetail, WebhookEndpoint } from "@/lib/shared/schemas/webhooks";
import { MESSAGES } from "@/messages";

import { DeliveryDetail } from "./delivery-detail";
import { DeliveryList, deliveriesHref } from "./delivery-list";
import { WebhookEndpoints } from "./webhook-endpoints";

// The webhook pages rendered on the server from data already in the query cache (what the API answers, by the
// contract's types): each state in words in both languages, and every message found.

const examId = "0190f3a0-0000-7000-8000-000000000001";
const endpointId = "0190f3a0-0000-7000-8000-000000000002";
const FUTURE = "2999-01-01T08:00:00.000Z";

const endpoint: WebhookEndpoint = {
  id: endpointId,
  examId,
  url: "https://lms.example.org/hooks/holdfast",
  events: ["submission.created", "result.released"],
  enabled: true,
  disabledReason: null,
  breaker: { state: "open", consecutiveFailures: 5, openedAt: "2026-12-02T08:00:00.000Z", retryAt: FUTURE },
  counts: { pending: 3, delivered: 12, dead: 2, cancelled: 1 },
  lastDead: null,
  previousSecretValidUntil: FUTURE,
  lastSuccessAt: "2026-12-02T07:00:00.000Z",
  recoveredAt: "2026-12-02T07:00:00.000Z",
  createdAt: "2026-12-01T07:00:00.000Z",
};
const gone: WebhookEndpoint = {
  ...endpoint,
  id: "0190f3a0-0000-7000-8000-000000000003",
  url: "http://127.0.0.1:4100/gone",
  enabled: false,
  disabledReason: "gone_410",
  breaker: { state: "half_open", consecutiveFailures: 1, openedAt: null, retryAt: null },
  previousSecretValidUntil: null,
  recoveredAt: null,
  lastSuccessAt: null,
};

/** Answered 400 to all six deliveries: a refusal is final, so the breaker never opened. */
const refusing: WebhookEndpoint = {
  ...endpoint,
  id: "0190f3a0-0000-7000-8000-000000000004",
  url: "https://refusing.example.org/hook",
  breaker: { state: "closed", consecutiveFailures: 0, openedAt: null, retryAt: null },
  counts: { pending: 0, delivered: 0, dead: 6, cancelled: 0 },
  lastDead: { count: 6, at: "2026-12-02T09:00:00.000Z", statusCode: 400, reason: "final_status" },
  previousSecretValidUntil: null,
  recoveredAt: null,
  lastSuccessAt: null,
};

const dead: WebhookDelivery = {
  id: "msg_2KWPBgLlAfxdpx2AI54pPJ85f4W",
  endpointId,
  endpointUrl: endpoint.url,
  examId,
  examTitle: "Networks 101",
  candidateName: "Ada Lovelace",
  eventType: "submission.created",
  status: "dead",
  attempts: 4,
  nextAttemptAt: null,
  createdAt: "2026-12-02T08:00:00.000Z",
  deliveredAt: null,
  lastStatus: 500,
  lastError: null,
  deadReason: "attempts_exhausted",
  cancelReason: null,
};
const refused: WebhookDelivery = {
  ...dead,
  id: "msg_refused",
  attempts: 1,
  lastStatus: 400,
  deadReason: "final_status",
};
const cancelled: WebhookDelivery = {
  ...dead,
  id: "msg_cancelled",
  status: "cancelled",
  deadReason: null,
  cancelReason: "superseded",
};

const detail: WebhookDeliveryDetail = {
  ...dead,
  attemptCount: 4,
  payload: { examId, candidate: { name: "Ada <b>Lovelace</b>", email: "ada@example.test" }, resultVersion: 2 },
  attempts: [
    {
      at: "2026-12-02T08:00:01.000Z",
      statusCode: 500,
      latencyMs: 41,
      error: null,
      responseSnippet: "<html>oops</html>",
      outcome: "retry",
    },
    {
      at: "2026-12-02T08:00:03.000Z",
      statusCode: null,
      latencyMs: 15000,
      error: "timeout",
      responseSnippet: null,
      outcome: "final",
    },
  ],
};

function render(locale: "en" | "zh-CN", element: ReactElement, seed: (client: QueryClient) => void) {
  const client = new QueryClient();
  seed(client);
  const missing: string[] = [];
  const intl: ComponentProps<typeof NextIntlClientProvider> = {
    locale,
    messages: MESSAGES[locale],
    timeZone: "UTC",
    onError: (error) => missing.push(error.message),
    children: createElement(QueryClientProvider, { client }, element),
  };
  const html = renderToString(createElement(NextIntlClientProvider, intl));
  return { html, missing };
}

describe("WebhookEndpoints (server render)", () => {
  const seed = (client: QueryClient) =>
    client.setQueryData(webhookKeys.endpoints(examId), { endpoints: [endpoint, gone, refusing] });

  it("shows each endpoint's state, health, counts, notices and actions in English", () => {
    const { html, missing } = render("en", createElement(WebhookEndpoints, { examId }), seed);
    expect(missing).toEqual([]);
    expect(html).toContain("https://lms.example.org/hooks/holdfast");
    expect(html).toContain("Paused after 5 failures in a row: tries again at");
    expect(html).toContain("Submission and Result released");
    expect(html).not.toContain("Recovered at");
    expect(html).toContain("the previous secret still signs beside the new one until");
    expect(html).toContain("Disabled: the receiver answered 410 Gone");
    expect(html).toContain("Testing: one delivery is being tried");
    // The receiver that refuses everything is not called healthy (the breaker stayed closed).
    expect(html).not.toContain("Healthy");
    expect(html).toContain(">Failing<");
    expect(html).toContain("Failing: 6 deliveries since the last success ended as dead letters, the latest at Dec");
    expect(html).toContain(
      "(Refused by the receiver (400): not tried again). Fix the receiver, then retry them below.",
    );
    expect(html).toContain(`href="/admin/webhooks/deliveries?endpointId=${endpointId}"`);
    expect(html).toContain('aria-label="Rotate the secret of https://lms.example.org/hooks/holdfast"');
    expect(html).toContain('aria-label="Enable http://127.0.0.1:4100/gone"');
    expect(html).toContain('type="datetime-local"');
    expect(html).toContain("Add an endpoint");
    expect(html).toContain(`href="/admin/webhooks/deliveries?examId=${examId}"`);
  });

  it("speaks Chinese in Chinese", () => {
    const { html, missing } = render("zh-CN", createElement(WebhookEndpoints, { examId }), seed);
    expect(missing).toEqual([]);
    expect(html).toContain("连续失败 5 次后已暂停");
    expect(html).toContain("已停用：接收方返回了 410 Gone");
    expect(html).not.toContain("正常");
    // The label's colon is Chinese, with no space after it.
    expect(html).toContain("接收方：</span>");
    expect(html).not.toContain("接收方: ");
    expect(html).toContain("投递失败：自上次成功以来，有 6 个投递成为死信");
    expect(html).toContain("添加端点");
  });
});

describe("DeliveryList (server render)", () => {
  const filters = { status: "dead" as const, endpointId };
  const seed = (client: QueryClient) =>
    client.setQueryData(webhookKeys.deliveries(filters), { deliveries: [dead, refused, cancelled] });

  it("lists each delivery with its status and why, the tabs keeping the endpoint filter", () => {
    const { html, missing } = render("en", createElement(DeliveryList, { filters }), seed);
    expect(missing).toEqual([]);
    expect(html).toContain("Given up after 4 attempts");
    expect(html).toContain("Refused by the receiver (400): not tried again");
    expect(html).toContain("Cancelled: a newer version of this result was already delivered");
    expect(html).toContain(`href="/admin/webhooks/deliveries/${dead.id}"`);
    // Which exam and which candidate each delivery is about; the URL breaks after its slashes and dots only.
    expect(html).toContain(`<a href="/admin/exams/${examId}/webhooks">Networks 101</a>`);
    expect(html).toContain("<td>Ada Lovelace</td>");
    expect(html).toContain("https://<wbr/>lms.<wbr/>example.<wbr/>org/<wbr/>hooks/<wbr/>holdfast");
    expect(html).toContain("Only deliveries to one endpoint.");
    expect(html).toContain(
      `<a aria-current="page" href="/admin/webhooks/deliveries?status=dead&amp;endpointId=${endpointId}">Dead letter</a>`,
    );
    expect(html).toContain(`href="/admin/webhooks/deliveries?status=pending&amp;endpointId=${endpointId}"`);
  });

  it("speaks Chinese in Chinese", () => {
    const { html, missing } = render("zh-CN", createElement(DeliveryList, { filters }), seed);
    expect(missing).toEqual([]);
    expect(html).toContain("尝试 4 次后放弃");
    expect(html).toContain("死信");
  });

  it("builds the page's address from its filters", () => {
    expect(deliveriesHref({})).toBe("/admin/webhooks/deliveries");
    expect(deliveriesHref({ status: "pending", examId })).toBe(
      `/admin/webhooks/deliveries?status=pending&examId=${examId}`,
    );
  });
});

describe("DeliveryDetail (server render)", () => {
  const seed = (client: QueryClient) => client.setQueryData(webhookKeys.delivery(dead.id), detail);

  it("shows the webhook-id, each attempt in words, the payload as text, and Retry for a dead delivery", () => {
    const { html, missing } = render("en", createElement(DeliveryDetail, { deliveryId: dead.id }), seed);
    expect(missing).toEqual([]);
    expect(html).toContain(dead.id);
    expect(html).toContain("Given up after 4 attempts");
    expect(html).toContain("Failed: tried again later");
    expect(html).toContain("Refused: not tried again");
    expect(html).toContain("No answer");
    expect(html).toContain("15,000 ms");
    expect(html).toContain("Error: timeout");
    // Whatever the receiver and the candidate wrote is text, never markup.
    expect(html).toContain("&lt;html&gt;oops&lt;/html&gt;");
    expect(html).toContain("Ada &lt;b&gt;Lovelace&lt;/b&gt;");
    expect(html).not.toContain("<b>Lovelace</b>");
    expect(html).toContain("Retry now");
    expect(html).not.toContain("Cancel delivery");
  });

  it("offers Cancel, not Retry, for a pending delivery, in Chinese", () => {
    const pending: WebhookDeliveryDetail = { ...detail, status: "pending", deadReason: null, nextAttemptAt: FUTURE };
    const { html, missing } = render("zh-CN", createElement(DeliveryDetail, { deliveryId: dead.id }), (client) =>
      client.setQueryData(webhookKeys.delivery(dead.id), pending),
    );
    expect(missing).toEqual([]);
    expect(html).toContain("取消投递");
    expect(html).not.toContain("立即重试");
    expect(html).toContain("将于");
  });
});

describe("the recovered notice", () => {
  it("is shown while the receiver is healthy again, not while it is paused", () => {
    const healthy: WebhookEndpoint = {
      ...endpoint,
      breaker: { state: "closed", consecutiveFailures: 0, openedAt: null, retryAt: null },
    };
    const { html } = render("en", createElement(WebhookEndpoints, { examId }), (client) =>
      client.setQueryData(webhookKeys.endpoints(examId), { endpoints: [healthy] }),
    );
    expect(html).toContain("Recovered at Dec 2, 2026, 07:00: this receiver accepts deliveries again.");
    expect(html).toContain("Healthy: deliveries go out as they come.");
  });
});
