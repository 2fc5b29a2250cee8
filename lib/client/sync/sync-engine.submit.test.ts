import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { answersDigest } from "@/lib/shared/digest";

import { getAttemptRecord } from "../offline/attempts";
import { ATTEMPT_ID, Q, respond } from "@/test-support/client/fake-server";
import { createHarness, type Harness } from "@/test-support/client/harness";

/**
 * Submit (docs/sync-protocol.md, "The client", S1–S5): unsubmitted → submitting → submitted; the body and the
 * Idempotency-Key are stored at the first click and every retry, also after a reload, sends exactly them.
 */

let h: Harness;
beforeEach(() => {
  h = createHarness();
});
afterEach(async () => {
  await h.cleanup();
});

async function started(options: Parameters<Harness["engine"]>[0] = {}) {
  const tab = h.engine({ initialView: h.server.view(), ...options });
  await tab.engine.start();
  await h.settle();
  return tab;
}

/** An edit's autosave is on its way (held by the server) when Submit is clicked. */
async function clickWhileAutosaveInFlight() {
  const { engine } = await started();
  await engine.edit(Q.text, "x");
  const held = h.server.hold("answers");
  await h.advance(1_500);
  await held.arrived;
  const submitting = engine.submit();
  await h.settle();
  return { held, submitting };
}

describe("the first click", () => {
  it("stores the final delta and the digest of the whole local paper, and locks editing", async () => {
    h.server.put(Q.single, "c", 3, "aaa-phone"); // adopted at load: clean, not in the delta
    const { engine } = await started();
    await engine.edit(Q.text, "saved already");
    await h.advance(1_500);
    await engine.edit(Q.essay, "typed just before the click");

    const submitting = engine.submit();
    expect(engine.getSnapshot().submitState).toBe("submitting");
    expect(await engine.edit(Q.essay, "too late")).toMatchObject({ ok: false, reason: "submitting" });
    const final = await submitting;

    const record = (await getAttemptRecord(h.db, ATTEMPT_ID))!;
    const body = JSON.parse(record.submitBody!);
    expect(body.deviceId).toBe(final.deviceId);
    expect(
      body.answers.map((answer: { questionId: string; value: unknown }) => [answer.questionId, answer.value]),
    ).toEqual([[Q.essay, "typed just before the click"]]);
    expect(body.digest).toBe(
      await answersDigest([
        { questionId: Q.single, value: "c" },
        { questionId: Q.text, value: "saved already" },
        { questionId: Q.essay, value: "typed just before the click" },
      ]),
    );
    expect(final).toMatchObject({ submitState: "submitted", digestMismatch: false, pendingCount: 0 });
    expect(final.submitResponse).toMatchObject({
      submissionId: "sub-1",
      digest: body.digest,
      digestMatches: true,
      receipt: "receipt-signature",
    });
    expect(await engine.edit(Q.essay, "after")).toMatchObject({ ok: false, reason: "submitted" });
  });

  it("a double or triple click is one submit: the same promise, one request", async () => {
    const { engine } = await started();
    await engine.edit(Q.text, "a");
    const first = engine.submit();
    const second = engine.submit();
    const third = engine.submit();
    expect(second).toBe(first);
    expect(third).toBe(first);
    await first;
    await h.advance(30_000);
    expect(h.server.requestsTo("submit")).toHaveLength(1);
    // After it is done, another click changes nothing and sends nothing.
    expect((await engine.submit()).submitState).toBe("submitted");
    expect(h.server.requestsTo("submit")).toHaveLength(1);
  });
});

