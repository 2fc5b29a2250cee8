import { startThroughApi } from "../proctor/dashboard-page";
import { expect } from "../fixtures";
import { defineScreen } from "./registry";

/** The receipt verifier: empty, with a valid receipt, and with one whose signature was changed. */
export default defineScreen({
  name: "receipts",
  roles: ["admin"],
  setup: async ({ createExam, enrollCandidate, adminApi, server, sql }) => {
    const exam = await createExam();
    const candidate = await enrollCandidate(exam.id, { name: "王伟" });
    const api = await startThroughApi(server.baseURL, exam.id, candidate);
    await api.request.dispose();
    expect((await adminApi.post(`/api/proctor/attempts/${api.attemptId}/force-submit`)).status()).toBe(200);
    const { rows } = await sql.query<{ submitted_at: Date; digest: string; receipt: string }>(
      "SELECT submitted_at, digest, receipt FROM submissions WHERE attempt_id = $1",
      [api.attemptId],
    );
    const receipt = {
      format: "holdfast-receipt",
      v: 1,
      examTitle: exam.title,
      candidateName: candidate.name,
      attemptId: api.attemptId,
      submittedAt: rows[0]!.submitted_at.toISOString(),
      source: "proctor",
      digest: rows[0]!.digest,
      receipt: rows[0]!.receipt,
    };
    const signature = receipt.receipt;
    const tampered = {
      ...receipt,
      receipt: `${signature.slice(0, 5)}${signature[5] === "A" ? "B" : "A"}${signature.slice(6)}`,
    };
    return { receipt, tampered };
  },
  url: () => "/admin/receipts",
  ready: (page, _data, { words }) => page.getByLabel(words.receipts.paste),
  states: [
    {
      name: "valid",
      act: async (page, { receipt }, { words }) => {
        await page.getByLabel(words.receipts.paste).fill(JSON.stringify(receipt, null, 2));
        await page.getByRole("button", { name: words.receipts.verify, exact: true }).click();
      },
      ready: (page, _data, { words }) => page.getByRole("status").getByText(words.receipts.valid, { exact: true }),
    },
    {
      name: "invalid",
      act: async (page, { tampered }, { words }) => {
        await page.getByLabel(words.receipts.paste).fill(JSON.stringify(tampered, null, 2));
        await page.getByRole("button", { name: words.receipts.verify, exact: true }).click();
      },
      ready: (page, _data, { words }) => page.getByRole("status").getByText(words.receipts.invalid, { exact: true }),
    },
  ],
});
