import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { getAttemptRecord } from "../offline/attempts";
import { ATTEMPT_ID, Q } from "@/test-support/client/fake-server";
import { FakeEventStreams, testEnvironment } from "@/test-support/client/fake-tabs";
import { createHarness, type Harness } from "@/test-support/client/harness";

/**
 * An admin reopens a submitted attempt (ADR 017; docs/sync-protocol.md, "Reopening"). The device holds the
 * attempt as submitted (its own submit's 200, or closed by a proctor's force-submit); when the server shows it
 * in progress again with this device's submission among the earlier ones, the page leaves its final screen,
 * keeps its drafts, and the next Submit is a new request with a new Idempotency-Key.
 */

let h: Harness;
let streams: FakeEventStreams;
beforeEach(() => {
  h = createHarness();
  streams = new FakeEventStreams();
});
afterEach(async () => {
  await h.cleanup();
});

async function started() {
  const tab = h.engine({ initialView: h.server.view(), environment: testEnvironment({ streams }) });
  await tab.engine.start();
  await h.settle();
  return tab;
}

const later = (ms: number) => new Date(Date.parse(h.server.deadline) + ms).toISOString();
const submitKeys = () => h.server.requestsTo("submit").map((request) => request.headers["idempotency-key"]);

describe("reopened after the candidate's own submit", () => {
  it("the reopened event opens the page again with the new deadline; drafts stay; the next submit is a new key", async () => {
    const { engine } = await started();
    await engine.edit(Q.text, "first answer");
    const submitted = await engine.submit();
    expect(submitted.submitState).toBe("submitted");
    const firstKey = (await getAttemptRecord(h.db, ATTEMPT_ID))!.idempotencyKey;

    const deadline = later(600_000);
    h.server.reopen(deadline);
    streams.live()[0]!.emit("reopened", { serverTime: h.server.serverTime(), deadline });
    await h.settle();

    const open = engine.getSnapshot();
    expect(open).toMatchObject({ submitState: "unsubmitted", closed: null, submitResponse: null, deadline });
    expect(open.answers[Q.text]).toMatchObject({ value: "first answer", status: "saved" });
    const record = (await getAttemptRecord(h.db, ATTEMPT_ID))!;
    expect(record).toMatchObject({ submitBody: null, submitDigest: null, submittedElsewhere: null });
    expect(record.idempotencyKey).not.toBe(firstKey);

    expect(await engine.edit(Q.text, "second answer")).toMatchObject({ ok: true });
    const again = await engine.submit();
    expect(again.submitState).toBe("submitted");
    expect(again.submitResponse).toMatchObject({ submissionId: "sub-2" });
    expect(submitKeys()).toEqual([firstKey, record.idempotencyKey]);
    expect(h.server.answers.get(Q.text)).toMatchObject({ value: "second answer" });
  });

  it("a reload after the reopening: the page's render is not trusted, the live GET is, and it opens the page", async () => {
    const first = await started();
    await first.engine.edit(Q.text, "kept");
    await first.engine.submit();
    first.engine.stop();

    h.server.reopen(later(600_000));
    // A kept copy of the page from before the submit would also say in progress: only the GET decides.
    const reloaded = h.engine({ initialView: h.server.view(), environment: testEnvironment() });
    await reloaded.engine.start();
    await h.settle();
    expect(reloaded.engine.getSnapshot()).toMatchObject({ submitState: "unsubmitted", closed: null });
    expect(reloaded.engine.getSnapshot().answers[Q.text]).toMatchObject({ value: "kept" });
    expect(h.server.requestsTo("get").length).toBeGreaterThanOrEqual(1);
  });

  it("a server that shows the attempt in progress without this device's submission among the earlier ones does not open it", async () => {
    const { engine } = await started();
    await engine.submit();
    // A server answer that cannot be about this submission (no earlier submissions): the device keeps its receipt.
    h.server.status = "in_progress";
    h.server.submission = null;
    streams.live()[0]!.emit("reopened", { serverTime: h.server.serverTime(), deadline: later(60_000) });
    await h.settle();
    expect(engine.getSnapshot().submitState).toBe("submitted");
    expect(engine.getSnapshot().submitResponse).toMatchObject({ submissionId: "sub-1" });
  });
});

describe("reopened after a proctor's force-submit", () => {
  it("leaves the closed screen, re-sends what the server kept as late answers, and submits anew", async () => {
    const { engine } = await started();
    await engine.edit(Q.text, "before");
    await h.advance(1_500);
    await h.server.freeze();
    streams.live()[0]!.emit("submitted", { serverTime: h.server.serverTime() });
    await h.settle();
    expect(engine.getSnapshot().closed).toMatchObject({ reason: "ALREADY_SUBMITTED", submissionId: "sub-1" });

    const deadline = later(600_000);
    h.server.reopen(deadline);
    streams.live()[0]!.emit("reopened", { serverTime: h.server.serverTime(), deadline });
    await h.settle();
    expect(engine.getSnapshot()).toMatchObject({ closed: null, submitState: "unsubmitted", deadline });
    expect(engine.getSnapshot().answers[Q.text]).toMatchObject({ value: "before" });

    await engine.edit(Q.essay, "after the reopening");
    await h.advance(1_500);
    expect(h.server.answers.get(Q.essay)).toMatchObject({ value: "after the reopening" });
    const final = await engine.submit();
    expect(final.submitResponse).toMatchObject({ submissionId: "sub-2" });
  });

  it("a draft the server kept as late while frozen is pending again after the reopening and reaches the paper", async () => {
    const { engine } = await started();
    await h.server.freeze();
    // Typed while the page did not know yet: the autosave meets the frozen attempt and the draft is kept late.
    await engine.edit(Q.numeric, 32);
    await h.advance(1_500);
    expect(engine.getSnapshot().answers[Q.numeric]).toMatchObject({ status: "late" });

    h.server.reopen(later(600_000));
    streams.live()[0]!.emit("reopened", { serverTime: h.server.serverTime(), deadline: h.server.deadline });
    await h.advance(1_500);
    expect(engine.getSnapshot().closed).toBeNull();
    expect(h.server.answers.get(Q.numeric)).toMatchObject({ value: 32 });
    expect(engine.getSnapshot().answers[Q.numeric]).toMatchObject({ status: "saved" });
  });
});