describe("retries", () => {
  it("resend the stored body byte for byte with the stored key, through every retry class", async () => {
    const { engine } = await started();
    await engine.edit(Q.numeric, 42);
    h.server.next(
      "submit",
      respond.network(),
      respond.error(500, "INTERNAL"),
      respond.error(429, "RATE_LIMITED", { headers: { "Retry-After": "2" } }),
      respond.error(409, "REQUEST_IN_PROGRESS", { headers: { "Retry-After": "1" } }),
      respond.error(503, "UNAVAILABLE", { headers: { "Retry-After": "2" } }),
    );
    const submitting = engine.submit();
    await h.settle();
    expect(engine.getSnapshot()).toMatchObject({ submitState: "submitting", consecutiveFailures: 1 });
    await h.advance(30_000);
    const final = await submitting;

    const record = (await getAttemptRecord(h.db, ATTEMPT_ID))!;
    const sent = h.server.requestsTo("submit");
    expect(sent).toHaveLength(6);
    for (const request of sent) {
      expect(request.bodyText).toBe(record.submitBody);
      expect(request.headers["idempotency-key"]).toBe(record.idempotencyKey);
    }
    const gaps = sent.slice(1).map((request, index) => request.at - sent[index]!.at);
    expect(gaps[2]).toBeGreaterThanOrEqual(2_000); // after the 429
    expect(gaps[3]).toBeGreaterThanOrEqual(1_000); // after REQUEST_IN_PROGRESS
    expect(final.submitState).toBe("submitted");
    expect(h.server.submission?.submissionId).toBe("sub-1");
  });

  it("refused by a busy server many times in a row, comes back after each Retry-After, never after a breaker's 20 s", async () => {
    const { engine } = await started();
    await engine.edit(Q.text, "x");
    const refusals = 8;
    h.server.next(
      "submit",
      ...Array.from({ length: refusals }, () => respond.error(503, "OVERLOADED", { headers: { "Retry-After": "1" } })),
    );
    const submitting = engine.submit();
    await h.settle();
    const breakerSeen = new Set<string>();
    for (let second = 0; second < 60 && engine.getSnapshot().submitState !== "submitted"; second += 1) {
      breakerSeen.add(engine.getSnapshot().breaker);
      await h.advance(1_000);
    }
    expect((await submitting).submitState).toBe("submitted");
    const sent = h.server.requestsTo("submit");
    expect(sent).toHaveLength(refusals + 1);
    expect(breakerSeen).toEqual(new Set(["closed"]));
    const gaps = sent.slice(1).map((request, index) => request.at - sent[index]!.at);
    // Never sooner than the Retry-After, never later than the backoff's cap (8 s): no cool-down of 20 s.
    for (const gap of gaps) {
      expect(gap).toBeGreaterThanOrEqual(1_000);
      expect(gap).toBeLessThanOrEqual(8_000);
    }
  });

  it("a server failing without a Retry-After still opens the breaker for its 20 s", async () => {
    const { engine } = await started();
    await engine.edit(Q.text, "x");
    h.server.next("submit", ...Array.from({ length: 5 }, () => respond.error(503, "UNAVAILABLE")));
    const submitting = engine.submit();
    await h.settle();
    await h.advance(250 + 500 + 1_000 + 2_000);
    expect(h.server.requestsTo("submit")).toHaveLength(5);
    expect(engine.getSnapshot().breaker).toBe("open");
    await h.advance(19_000);
    expect(h.server.requestsTo("submit")).toHaveLength(5);
    await h.advance(1_000);
    expect((await submitting).submitState).toBe("submitted");
    expect(h.server.requestsTo("submit")).toHaveLength(6);
  });

  it("after a reload during submitting, the new page resumes with the stored body and key", async () => {
    const first = await started();
    await first.engine.edit(Q.text, "before the crash");
    h.server.next("submit", respond.network(), respond.network());
    void first.engine.submit();
    await h.settle();
    const record = (await getAttemptRecord(h.db, ATTEMPT_ID))!;
    expect(record.submitState).toBe("submitting");
    first.engine.stop(); // the tab is reloaded

    const reloaded = h.engine({ initialView: h.server.view() });
    await reloaded.engine.start();
    expect(reloaded.engine.getSnapshot().submitState).toBe("submitting");
    expect(await reloaded.engine.edit(Q.text, "edit after reload")).toMatchObject({ ok: false, reason: "submitting" });
    await h.advance(10_000);

    const sent = h.server.requestsTo("submit");
    expect(sent.length).toBeGreaterThanOrEqual(2);
    expect(new Set(sent.map((request) => request.bodyText))).toEqual(new Set([record.submitBody]));
    expect(new Set(sent.map((request) => request.headers["idempotency-key"]))).toEqual(
      new Set([record.idempotencyKey]),
    );
    expect(reloaded.engine.getSnapshot()).toMatchObject({ submitState: "submitted" });
    expect(h.server.answers.get(Q.text)?.value).toBe("before the crash");
  });

  it("a lost 200 is replayed by the server for the same key and body, and the page ends on the receipt", async () => {
    const { engine } = await started();
    await engine.edit(Q.text, "x");
    // The server submits, but the answer never reaches the device.
    h.server.next("submit", async (request, server) => {
      await server.model(request);
      return respond.network()(request, server);
    });
    const final = await (async () => {
      const submitting = engine.submit();
      await h.advance(5_000);
      return submitting;
    })();
    expect(final.submitState).toBe("submitted");
    expect(final.submitResponse?.submissionId).toBe("sub-1");
    expect(h.server.requestsTo("submit")).toHaveLength(2);
  });
});

