import { startWebhookReceiver } from "../admin/webhook-receiver";
import { startThroughApi } from "../proctor/dashboard-page";
import { expect } from "../fixtures";
import { defineScreen } from "./registry";

/**
 * An exam's webhooks: none yet, the add form's errors, the secret shown once; then (after a submit whose delivery
 * the receiver refuses) the dead letter in the deliveries, one delivery with its attempts, the endpoints again
 * (the refusing receiver's endpoint reads "Failing").
 */
export default defineScreen({
  name: "webhooks",
  roles: ["admin"],
  timeoutMs: 240_000,
  setup: async ({ createExam, enrollCandidate, onTeardown, pick }) => {
    // A receiver that refuses with 400: final at once, so the delivery is dead without waiting for retries.
    const receiver = await startWebhookReceiver(400);
    onTeardown(() => receiver.close());
    const exam = await createExam({ title: pick("Networking 101 — final exam", "网络基础 — 期末考试") });
    const candidate = await enrollCandidate(exam.id, { name: pick("Ada Lovelace", "王伟") });
    return { exam, candidate, receiver };
  },
  url: ({ exam }) => `/admin/exams/${exam.id}/webhooks`,
  ready: (page) => page.getByTestId("webhooks-empty"),
  states: [
    {
      name: "form-errors",
      act: (page, _data, { words }) =>
        page.getByTestId("webhook-add-form").getByRole("button", { name: words.webhooks.add.submit }).click(),
      ready: async (page, _data, { words }) => {
        await expect(page.getByTestId("webhook-add-form").getByLabel(words.webhooks.add.url)).toHaveAttribute(
          "aria-invalid",
          "true",
        );
      },
    },
    {
      name: "secret-dialog",
      act: async (page, { receiver }, { words }) => {
        const form = page.getByTestId("webhook-add-form");
        await form.getByLabel(words.webhooks.add.url).fill(receiver.url);
        await form.getByRole("checkbox").first().check();
        await form.getByRole("button", { name: words.webhooks.add.submit }).click();
      },
      ready: async (page) => {
        await expect(page.getByRole("dialog").getByTestId("webhook-secret")).toContainText("whsec_");
      },
      capture: "viewport",
    },
    {
      name: "deliveries-dead",
      act: async (page, { exam, candidate, receiver }, { server }) => {
        await page.keyboard.press("Escape");
        await expect(page.getByRole("dialog")).toBeHidden();
        const api = await startThroughApi(server.baseURL, exam.id, candidate);
        const submitted = await api.request.post(`/api/attempts/${api.attemptId}/submit`, {
          data: { deviceId: api.deviceId, answers: [] },
          headers: { "Idempotency-Key": `screen-webhooks-${api.attemptId}` },
        });
        expect(submitted.status(), await submitted.text()).toBe(200);
        await api.request.dispose();
        await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
        await page.goto(`/admin/webhooks/deliveries?status=dead&examId=${exam.id}`);
      },
      ready: async (page) => {
        const first = page.getByTestId("deliveries").getByRole("row").nth(1);
        await expect(first.getByTestId("delivery-status")).toHaveAttribute("data-status", "dead", {
          timeout: 30_000,
        });
      },
    },
    {
      name: "delivery",
      act: (page) =>
        page.getByTestId("deliveries").getByRole("row").nth(1).getByRole("rowheader").getByRole("link").click(),
      ready: (page) => page.getByTestId("delivery-attempts"),
    },
    {
      name: "endpoints",
      act: async (page, { exam }) => {
        await page.goto(`/admin/exams/${exam.id}/webhooks`);
      },
      ready: async (page, _data, { words }) => {
        await expect(page.getByTestId("webhook-count-dead")).toHaveText("1");
        // The receiver refused its one delivery (a final 400, so the breaker stayed closed): not "healthy".
        await expect(page.getByTestId("webhook-breaker")).toHaveText(words.webhooks.endpoints.breaker.failing);
      },
    },
  ],
});
