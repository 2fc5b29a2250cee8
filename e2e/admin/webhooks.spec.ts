import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";

import type enStaffMessages from "../../messages/en/staff.json";
import type enWebhookMessages from "../../messages/en/webhooks.json";
import { expect, test } from "../fixtures";
import { startThroughApi } from "../proctor/dashboard-page";
import { startWebhookReceiver, type WebhookReceiver } from "./webhook-receiver";

// Issue 16, results delivery that survives the receiver. An admin adds a webhook endpoint through the page and
// sees its secret once. A candidate submits; the receiver answers 500, so the delivery is tried again on the
// short schedule the e2e server runs with (WEBHOOK_RETRY_SCHEDULE=1,1,1) and ends in the dead letter. The admin
// finds it on the deliveries page with every attempt, fixes the receiver, presses Retry and sees it delivered.
// The receiver got the same webhook-id every time: its idempotency key held across the retries.

function catalogs(locale: string): { w: typeof enWebhookMessages; staff: typeof enStaffMessages } {
  const folder = locale === "zh-CN" ? "zh-CN" : "en";
  const read = (name: string) =>
    JSON.parse(readFileSync(new URL(`../../messages/${folder}/${name}.json`, import.meta.url), "utf8")) as unknown;
  return { w: read("webhooks") as typeof enWebhookMessages, staff: read("staff") as typeof enStaffMessages };
}

