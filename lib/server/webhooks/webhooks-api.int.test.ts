import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import { GET as feedRoute } from "@/app/api/admin/exams/[examId]/results/feed/route";
import { GET as listWebhooksRoute, POST as createWebhookRoute } from "@/app/api/admin/exams/[examId]/webhooks/route";
import { DELETE as deleteWebhookRoute, PATCH as patchWebhookRoute } from "@/app/api/admin/webhooks/[endpointId]/route";
import { POST as retryEndpointRoute } from "@/app/api/admin/webhooks/[endpointId]/retry/route";
import { POST as rotateRoute } from "@/app/api/admin/webhooks/[endpointId]/secret/route";
import { GET as alertsRoute } from "@/app/api/admin/webhooks/alerts/route";
import { GET as getDeliveryRoute } from "@/app/api/admin/webhooks/deliveries/[deliveryId]/route";
import { POST as cancelRoute } from "@/app/api/admin/webhooks/deliveries/[deliveryId]/cancel/route";
import { GET as listDeliveriesRoute } from "@/app/api/admin/webhooks/deliveries/route";
import { db } from "@/lib/server/db/client";
import { startedAttempt, submit } from "@/test-support/server/attempts";
import { adminToken, createExam } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";
import { scoredPapers } from "@/test-support/server/results";

async function createEndpoint(examId: string, json: unknown) {
  return call(createWebhookRoute, { params: { examId }, bearer: adminToken(), json });
}

describe("webhooks API: endpoints", () => {
  it("creates an endpoint with a whsec_ secret shown once; bad input is a 4xx that writes nothing", async () => {
    const exam = await createExam();
    const before = await db.webhookEndpoint.count();
    for (const body of [
      { url: "ftp://lms.example/hook", events: ["submission.created"] },
      { url: "not a url", events: ["submission.created"] },
      { url: `https://lms.example/${"x".repeat(2000)}`, events: ["submission.created"] },
      { url: "https://lms.example/hook", events: [] },
      { url: "https://lms.example/hook", events: ["result.updated", "result.updated"] },
      { url: "https://lms.example/hook", events: ["grade.saved"] },
      { url: "https://lms.example/hook", events: ["result.updated"], extra: true },
    ]) {
      const refused = await createEndpoint(exam.id, body);
      expect(refused.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(refused.body.error.code).toBe("VALIDATION_FAILED");
    }
    expect((await createEndpoint(randomUUID(), { url: "https://a.example", events: ["result.updated"] })).status).toBe(
      404,
    );
    const anonymous = await call(createWebhookRoute, {
      params: { examId: exam.id },
      json: { url: "https://a.example", events: ["result.updated"] },
    });
    expect(anonymous.status).toBe(401);
    expect(await db.webhookEndpoint.count()).toBe(before);

    const created = await createEndpoint(exam.id, { url: "http://127.0.0.1:9/hook", events: ["result.updated"] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      examId: exam.id,
      url: "http://127.0.0.1:9/hook",
      events: ["result.updated"],
      enabled: true,
      disabledReason: null,
      breaker: { state: "closed", consecutiveFailures: 0, openedAt: null, retryAt: null },
      counts: { pending: 0, delivered: 0, dead: 0, cancelled: 0 },
    });
    expect(created.body.secret).toMatch(/^whsec_/);

    const listed = await call(listWebhooksRoute, { params: { examId: exam.id }, bearer: adminToken() });
    expect(listed.status).toBe(200);
    expect(listed.body.endpoints).toHaveLength(1);
    expect(listed.body.endpoints[0]).not.toHaveProperty("secret");
    expect(await db.auditEvent.count({ where: { action: "webhook.created", examId: exam.id } })).toBe(1);
  });

  it("PATCH changes fields and enabling clears disabledReason; rotation returns a new secret and a 24 h window", async () => {
    const exam = await createExam();
    const created = await createEndpoint(exam.id, { url: "https://a.example/hook", events: ["result.updated"] });
    await db.webhookEndpoint.update({
      where: { id: created.body.id },
      data: { enabled: false, disabledReason: "gone_410" },
    });
    const patched = await call(patchWebhookRoute, {
      method: "PATCH",
      params: { endpointId: created.body.id },
      bearer: adminToken(),
      json: { enabled: true, events: ["result.released", "result.updated"] },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      enabled: true,
      disabledReason: null,
      events: ["result.released", "result.updated"],
      url: "https://a.example/hook",
    });
    const empty = await call(patchWebhookRoute, {
      method: "PATCH",
      params: { endpointId: created.body.id },
      bearer: adminToken(),
      json: {},
    });
    expect(empty.status).toBe(422);

    const rotated = await call(rotateRoute, {
      method: "POST",
      params: { endpointId: created.body.id },
      bearer: adminToken(),
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.body.secret);
    const window = Date.parse(rotated.body.previousSecretValidUntil) - Date.now();
    expect(window).toBeGreaterThan(23.9 * 3600_000);
    expect(window).toBeLessThan(24.1 * 3600_000);
  });
});

describe("webhooks API: deliveries", () => {
  it("lists, shows, cancels and requeues deliveries; deleting an endpoint cancels its pending ones", async () => {
    const attempt = await startedAttempt();
    const created = await createEndpoint(attempt.examId, {
      url: "http://127.0.0.1:9/hook",
      events: ["submission.created"],
    });
    const endpointId = created.body.id as string;
    expect((await submit(attempt, { deviceId: "laptop" }, randomUUID())).status).toBe(200);

    const listed = await call(listDeliveriesRoute, {
      path: `/api/admin/webhooks/deliveries?status=pending&endpointId=${endpointId}`,
      bearer: adminToken(),
    });
    expect(listed.status).toBe(200);
    expect(listed.body.deliveries).toHaveLength(1);
    const delivery = listed.body.deliveries[0];
    expect(delivery).toMatchObject({
      endpointId,
      endpointUrl: "http://127.0.0.1:9/hook",
      examId: attempt.examId,
      eventType: "submission.created",
      status: "pending",
      attempts: 0,
      deadReason: null,
      cancelReason: null,
    });
    expect(delivery).not.toHaveProperty("payload");
    const badQuery = await call(listDeliveriesRoute, {
      path: "/api/admin/webhooks/deliveries?status=lost&limit=501",
      bearer: adminToken(),
    });
    expect(badQuery.status).toBe(422);

    const detail = await call(getDeliveryRoute, { params: { deliveryId: delivery.id }, bearer: adminToken() });
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ id: delivery.id, attempts: [], attemptCount: 0 });
    expect(detail.body.payload).toMatchObject({ attemptId: attempt.attemptId, enrollmentId: attempt.enrollmentId });
    const missing = await call(getDeliveryRoute, {
      params: { deliveryId: `msg_${"0".repeat(32)}` },
      bearer: adminToken(),
    });
    expect(missing.status).toBe(404);

    const cancelled = await call(cancelRoute, {
      method: "POST",
      params: { deliveryId: delivery.id },
      bearer: adminToken(),
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: "cancelled", cancelReason: "cancelled_by_staff" });
    const again = await call(cancelRoute, {
      method: "POST",
      params: { deliveryId: delivery.id },
      bearer: adminToken(),
    });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("DELIVERY_NOT_CANCELLABLE");

    await db.webhookDelivery.update({
      where: { id: delivery.id },
      data: { status: "dead", deadReason: "final_status", cancelReason: null },
    });
    const alerts = await call(alertsRoute, { bearer: adminToken() });
    expect(alerts.status).toBe(200);
    expect(alerts.body.dead).toBeGreaterThanOrEqual(1);

    const requeued = await call(retryEndpointRoute, {
      params: { endpointId },
      bearer: adminToken(),
      json: { since: new Date(Date.now() - 3600_000).toISOString() },
    });
    expect(requeued.status).toBe(200);
    expect(requeued.body).toEqual({ requeued: 1 });
    expect(await db.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } })).toMatchObject({
      status: "pending",
      deadReason: null,
    });
    const badSince = await call(retryEndpointRoute, {
      params: { endpointId },
      bearer: adminToken(),
      json: { since: "yesterday" },
    });
    expect(badSince.status).toBe(422);

    const deleted = await call(deleteWebhookRoute, { method: "DELETE", params: { endpointId }, bearer: adminToken() });
    expect(deleted.status).toBe(204);
    expect(await db.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } })).toMatchObject({
      status: "cancelled",
      cancelReason: "endpoint_deleted",
    });
    const listAfter = await call(listWebhooksRoute, { params: { examId: attempt.examId }, bearer: adminToken() });
    expect(listAfter.body.endpoints).toHaveLength(0);
    expect(
      (await call(deleteWebhookRoute, { method: "DELETE", params: { endpointId }, bearer: adminToken() })).status,
    ).toBe(404);
    const actions = await db.auditEvent.findMany({
      where: { examId: attempt.examId, action: { in: ["delivery.cancelled", "endpoint.retried", "webhook.deleted"] } },
    });
    expect(actions.map((event) => event.action).sort()).toEqual([
      "delivery.cancelled",
      "endpoint.retried",
      "webhook.deleted",
    ]);
  });
});