describe("answers that end the submit", () => {
  it("ALREADY_SUBMITTED (a proctor's force-submit) is done: the submission facts are fetched", async () => {
    const { engine } = await started();
    await engine.edit(Q.text, "mine");
    await h.advance(1_500);
    await h.server.freeze(); // with a key this device never had
    const final = await engine.submit();
    await h.settle();
    expect(final.submitState).toBe("submitted");
    const snapshot = engine.getSnapshot();
    expect(snapshot.submittedElsewhere).toEqual({
      submissionId: "sub-1",
      submittedAt: h.server.submission!.submittedAt,
      digest: h.server.submission!.digest,
    });
    expect(snapshot.submitResponse).toBeNull();
    expect(snapshot.digestMismatch).toBe(false); // the server froze exactly what this device holds
    expect(h.server.requestsTo("submit")).toHaveLength(1);
  });

  it("flags a digest mismatch when the frozen paper is not what this device holds", async () => {
    const { engine } = await started();
    await engine.edit(Q.text, "laptop");
    // The phone wrote a newer essay that this device never saw.
    h.server.put(Q.essay, "phone essay", 50, "zzz-phone");
    const final = await engine.submit();
    expect(final.submitState).toBe("submitted");
    expect(final.submitResponse?.digestMatches).toBe(false);
    expect(final.digestMismatch).toBe(true);
    expect(final.submitDigest).not.toBe(final.submitResponse?.digest);
  });

  it("another final 4xx is shown, the body is kept, and a new click sends the same body again", async () => {
    const { engine } = await started();
    await engine.edit(Q.text, "x");
    h.server.next(
      "submit",
      respond.error(422, "IDEMPOTENCY_KEY_REUSED", {
        message: "The Idempotency-Key was used before with a different body.",
      }),
    );
    const failed = await engine.submit();
    expect(failed).toMatchObject({
      submitState: "submitting",
      submitError: { status: 422, code: "IDEMPOTENCY_KEY_REUSED" },
    });
    await h.advance(60_000);
    expect(h.server.requestsTo("submit")).toHaveLength(1); // no retry loop
    expect(await engine.edit(Q.text, "y")).toMatchObject({ ok: false, reason: "submitting" });

    const again = await engine.submit();
    const sent = h.server.requestsTo("submit");
    expect(sent).toHaveLength(2);
    expect(sent[1]!.bodyText).toBe(sent[0]!.bodyText);
    expect(again).toMatchObject({ submitState: "submitted", submitError: null });
  });

  it("after a final answer, a reload tries the same body once more", async () => {
    const first = await started();
    await first.engine.edit(Q.text, "x");
    h.server.next("submit", respond.error(403, "FORBIDDEN"));
    expect((await first.engine.submit()).submitError).toMatchObject({ status: 403 });
    first.engine.stop();

    const reloaded = h.engine({ initialView: h.server.view() });
    await reloaded.engine.start();
    await h.settle();
    const sent = h.server.requestsTo("submit");
    expect(sent).toHaveLength(2);
    expect(sent[1]!.bodyText).toBe(sent[0]!.bodyText);
    expect(reloaded.engine.getSnapshot()).toMatchObject({ submitState: "submitted", submitError: null });
  });

  it("waits for an autosave in flight: still one sync request at a time", async () => {
    const { held, submitting } = await clickWhileAutosaveInFlight();
    expect(h.server.requestsTo("submit")).toHaveLength(0);
    held.release();
    expect((await submitting).submitState).toBe("submitted");
    expect(h.server.maxInFlight).toBe(1);
  });

  it("does not wait out an autosave's Retry-After (submits have their own limits), only a submit's own", async () => {
    for (const answer of [
      respond.error(503, "OVERLOADED", { headers: { "Retry-After": "5" } }),
      respond.error(429, "RATE_LIMITED", { headers: { "Retry-After": "5" } }),
    ]) {
      const { engine } = await started();
      h.server.next("answers", answer);
      await engine.edit(Q.text, "refused while busy");
      await h.advance(1_500);
      expect(h.server.requestsTo("answers")).toHaveLength(1);
      expect(engine.getSnapshot()).toMatchObject({ consecutiveFailures: 1, pendingCount: 1 });

      const clickedAt = h.clock.now();
      h.server.next("submit", respond.error(503, "OVERLOADED", { headers: { "Retry-After": "3" } }));
      const submitting = engine.submit();
      await h.settle();
      // At the click, well inside the autosave's 5 s, carrying the answer the autosave could not deliver.
      const first = h.server.requestsTo("submit");
      expect(first.map((request) => request.at)).toEqual([clickedAt]);
      expect(JSON.parse(first[0]!.bodyText!).answers).toMatchObject([
        { questionId: Q.text, value: "refused while busy" },
      ]);
      // The submit's own Retry-After holds its retry back.
      await h.advance(2_999);
      expect(h.server.requestsTo("submit")).toHaveLength(1);
      await h.advance(30_000);
      expect((await submitting).submitState).toBe("submitted");
      const sent = h.server.requestsTo("submit");
      expect(sent).toHaveLength(2);
      expect(sent[1]!.at - sent[0]!.at).toBeGreaterThanOrEqual(3_000);
      expect(h.server.requestsTo("answers")).toHaveLength(1);
      engine.stop();
      await h.cleanup();
      h = createHarness();
    }
  });

  it("an autosave in flight at the click and answered 503 with Retry-After holds the submit for the backoff alone", async () => {
    const { held, submitting } = await clickWhileAutosaveInFlight();
    const answeredAt = h.clock.now();
    held.release(respond.error(503, "OVERLOADED", { headers: { "Retry-After": "5" } }));
    await h.settle();
    // The first failure's backoff is at most 0.5 s; the autosave's 5 s are for autosaves.
    await h.advance(500);
    const sent = h.server.requestsTo("submit");
    expect(sent).toHaveLength(1);
    expect(sent[0]!.at - answeredAt).toBeLessThanOrEqual(500);
    expect((await submitting).submitState).toBe("submitted");
    expect(h.server.maxInFlight).toBe(1);
  });

  it("on a closed attempt the submit still goes and ends as done, without resending answers already kept as late", async () => {
    const { engine } = await started();
    await h.server.freeze();
    await engine.edit(Q.text, "late");
    await h.advance(1_500);
    expect(engine.getSnapshot().closed).toMatchObject({ reason: "ALREADY_SUBMITTED", submissionId: "sub-1" });
    const final = await engine.submit();
    expect(final.submitState).toBe("submitted");
    expect(final.submittedElsewhere?.submissionId).toBe("sub-1");
    // The autosave's 409 already delivered "late" as a late answer: the submit does not carry it again.
    expect(JSON.parse(h.server.requestsTo("submit")[0]!.bodyText!).answers).toHaveLength(0);
    expect(final.answers[Q.text]).toMatchObject({ value: "late", status: "late" });
  });
});