for (const locale of ["en-US", "zh-CN"] as const) {
  const { w, staff } = catalogs(locale);

  test.describe(`webhooks, ${locale}`, () => {
    test.use({ locale, timezoneId: locale === "zh-CN" ? "Asia/Shanghai" : "Europe/London" });
    // Four attempts a second or more apart, a breaker that may hold them back, then a retry: a slow story.
    test.describe.configure({ timeout: 240_000 });

    let receiver: WebhookReceiver | undefined;
    test.afterEach(async () => {
      await receiver?.close();
      receiver = undefined;
    });

    test("a dead-lettered delivery is seen with its attempts, retried once the receiver is fixed, and delivered", async ({
      page,
      server,
      createExam,
      enrollCandidate,
      createStaff,
      signIn,
    }) => {
      receiver = await startWebhookReceiver(500);
      const exam = await createExam();
      const candidate = await enrollCandidate(exam.id);
      const admin = await createStaff("admin");
      await signIn(page.context(), admin);

      // The exam's page links to its webhooks, beside its other results pages.
      await page.goto(`/admin/exams/${exam.id}`);
      await page
        .getByRole("navigation", { name: staff.resultsNav.label, exact: true })
        .getByRole("link", { name: staff.resultsNav.webhooks, exact: true })
        .click();
      await expect(page).toHaveURL(new RegExp(`/admin/exams/${exam.id}/webhooks$`));
      await expect(page.getByTestId("webhooks-empty")).toBeVisible();

      // An empty URL and no event: each error beside its field, in the page's language, and nothing is sent.
      const url = page.getByLabel(w.add.url);
      for (const key of ["submission_created", "result_released", "result_updated"] as const) {
        await page.getByLabel(w.events[key]).uncheck();
      }
      await page.getByRole("button", { name: w.add.submit }).click();
      await expect(url).toHaveAttribute("aria-invalid", "true");
      await expect(page.getByText(w.add.urlMissing)).toBeVisible();
      await expect(page.getByText(w.add.eventsMissing)).toBeVisible();
      await url.fill("ftp://example.org/hook");
      await page.getByRole("button", { name: w.add.submit }).click();
      await expect(page.getByText(w.add.urlInvalid)).toBeVisible();
      await expect(page.getByTestId("webhooks-empty")).toBeVisible();

      // Added: the secret is shown once, in a dialog that says so.
      await url.fill(receiver.url);
      await page.getByLabel(w.events.submission_created).check();
      await page.getByRole("button", { name: w.add.submit }).click();
      const secretDialog = page.getByRole("dialog", { name: w.secret.createdTitle });
      await expect(secretDialog).toBeVisible();
      await expect(secretDialog).toContainText(w.secret.createdIntro);
      const secret = (await secretDialog.getByTestId("webhook-secret").textContent())?.trim() ?? "";
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
      await secretDialog.getByRole("button", { name: w.secret.done }).click();
      await expect(secretDialog).toBeHidden();
      const card = page.getByTestId("webhook-endpoint").filter({ hasText: receiver.url });
      await expect(card).toBeVisible();
      await expect(card.getByTestId("webhook-enabled")).toHaveText(w.endpoints.sending);
      await expect(page.getByText(secret)).toHaveCount(0);
      await page.reload();
      await expect(card).toBeVisible();
      await expect(page.getByText(secret)).toHaveCount(0);

      // A candidate submits (as the exam page would); the receiver fails every try.
      const api = await startThroughApi(server.baseURL, exam.id, candidate);
      try {
        const submitted = await api.request.post(`/api/attempts/${api.attemptId}/submit`, {
          headers: { "Idempotency-Key": randomUUID() },
          data: { deviceId: api.deviceId, answers: [{ questionId: exam.questionIds[0]!, value: "b", version: 1 }] },
        });
        expect(submitted.status(), await submitted.text()).toBe(200);
      } finally {
        await api.request.dispose();
      }
      await expect.poll(() => receiver!.received.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(1);

      // The endpoint's deliveries, in the dead letter once the attempts are spent.
      await card.getByRole("link", { name: w.endpoints.deliveriesLabel.replace("{url}", receiver.url) }).click();
      await expect(page).toHaveURL(/\/admin\/webhooks\/deliveries\?endpointId=/);
      await page
        .getByRole("navigation", { name: w.deliveries.filterLabel })
        .getByRole("link", { name: w.statuses.dead })
        .click();
      await expect(page).toHaveURL(/status=dead/);
      const rows = page.getByTestId("deliveries").locator("tbody tr");
      await expect(rows).toHaveCount(1, { timeout: 90_000 });
      await expect(rows.first().getByTestId("delivery-status")).toHaveText(w.statuses.dead);
      const triedBeforeRetry = receiver.received.length;
      expect(triedBeforeRetry).toBeGreaterThanOrEqual(2);
      expect(receiver.received.every((request) => request.answered === 500)).toBe(true);

      // Its page: the webhook-id the receiver saw, every attempt the receiver answered, the payload.
      // The row names its exam and candidate too; its first link (the event) opens the delivery.
      await expect(rows.first()).toContainText(exam.title);
      await expect(rows.first()).toContainText(candidate.name);
      await rows.first().getByRole("rowheader").getByRole("link").click();
      await expect(page).toHaveURL(/\/admin\/webhooks\/deliveries\/msg_/);
      const webhookId = receiver.received[0]!.webhookId;
      expect(webhookId).toMatch(/^msg_/);
      await expect(page.getByTestId("delivery-webhook-id")).toHaveText(webhookId);
      await expect(page.getByTestId("delivery-status")).toHaveText(w.statuses.dead);
      // The header counts what needs someone (read as the page opens, the delivery already dead).
      await expect(page.getByTestId("deliveries-count")).toBeVisible();
      await expect(page.getByTestId("delivery-attempts").locator('tbody tr[data-status-code="500"]')).toHaveCount(
        triedBeforeRetry,
      );
      await expect(page.getByTestId("delivery-attempts")).toContainText("receiver says 500");
      await expect(page.getByTestId("delivery-payload")).toContainText(exam.id);
      await expect(page.getByTestId("delivery-payload")).toContainText(candidate.email);

      // Fixed: Retry sends it again and it is delivered.
      receiver.status = 200;
      await page.getByRole("button", { name: w.detail.retry }).click();
      await expect(page.getByRole("status").filter({ hasText: w.detail.retried })).toBeVisible();
      await expect(page.getByTestId("delivery-status")).toHaveText(w.statuses.delivered, { timeout: 120_000 });
      await expect(page.getByTestId("delivery-attempts").locator('tbody tr[data-status-code="200"]')).toHaveCount(1);
      await expect(page.getByRole("button", { name: w.detail.retry })).toHaveCount(0);

      // The receiver: one success, every request with the same webhook-id, the signed Standard Webhooks body.
      expect(receiver.received.filter((request) => request.answered === 200)).toHaveLength(1);
      expect(new Set(receiver.received.map((request) => request.webhookId))).toEqual(new Set([webhookId]));
      for (const request of receiver.received) {
        expect(request.signature).toMatch(/^v1,/);
        expect(request.timestamp).toMatch(/^\d+$/);
      }
      expect(receiver.received.at(-1)!.body).toMatchObject({
        type: "submission.created",
        data: { examId: exam.id, candidate: { email: candidate.email } },
      });

      // The endpoint says it recovered and counts the delivery.
      await page.goto(`/admin/exams/${exam.id}/webhooks`);
      await expect(card.getByTestId("webhook-count-delivered")).toHaveText("1");
      await expect(card.getByTestId("webhook-count-dead")).toHaveText("0");
      await expect(card.getByTestId("webhook-recovered")).toBeVisible();
    });
  });
}
