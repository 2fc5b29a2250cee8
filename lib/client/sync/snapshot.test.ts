import { describe, expect, it } from "vitest";

import type { DraftRecord } from "../offline/db";
import { buildSnapshot, type SnapshotInput } from "./snapshot";
import type { AnswerState, NetStatus } from "./sync-state";

const NET: NetStatus = {
  online: true,
  connection: "ok",
  consecutiveFailures: 0,
  retryAt: null,
  nextAttemptAt: null,
  breaker: "closed",
  blocked: null,
};

function draft(questionId: string, overrides: Partial<DraftRecord> = {}): DraftRecord {
  return {
    attemptId: "a1",
    questionId,
    value: questionId,
    version: 1,
    deviceId: "dev-1",
    dirty: 0,
    editedAt: 0,
    rejected: null,
    ...overrides,
  };
}

function input(overrides: Partial<SnapshotInput> = {}): SnapshotInput {
  return {
    attemptId: "a1",
    ready: true,
    storageError: null,
    storeSuperseded: false,
    deviceId: "dev-1",
    attempt: null,
    initialView: null,
    drafts: new Map(),
    optimistic: new Map(),
    net: NET,
    now: 10_000,
    submitRequested: false,
    isLeader: true,
    ...overrides,
  };
}

describe("buildSnapshot", () => {
  it("tells each answer's status from its draft and counts pending and rejected ones", () => {
    const drafts = new Map([
      ["q1", draft("q1")],
      ["q2", draft("q2", { dirty: 1, editedAt: 4_000 })],
      ["q3", draft("q3", { dirty: 1, editedAt: 2_500 })],
      ["q4", draft("q4", { rejected: { status: 422, code: "VALIDATION_FAILED", message: "too long" } })],
      ["q5", draft("q5", { lateAt: 9_000 })],
    ]);
    const snapshot = buildSnapshot(input({ drafts }), new Map());
    expect(snapshot.answers.q1?.status).toBe("saved");
    expect(snapshot.answers.q2?.status).toBe("pending");
    expect(snapshot.answers.q4).toMatchObject({ status: "rejected", message: "too long" });
    expect(snapshot.answers.q5?.status).toBe("late");
    expect(snapshot.pendingCount).toBe(2);
    expect(snapshot.rejectedCount).toBe(1);
    expect(snapshot.oldestPendingAt).toBe(2_500);
    expect(snapshot.oldestPendingMs).toBe(7_500);
  });

  it("shows an optimistic edit as pending over its draft, keeping the draft's version", () => {
    const drafts = new Map([["q1", draft("q1", { version: 7 })]]);
    const optimistic = new Map([["q1", { value: "new", at: 9_500 }]]);
    const snapshot = buildSnapshot(input({ drafts, optimistic }), new Map());
    expect(snapshot.answers.q1).toEqual({
      value: "new",
      version: 7,
      status: "pending",
      editedAt: 9_500,
      deviceId: "dev-1",
    });
    expect(snapshot.pendingCount).toBe(1);
  });

  it("keeps the cached object of an unchanged answer and replaces a changed one", () => {
    const cache = new Map<string, AnswerState>();
    const first = buildSnapshot(
      input({
        drafts: new Map([
          ["q1", draft("q1")],
          ["q2", draft("q2")],
        ]),
      }),
      cache,
    );
    const second = buildSnapshot(
      input({
        drafts: new Map([
          ["q1", draft("q1")],
          ["q2", draft("q2", { version: 2 })],
        ]),
      }),
      cache,
    );
    expect(second.answers.q1).toBe(first.answers.q1);
    expect(second.answers.q2).not.toBe(first.answers.q2);
    expect(cache.get("q2")).toBe(second.answers.q2);
  });

  it("shows a submit as submitting while it is requested and the record is still unsubmitted", () => {
    const snapshot = buildSnapshot(input({ submitRequested: true }), new Map());
    expect(snapshot.submitState).toBe("unsubmitted");
    const attempt = { submitState: "unsubmitted", questions: [], flagged: [] } as unknown as SnapshotInput["attempt"];
    expect(buildSnapshot(input({ submitRequested: true, attempt }), new Map()).submitState).toBe("submitting");
  });

  it("passes the network view through", () => {
    const net: NetStatus = { ...NET, online: false, connection: "offline", consecutiveFailures: 3, retryAt: 12_000 };
    const snapshot = buildSnapshot(input({ net, isLeader: false }), new Map());
    expect(snapshot).toMatchObject({
      online: false,
      connection: "offline",
      consecutiveFailures: 3,
      retryAt: 12_000,
      isLeader: false,
    });
  });
});
