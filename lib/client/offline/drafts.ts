import { LIMITS } from "@/lib/shared/limits";
import type { AnswerValue, StoredAnswer } from "@/lib/shared/schemas/attempts";
import type { AutosaveResponse } from "@/lib/shared/schemas/sync";
import { compareEdits } from "@/lib/shared/versions";

import type { DraftRecord, HoldfastDb, RecordedError, StoredAttempt, Stores } from "./db";
import { withServerFacts, type ServerFacts } from "./server-facts";

/**
 * Operations on `drafts`: one row per answered question, holding the device's view of the answer (its own
 * edit or a value adopted from the server). Steps refer to docs/sync-protocol.md, "The client".
 */

export async function listDrafts(db: Stores, attemptId: string): Promise<DraftRecord[]> {
  return db.drafts.allBy("attemptId", attemptId);
}

export async function getDrafts(db: Stores, attemptId: string, questionIds: readonly string[]): Promise<DraftRecord[]> {
  const rows = await db.drafts.bulkGet(questionIds.map((questionId): [string, string] => [attemptId, questionId]));
  return rows.filter((row): row is DraftRecord => row !== undefined);
}

/** What the next autosave sends: dirty drafts not rejected for this version, oldest edit first. */
export async function listDirty(db: Stores, attemptId: string): Promise<DraftRecord[]> {
  const rows = await db.drafts.allBy("[attemptId+dirty]", [attemptId, 1]);
  return rows.filter((row) => row.rejected === null).sort((a, b) => a.editedAt - b.editedAt);
}

export type EditRefusal = "no-attempt" | "submitting" | "submitted" | "closed" | "version-limit";
export type EditOutcome =
  { kind: "written"; draft: DraftRecord; attempt: StoredAttempt } | { kind: "refused"; reason: EditRefusal };

/**
 * Step E1 — every edit, in one read-write transaction over `attempts` and `drafts`: refuse it if the attempt
 * is being submitted or is closed, else `clock = clock + 1`, `version = clock`, and the draft is written dirty
 * with this device's id. The transaction is the lock: a Submit click in another tab either commits before
 * (and this edit is refused) or after (and this edit is in the submitted delta).
 */
export async function writeEdit(
  db: HoldfastDb,
  input: { attemptId: string; questionId: string; value: AnswerValue; deviceId: string; now: number },
): Promise<EditOutcome> {
  return db.transaction("rw", ["attempts", "drafts"], async (tx): Promise<EditOutcome> => {
    const attempt = await tx.attempts.get(input.attemptId);
    if (!attempt) return { kind: "refused", reason: "no-attempt" };
    if (attempt.submitState !== "unsubmitted") return { kind: "refused", reason: attempt.submitState };
    if (attempt.closed) return { kind: "refused", reason: "closed" };
    const version = attempt.clock + 1;
    if (version > LIMITS.maxVersion) return { kind: "refused", reason: "version-limit" };

    const draft: DraftRecord = {
      attemptId: input.attemptId,
      questionId: input.questionId,
      value: input.value,
      version,
      deviceId: input.deviceId,
      dirty: 1,
      editedAt: input.now,
      rejected: null,
    };
    const next: StoredAttempt = { ...attempt, clock: version };
    // Both requests at once: the transaction commits one round trip sooner than with a wait between them.
    await Promise.all([tx.attempts.put(next), tx.drafts.put(draft)]);
    return { kind: "written", draft, attempt: next };
  });
}

/** A server answer as a clean draft (it is what the server holds, so nothing is left to send). Call inside a transaction. */
export async function adoptServerAnswer(db: Stores, attemptId: string, answer: StoredAnswer): Promise<DraftRecord> {
  const draft: DraftRecord = {
    attemptId,
    questionId: answer.questionId,
    value: answer.value,
    version: answer.version,
    deviceId: answer.deviceId,
    dirty: 0,
    editedAt: 0,
    rejected: null,
  };
  await db.drafts.put(draft);
  return draft;
}

