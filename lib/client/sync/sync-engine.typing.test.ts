import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { StoreTable, type StoreName } from "../offline/db";
import { listDrafts } from "../offline/drafts";
import type { SyncSnapshot } from "./sync-state";
import { ATTEMPT_ID, Q } from "@/test-support/client/fake-server";
import { createHarness, type Harness } from "@/test-support/client/harness";

/**
 * Fast typing (docs/sync-protocol.md, "The client", E1): edits are written one transaction at a time, and a
 * keystroke made while its question's write is still waiting for its turn joins that write. The device never
 * falls behind the candidate by more than the transaction committing now, so a crash right after typing keeps
 * what was typed (issue 11, defect 6).
 */

let h: Harness;
beforeEach(() => {
  h = createHarness();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await h.cleanup();
});

async function started() {
  const tab = h.engine({ initialView: h.server.view() });
  await tab.engine.start();
  await h.settle();
  return tab;
}

/** Counts the read-write transactions that write a draft. */
function countDraftWrites() {
  const put = vi.spyOn(StoreTable.prototype, "put");
  return () => put.mock.contexts.filter((table) => (table as StoreTable<StoreName>).name === "drafts").length;
}

describe("a burst of keystrokes", () => {
  it("costs one transaction, not one per key, and the device holds the newest text", async () => {
    const { engine } = await started();
    const writes = countDraftWrites();
    const text = "SYN, SYN-ACK, ACK";
    const results = [];
    for (let length = 1; length <= text.length; length += 1) results.push(engine.edit(Q.essay, text.slice(0, length)));
    // Shown at once, before anything committed.
    expect(engine.getSnapshot().answers[Q.essay]).toMatchObject({ value: text, status: "pending" });

    const outcomes = await Promise.all(results);
    expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
    // Every key after the first joined the write waiting for its turn.
    expect(writes()).toBe(1);
    const [draft] = await listDrafts(h.db, ATTEMPT_ID);
    expect(draft).toMatchObject({ questionId: Q.essay, value: text, version: 1, dirty: 1 });
    expect(outcomes).toEqual(outcomes.map(() => ({ ok: true, version: 1 })));
    expect(engine.getSnapshot().answers[Q.essay]).toMatchObject({ value: text, version: 1, status: "pending" });
    expect(engine.getSnapshot().clock).toBe(1);

    // Later keys get a write of their own, again one for the burst.
    const during = engine.edit(Q.essay, `${text}!`);
    const after = engine.edit(Q.essay, `${text}!!`);
    expect(await during).toEqual({ ok: true, version: 2 });
    expect(await after).toEqual({ ok: true, version: 2 });
    expect(writes()).toBe(2);

    await h.advance(1_500);
    expect(h.server.answers.get(Q.essay)).toMatchObject({ value: `${text}!!`, version: 2 });
    expect(engine.getSnapshot().pendingCount).toBe(0);
  });

  it("keeps each question's own writes: keys in two questions are never merged", async () => {
    const { engine } = await started();
    const results = [
      engine.edit(Q.text, "A"),
      engine.edit(Q.essay, "E"),
      engine.edit(Q.text, "AR"),
      engine.edit(Q.essay, "Es"),
      engine.edit(Q.text, "ARP"),
    ];
    await Promise.all(results);
    const drafts = new Map((await listDrafts(h.db, ATTEMPT_ID)).map((draft) => [draft.questionId, draft]));
    expect(drafts.get(Q.text)?.value).toBe("ARP");
    expect(drafts.get(Q.essay)?.value).toBe("Es");
    expect(engine.getSnapshot().answers[Q.text]).toMatchObject({ value: "ARP", status: "pending" });
    expect(engine.getSnapshot().answers[Q.essay]).toMatchObject({ value: "Es", status: "pending" });
  });

  it("is all in the submitted paper when Submit is clicked right after the last key", async () => {
    const { engine } = await started();
    for (const value of ["4", "42", "42.5"]) void engine.edit(Q.numeric, Number(value));
    const submitted = await engine.submit();
    expect(submitted.submitState).toBe("submitted");
    expect(h.server.answers.get(Q.numeric)).toMatchObject({ value: 42.5 });
  });

  it("reaches the device before a reload: a new engine on the same store shows the newest text", async () => {
    const first = await started();
    const text = "typed just before the tab died";
    for (let length = 1; length <= text.length; length += 1) void first.engine.edit(Q.essay, text.slice(0, length));
    await first.engine.whenIdle();
    first.engine.stop();

    const reloaded = h.engine({ initialView: h.server.view() });
    await reloaded.engine.start();
    expect(reloaded.engine.getSnapshot()).toMatchObject({ ready: true });
    expect(reloaded.engine.getSnapshot().answers[Q.essay]).toMatchObject({ value: text, status: "pending" });
  });
});

