import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import { GET as attemptRoute } from "@/app/api/attempts/[attemptId]/route";
import { GET as eventsRoute } from "@/app/api/attempts/[attemptId]/events/route";
import { GET as exportKeyRoute } from "@/app/api/attempts/[attemptId]/export-key/route";
import { POST as releaseRoute } from "@/app/api/admin/exams/[examId]/results/release/route";
import { PUT as gradeRoute } from "@/app/api/admin/exams/[examId]/grading/[questionId]/[attemptId]/route";
import { autosave, heartbeat, startedAttempt, submit } from "@/test-support/server/attempts";
import { adminToken } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";
import { scoreNow } from "@/test-support/server/results";
import { readSse } from "@/test-support/server/sse";

import { GET as resultRoute } from "./route";

// "Before release nothing leaks (checked per endpoint)": a paper scored by the rules and marked by a grader with
// a comment; every endpoint a candidate can call answers without its points, its total or the grader's words
// until the exam's results are released. Then the result route shows them (the marker is real, not a typo).

describe("before release, no candidate endpoint tells the result", () => {
  it("attempt view, submit replay, autosave after the freeze, heartbeat, export key, events, result", async () => {
    const attempt = await startedAttempt();
    const q = (type: string) => attempt.questions.find((question) => question.type === type)!.id;
    const answers = [
      { questionId: q("single_choice"), value: "b", version: 1 },
      { questionId: q("essay"), value: "An essay to be marked.", version: 1 },
    ];
    expect((await autosave(attempt, { deviceId: "laptop", answers })).status).toBe(200);
    const key = randomUUID();
    expect((await submit(attempt, { deviceId: "laptop" }, key)).status).toBe(200);
    await scoreNow(attempt.attemptId);
    const comment = `grader-words-${randomUUID()}`;
    const marked = await call(gradeRoute, {
      method: "PUT",
      params: { examId: attempt.examId, questionId: q("essay"), attemptId: attempt.attemptId },
      bearer: adminToken(),
      json: { marker: "first", points: 3.25, comment, revision: 0 },
    });
    expect(marked.status, marked.text).toBe(200);

    const texts: [string, string][] = [];
    const params = { attemptId: attempt.attemptId };
    texts.push(["attempt view", (await call(attemptRoute, { params, cookie: attempt.cookie })).text]);
    texts.push(["submit replay", (await submit(attempt, { deviceId: "laptop" }, key)).text]);
    texts.push(["submit, new key", (await submit(attempt, { deviceId: "phone" }, randomUUID())).text]);
    texts.push([
      "autosave after the freeze",
      (await autosave(attempt, { deviceId: "phone", answers: [{ ...answers[0]!, version: 2 }] })).text,
    ]);
    texts.push(["heartbeat", (await heartbeat(attempt)).text]);
    texts.push(["export key", (await call(exportKeyRoute, { params, cookie: attempt.cookie })).text]);
    const controller = new AbortController();
    const stream = await eventsRoute(
      new Request(`http://holdfast.test/api/attempts/${attempt.attemptId}/events?deviceId=laptop`, {
        headers: { cookie: attempt.cookie },
        signal: controller.signal,
      }),
      { params: Promise.resolve(params) },
    );
    if (stream.status === 200) {
      const reader = readSse(stream);
      await reader.next((message) => message.event !== ":", { timeoutMs: 5_000 });
      texts.push(["events", JSON.stringify(reader.messages)]);
      await reader.cancel();
    } else {
      texts.push(["events", await stream.text()]);
    }
    controller.abort();
    const before = await call(resultRoute, { params, cookie: attempt.cookie });
    expect(before.status).toBe(403);
    texts.push(["result", before.text]);

    for (const [endpoint, text] of texts) {
      expect(text, endpoint).not.toContain(comment);
      // (A question's own "points", its maximum, is part of the paper: not a result.)
      expect(text, endpoint).not.toMatch(/"(score|maxScore|units|graded|comment|resultVersion|result)"\s*:/);
      expect(text, endpoint).not.toMatch(/\b[34]\.25\b/);
    }

    // Released: the same candidate now reads the mark and the words.
    expect(
      (await call(releaseRoute, { method: "POST", params: { examId: attempt.examId }, bearer: adminToken() })).status,
    ).toBe(200);
    const after = await call(resultRoute, { params, cookie: attempt.cookie });
    expect(after.status).toBe(200);
    expect(after.text).toContain(comment);
    expect(after.body.score).toBe(4.25);
  });
});