describe("results feed", () => {
  it("lists result versions in order with a cursor; paging with `after` visits each once", async () => {
    const { examId, attemptIds } = await scoredPapers([{ 1: "b" }, { 1: "a" }, { 3: 6 }]);
    const feed = (query: string) =>
      call(feedRoute, {
        path: `/api/admin/exams/${examId}/results/feed${query}`,
        params: { examId },
        bearer: adminToken(),
      });
    // A version shows once every older transaction has ended, and that horizon is the whole cluster's: integration
    // files in the other workers hold transactions open on purpose (row locks), for seconds.
    await expect.poll(async () => (await feed("")).body.items?.length, { timeout: 15_000 }).toBe(3);
    const all = await feed("");
    expect(all.status).toBe(200);
    expect(all.body.items).toHaveLength(3);
    expect(all.body.next).toBeNull();

    const seen: string[] = [];
    let after = "";
    for (let page = 0; page < 5; page += 1) {
      const response = await feed(`?limit=2${after ? `&after=${after}` : ""}`);
      expect(response.status).toBe(200);
      for (const item of response.body.items) seen.push(item.attemptId);
      if (!response.body.next) break;
      expect(response.body.next).toBe(response.body.items.at(-1).cursor);
      after = response.body.next;
    }
    expect(seen).toEqual(all.body.items.map((item: { attemptId: string }) => item.attemptId));
    expect(new Set(seen)).toEqual(new Set(attemptIds));
    expect(all.body.items[0]).toMatchObject({ resultVersion: 1, maxScore: 4, cause: "submitted" });
    const last = all.body.items.at(-1).cursor as string;
    expect((await feed(`?after=${last}`)).body).toEqual({ items: [], next: null });

    expect((await feed("?after=abc")).status).toBe(422);
    expect((await feed("?limit=0")).status).toBe(422);
    const unknown = await call(feedRoute, { params: { examId: randomUUID() }, bearer: adminToken() });
    expect(unknown.status).toBe(404);
  });
});