describe("before the device's store is read", () => {
  it("shows the page's render, refuses edits, and shows the device's newer draft in the same snapshot that says ready", async () => {
    const first = await started();
    await first.engine.edit(Q.essay, "acknowledged");
    await h.advance(1_500);
    await first.engine.edit(Q.essay, "newer, only on the device");
    first.engine.stop();

    // The server (and so the page's render) holds the older text.
    const render = h.server.view();
    const reloaded = h.engine({ initialView: render });
    const seen: { ready: boolean; value: unknown }[] = [];
    reloaded.engine.subscribe(() => {
      const snapshot = reloaded.engine.getSnapshot();
      seen.push({ ready: snapshot.ready, value: snapshot.answers[Q.essay]?.value });
    });
    expect(reloaded.engine.getSnapshot()).toMatchObject({ ready: false });
    expect(reloaded.engine.getSnapshot().answers[Q.essay]).toMatchObject({ value: "acknowledged" });
    expect(await reloaded.engine.edit(Q.essay, "typed too early")).toMatchObject({ ok: false, reason: "not-ready" });

    await reloaded.engine.start();
    await h.settle();
    // No snapshot is ready with anything but the device's newest draft.
    expect(seen.filter((snapshot) => snapshot.ready).map((snapshot) => snapshot.value)).not.toContain("acknowledged");
    expect(seen.find((snapshot) => snapshot.ready)?.value).toBe("newer, only on the device");
  });
});

describe("what a committed keystroke hands the page", () => {
  it("keeps the very question objects and flags, so only the edited question's card re-renders", async () => {
    const { engine } = await started();
    await engine.toggleFlag(Q.essay);
    const before = engine.getSnapshot();
    expect(before.questions.length).toBeGreaterThan(1);
    expect(before.flagged).toEqual([Q.essay]);

    expect(await engine.edit(Q.essay, "a")).toEqual({ ok: true, version: 1 });
    expect(await engine.edit(Q.essay, "ab")).toEqual({ ok: true, version: 2 });
    const after = engine.getSnapshot();
    // The record was read back from IndexedDB at each commit (new objects); the page gets the same ones.
    expect(after.clock).toBe(2);
    expect(after.questions).toBe(before.questions);
    after.questions.forEach((question, index) => expect(question).toBe(before.questions[index]));
    expect(after.flagged).toBe(before.flagged);
  });

  it("a question the server changed is a new object, the others stay the same", async () => {
    // The page rendered the paper before a correction; the live read after start brings the corrected prompt.
    const rendered = h.server.view();
    h.server.questions = h.server.questions.map((question) =>
      question.id === Q.essay ? { ...question, prompt: `${question.prompt} (corrected)` } : question,
    );
    const { engine } = h.engine({ initialView: rendered });
    const seen: SyncSnapshot[] = [];
    engine.subscribe(() => seen.push(engine.getSnapshot()));
    await engine.start();
    await h.settle();
    const original = seen.find((snapshot) => snapshot.ready && snapshot.questions.length > 0)!;
    const essayAt = original.questions.findIndex((question) => question.id === Q.essay);
    expect(original.questions[essayAt]!.prompt).not.toMatch(/corrected/);

    const after = engine.getSnapshot().questions;
    expect(after).not.toBe(original.questions);
    expect(after[essayAt]!.prompt).toMatch(/\(corrected\)$/);
    for (const [index, question] of after.entries()) {
      if (index !== essayAt) expect(question).toBe(original.questions[index]);
    }
  });
});