/** This device's own clean edit, neither refused nor already delivered as a late answer. */
function isResendable(draft: DraftRecord, deviceId: string): boolean {
  return draft.deviceId === deviceId && draft.dirty === 0 && draft.rejected === null && !draft.lateAt;
}

/**
 * Step L2 — merge on load, per question: the greater `(version, deviceId)` wins (compareEdits).
 * Server greater → adopt it, clean. Equal → the server holds our draft: clean. Local greater → it is
 * pushed: this device's own edit stays (or becomes) dirty. A value another device made is never re-sent
 * under this device's id. Call inside a read-write transaction over `drafts`; returns the highest version
 * seen on either side, for the Lamport clock.
 *
 * Making an acknowledged (clean) edit dirty again says "the server no longer holds it" (a server restored
 * from a backup), which only a live read of the server (`isCurrent`) can say. The page's own render may be
 * the copy the service worker kept when the page was last loaded online, older than every acknowledgement
 * since: it lacks those edits because it predates them. From such a view, greater server edits are still
 * adopted and equal ones still cleaned (both are facts whatever the view's age), but no clean edit is made
 * dirty; the leader's GET, which follows, decides that.
 */
export async function mergeServerAnswers(
  db: Stores,
  input: { attemptId: string; deviceId: string; answers: readonly StoredAnswer[]; isCurrent: boolean },
): Promise<number> {
  const local = new Map((await listDrafts(db, input.attemptId)).map((draft) => [draft.questionId, draft]));
  let highest = 0;
  for (const draft of local.values()) highest = Math.max(highest, draft.version);

  const onServer = new Set<string>();
  for (const answer of input.answers) {
    onServer.add(answer.questionId);
    highest = Math.max(highest, answer.version);
    const draft = local.get(answer.questionId);
    const order = draft ? compareEdits(answer, draft) : 1;
    if (!draft || order > 0) {
      await adoptServerAnswer(db, input.attemptId, answer);
    } else if (order === 0) {
      if (draft.dirty === 1) await db.drafts.put({ ...draft, dirty: 0 });
    } else if (input.isCurrent && isResendable(draft, input.deviceId)) {
      await db.drafts.put({ ...draft, dirty: 1 });
    }
  }
  if (!input.isCurrent) return highest;
  // Our own edits the server does not hold at all (e.g. acknowledged, then lost in a server restore): push again.
  for (const draft of local.values()) {
    if (onServer.has(draft.questionId)) continue;
    if (isResendable(draft, input.deviceId)) {
      await db.drafts.put({ ...draft, dirty: 1 });
    }
  }
  return highest;
}

export type AcknowledgeInput = {
  attemptId: string;
  deviceId: string;
  response: AutosaveResponse;
  facts: ServerFacts;
  now: number;
};

/**
 * Step F4 — an autosave's 200, in one transaction. Per result: `applied`/`duplicate` clean the draft only
 * if it still holds the version that was sent (an edit made while the request flew stays dirty); `stale`
 * adopts the server's edit if it is greater than the local draft, which it is unless the candidate edited
 * again meanwhile. The clock moves to the highest version seen, so the next edit beats the adopted one.
 */
