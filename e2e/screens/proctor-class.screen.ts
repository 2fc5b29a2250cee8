import {
  candidateRow,
  heartbeat,
  startThroughApi,
  submitThroughApi,
  type ApiCandidate,
} from "../proctor/dashboard-page";
import { expect } from "../fixtures";
import { fill, defineScreen } from "./registry";

/**
 * The dashboard of a class in every state a proctor meets — not started, online, offline with edits waiting, at
 * risk, failing, submitted, auto-submitted, a digest that differs — then the exam's health with its chart and,
 * from the drawer of the candidate at risk, the extend dialog refusing a reason too short. The states are made through the
 * candidate API; "auto-submitted" has no API a test may call before the deadline, so that row's source is set in
 * SQL. The names are candidate content, written as they are in both languages.
 */
export default defineScreen({
  name: "proctor-class",
  roles: ["admin"],
  // Eight candidates made through the API, and a page that redraws every second, on shared cores.
  timeoutMs: 300_000,
  setup: async ({ createExam, enrollCandidate, server, sql, pick, onTeardown }) => {
    const exam = await createExam({ title: pick("Networking 101 — final exam", "网络基础 — 期末考试") });
    const started: ApiCandidate[] = [];
    onTeardown(async () => {
      for (const candidate of started) await candidate.request.dispose();
    });
    const start = async (name: string) => {
      const candidate = await startThroughApi(server.baseURL, exam.id, await enrollCandidate(exam.id, { name }));
      started.push(candidate);
      return candidate;
    };
    await enrollCandidate(exam.id, { name: "Ana Not-Started" });
    await heartbeat(await start("Bea Online"), { online: true });
    await heartbeat(await start("Cem Offline"), { online: false, pending: 3, oldestPendingMs: 20_000 });
    await heartbeat(await start("Dana At-Risk"), { online: true, pending: 4, oldestPendingMs: 150_000 });
    await heartbeat(await start("Eve Failing"), {
      online: true,
      pending: 2,
      oldestPendingMs: 30_000,
      consecutiveFailures: 4,
    });
    await submitThroughApi(await start("Finn Submitted"));
    const auto = await start("Gus Auto-Submitted");
    await submitThroughApi(auto);
    await sql.query("UPDATE submissions SET source = 'auto' WHERE attempt_id = $1", [auto.attemptId]);
    await submitThroughApi(await start("Hal Digest-Mismatch"), { digestDiffers: true });
    return { exam };
  },
  url: ({ exam }) => `/proctor/exams/${exam.id}`,
  // The snapshot alone draws the table; the pictures do not wait for the events stream.
  ready: async (page, _data, { words }) => {
    await expect(candidateRow(page, "Dana At-Risk", words)).toContainText(words.proctor.counters.atRisk);
    await expect(candidateRow(page, "Hal Digest-Mismatch", words)).toContainText(words.proctor.table.digestDiffers);
    await expect(candidateRow(page, "Gus Auto-Submitted", words)).toContainText(words.proctor.phase.auto_submitted);
  },
  states: [
    {
      name: "health",
      act: (page, _data, { words }) => page.getByText(words.proctor.health.title).first().click(),
      // The chart's name begins with the words before its figures ("Last hour, per minute: …").
      ready: (page, _data, { words }) =>
        page.getByRole("img", { name: new RegExp(`^${words.proctor.chart.summary.split(/[:：]/)[0]!}`) }),
      capture: "viewport",
    },
    {
      name: "extend-refused",
      act: async (page, _data, { words }) => {
        await page.getByText(words.proctor.health.title).first().click();
        await candidateRow(page, "Dana At-Risk", words).click();
        await page
          .getByRole("dialog", { name: "Dana At-Risk" })
          .getByRole("button", { name: words.proctor.drawer.extend })
          .click();
        const extend = page.getByRole("dialog", {
          name: fill(words.proctor.extend.titleOne, { name: "Dana At-Risk" }),
        });
        await extend.getByLabel(words.proctor.extend.reason).fill("ab");
        await extend.getByRole("button", { name: words.proctor.extend.submit, exact: true }).click();
      },
      // Refused beside the field: the reason is too short.
      ready: async (page, _data, { words }) => {
        const extend = page.getByRole("dialog", {
          name: fill(words.proctor.extend.titleOne, { name: "Dana At-Risk" }),
        });
        await expect(extend.getByLabel(words.proctor.extend.reason)).toHaveAccessibleDescription(/\S/);
      },
      capture: "viewport",
    },
  ],
});