export async function markAcknowledged(
  db: HoldfastDb,
  input: AcknowledgeInput,
): Promise<{ attempt: StoredAttempt; drafts: DraftRecord[] }> {
  return db.transaction(
    "rw",
    ["attempts", "drafts"],
    async (tx) => {
      const attempt = await tx.attempts.get(input.attemptId);
      if (!attempt) throw new Error(`attempt ${input.attemptId} is not stored on this device`);
      const changed: DraftRecord[] = [];
      let clock = attempt.clock;
      for (const result of input.response.results) {
        clock = Math.max(clock, result.version);
        const draft = await tx.drafts.get([input.attemptId, result.questionId]);
        if (result.status === "stale") {
          const server = {
            questionId: result.questionId,
            value: result.value,
            version: result.version,
            deviceId: result.deviceId,
          };
          const order = draft ? compareEdits(server, draft) : 1;
          if (!draft || order > 0) changed.push(await adoptServerAnswer(tx, input.attemptId, server));
          else if (order === 0 && draft.dirty === 1) changed.push(await putDraft(tx, { ...draft, dirty: 0 }));
          continue;
        }
        if (draft && draft.dirty === 1 && draft.version === result.version && draft.deviceId === input.deviceId) {
          changed.push(await putDraft(tx, { ...draft, dirty: 0, rejected: null }));
        }
      }
      const next = withServerFacts(
        {
          ...attempt,
          clock,
          lastAckRevision: Math.max(attempt.lastAckRevision, input.response.revision),
          lastSyncAt: input.now,
        },
        input.facts,
      );
      await tx.attempts.put(next);
      return { attempt: next, drafts: changed };
    },
    "relaxed",
  );
}

/**
 * Step F6 — a final 4xx about the answers themselves: each named draft is marked rejected with the
 * server's message, if it still holds the version that was sent. It stays on the device and is shown;
 * the next edit of the question clears the mark.
 */
export async function markRejected(
  db: HoldfastDb,
  input: { attemptId: string; items: readonly { questionId: string; version: number }[]; error: RecordedError },
): Promise<DraftRecord[]> {
  return db.transaction("rw", ["drafts"], async (tx) => {
    const changed: DraftRecord[] = [];
    for (const item of input.items) {
      const draft = await tx.drafts.get([input.attemptId, item.questionId]);
      if (draft && draft.dirty === 1 && draft.version === item.version) {
        changed.push(await putDraft(tx, { ...draft, rejected: input.error }));
      }
    }
    return changed;
  });
}

/**
 * Step F5 — the server answered an autosave with 409 ALREADY_SUBMITTED / DEADLINE_PASSED, and kept every
 * answer of that request as a late answer. Those drafts (still at the version sent) are delivered: clean,
 * marked late, never sent again.
 */
export async function markDeliveredLate(
  db: HoldfastDb,
  input: { attemptId: string; items: readonly { questionId: string; version: number }[]; at: number },
): Promise<DraftRecord[]> {
  return db.transaction("rw", ["drafts"], async (tx) => {
    const changed: DraftRecord[] = [];
    for (const item of input.items) {
      const draft = await tx.drafts.get([input.attemptId, item.questionId]);
      if (draft && draft.dirty === 1 && draft.version === item.version) {
        changed.push(await putDraft(tx, { ...draft, dirty: 0, lateAt: input.at }));
      }
    }
    return changed;
  });
}

/**
 * After a submit's 200: the drafts the stored body carried are what the server froze, so they are clean.
 * Call inside a read-write transaction over `drafts`.
 */
export async function markSubmittedDrafts(
  db: Stores,
  input: { attemptId: string; deviceId: string; sent: readonly { questionId: string; version: number }[] },
): Promise<DraftRecord[]> {
  const changed: DraftRecord[] = [];
  for (const item of input.sent) {
    const draft = await db.drafts.get([input.attemptId, item.questionId]);
    if (draft && draft.dirty === 1 && draft.version === item.version && draft.deviceId === input.deviceId) {
      changed.push(await putDraft(db, { ...draft, dirty: 0 }));
    }
  }
  return changed;
}

/**
 * An admin reopened the attempt (ADR 017): drafts the server kept as late answers were never applied to the
 * paper, so they are pending again and the autosave sends them like any edit. Call inside a read-write
 * transaction over `drafts`.
 */
export async function resendLateDrafts(db: Stores, attemptId: string): Promise<void> {
  for (const draft of await listDrafts(db, attemptId)) {
    if (!draft.lateAt) continue;
    await putDraft(db, { ...draft, dirty: 1, lateAt: undefined });
  }
}

async function putDraft(db: Stores, draft: DraftRecord): Promise<DraftRecord> {
  await db.drafts.put(draft);
  return draft;
}
