// The checker: after a run, compare every candidate's ledger with what the server holds, read twice —
// through the API (GET /api/attempts/{id}, as the candidate) and straight from the database.
//
// Per question the expected winner is the edit with the greatest (version, deviceId) in the ledger
// (contract guarantee 3). A candidate whose own submit was answered 200 made every edit before the
// submit, so every winner must be in the submitted paper (guarantee 1). A candidate that never got that
// far may still hold unsent edits on its device; for it, only what the server acknowledged is owed.
//
// Counted: lost (the server holds less than it owes), stale overwrites (the server went below what it
// had acknowledged), phantoms (the server holds an edit nobody made), duplicate submissions (two
// submission rows, or 200s naming different submissions), digest mismatches, frozen papers changed (a
// submitted attempt whose answers no longer hash to the digest its submission froze), late answers,
// candidates not submitted, and disagreements between the API and the database. All but late answers
// must be 0.
import pg from "pg";

import { answersDigest } from "../../../lib/shared/digest";
import type { AnswerValue, StoredAnswer } from "../../../lib/shared/schemas/attempts";
import { compareStamp, type CandidateLedger, type LedgerEdit } from "../candidates/ledger";

export type ServerAttempt = {
  status: string;
  answers: StoredAnswer[];
  submission: { submissionId: string; digest: string } | null;
};

export type CheckResult = {
  candidates: number;
  attempts: number;
  edits: number;
  /** Questions with at least one edit: the answers the checker looked at. */
  answersChecked: number;
  lost: number;
  staleOverwrites: number;
  phantoms: number;
  duplicateSubmissions: number;
  /** Submitted papers whose digest is not the digest of the expected paper. */
  paperDigestMismatches: number;
  /**
   * Submitted attempts whose answers, as the database holds them now, are not the paper that was frozen
   * (their digest differs from the submission's): something wrote into a submitted attempt.
   */
  frozenPaperChanges: number;
  /** 200s to a submit whose `digestMatches` was false (the device and the server disagreed). */
  clientDigestMismatches: number;
  submitted: { byCandidate: number; elsewhere: number; bySource: Record<string, number> };
  notSubmitted: number;
  lateAnswers: number;
  apiDatabaseDisagreements: number;
  failedCandidates: number;
  /** Up to a few examples of each problem, for the report. */
  samples: string[];
  isOk: boolean;
};

const SAMPLE_LIMIT = 20;

function sameValue(a: AnswerValue | undefined, b: AnswerValue | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The greatest (version, deviceId) edit per question. */
function winners(edits: readonly LedgerEdit[]): Map<string, LedgerEdit> {
  const best = new Map<string, LedgerEdit>();
  for (const edit of edits) {
    const known = best.get(edit.questionId);
    if (!known || compareStamp(edit, known) > 0) best.set(edit.questionId, edit);
  }
  return best;
}

type DatabaseFacts = {
  answers: Map<string, StoredAnswer[]>;
  submissions: Map<string, { count: number; ids: string[]; sources: string[]; digests?: string[] }>;
  lateAnswers: Map<string, number>;
  statuses: Map<string, string>;
};

export async function readDatabaseFacts(databaseUrl: string, attemptIds: readonly string[]): Promise<DatabaseFacts> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const ids = [...attemptIds];
    const answers = new Map<string, StoredAnswer[]>();
    const rows = await client.query<{
      attemptId: string;
      questionId: string;
      value: AnswerValue;
      version: number;
      deviceId: string;
    }>(
      `SELECT attempt_id::text AS "attemptId", question_id::text AS "questionId", value, version, device_id AS "deviceId"
         FROM answers WHERE attempt_id = ANY($1::uuid[])`,
      [ids],
    );
    for (const row of rows.rows) {
      const list = answers.get(row.attemptId) ?? [];
      list.push({ questionId: row.questionId, value: row.value, version: row.version, deviceId: row.deviceId });
      answers.set(row.attemptId, list);
    }
    const submissions = new Map<string, { count: number; ids: string[]; sources: string[]; digests: string[] }>();
    const submitted = await client.query<{
      attemptId: string;
      count: number;
      ids: string[];
      sources: string[];
      digests: string[];
    }>(
      `SELECT attempt_id::text AS "attemptId", count(*)::int AS count, array_agg(id::text) AS ids, array_agg(source::text) AS sources,
              array_agg(digest) AS digests
         FROM submissions WHERE attempt_id = ANY($1::uuid[]) GROUP BY attempt_id`,
      [ids],
    );
    for (const row of submitted.rows)
      submissions.set(row.attemptId, { count: row.count, ids: row.ids, sources: row.sources, digests: row.digests });
    const lateAnswers = new Map<string, number>();
    const late = await client.query<{ attemptId: string; count: number }>(
      `SELECT attempt_id::text AS "attemptId", count(*)::int AS count FROM late_answers WHERE attempt_id = ANY($1::uuid[]) GROUP BY attempt_id`,
      [ids],
    );
    for (const row of late.rows) lateAnswers.set(row.attemptId, row.count);
    const statuses = new Map<string, string>();
    const attempts = await client.query<{ id: string; status: string }>(
      `SELECT id::text AS id, status::text AS status FROM attempts WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    for (const row of attempts.rows) statuses.set(row.id, row.status);
    return { answers, submissions, lateAnswers, statuses };
  } finally {
    await client.end();
  }
}

function answerKey(answers: readonly StoredAnswer[]): string {
  return JSON.stringify(
    [...answers]
      .sort((a, b) => a.questionId.localeCompare(b.questionId))
      .map((a) => [a.questionId, a.value, a.version, a.deviceId]),
  );
}

/**
 * Checks every ledger. `apiViews` holds the API's view of each attempt (by attempt id); a missing view
 * counts as a disagreement, as does any difference from the database.
 */
export async function checkLedgers(options: {
  ledgers: readonly CandidateLedger[];
  database: DatabaseFacts;
  apiViews: Map<string, ServerAttempt>;
  /** True when every candidate was meant to submit by the end of the run. */
  isSubmitExpected: boolean;
}): Promise<CheckResult> {
  const samples: string[] = [];
  const note = (text: string): void => {
    if (samples.length < SAMPLE_LIMIT) samples.push(text);
  };
  const result: CheckResult = {
    candidates: options.ledgers.length,
    attempts: 0,
    edits: 0,
    answersChecked: 0,
    lost: 0,
    staleOverwrites: 0,
    phantoms: 0,
    duplicateSubmissions: 0,
    paperDigestMismatches: 0,
    frozenPaperChanges: 0,
    clientDigestMismatches: 0,
    submitted: { byCandidate: 0, elsewhere: 0, bySource: {} },
    notSubmitted: 0,
    lateAnswers: 0,
    apiDatabaseDisagreements: 0,
    failedCandidates: 0,
    samples,
    isOk: false,
  };

  for (const ledger of options.ledgers) {
    result.edits += ledger.edits.length;
    if (ledger.failure) {
      result.failedCandidates += 1;
      note(`candidate ${ledger.index}: stopped early: ${ledger.failure}`);
    }
    const attemptId = ledger.attemptId;
    if (!attemptId) {
      // Never got in (join or start not answered before the run gave up): not submitted either.
      if (options.isSubmitExpected) result.notSubmitted += 1;
      continue;
    }
    result.attempts += 1;
    const stored = options.database.answers.get(attemptId) ?? [];
    const held = new Map(stored.map((answer) => [answer.questionId, answer]));
    const view = options.apiViews.get(attemptId);
    if (!view || answerKey(view.answers) !== answerKey(stored)) {
      result.apiDatabaseDisagreements += 1;
      note(
        `candidate ${ledger.index}: the API and the database disagree about attempt ${attemptId}${view ? "" : " (no API view)"}`,
      );
    }

    // Submissions: at most one row, and every 200 the candidate saw names that row.
    const submission = options.database.submissions.get(attemptId);
    if (submission && submission.count > 1) {
      result.duplicateSubmissions += submission.count - 1;
      note(`candidate ${ledger.index}: ${submission.count} submissions for attempt ${attemptId}`);
    }
    const answeredIds = new Set(ledger.submitAnswers.map((answer) => answer.submissionId));
    if (
      answeredIds.size > 1 ||
      (answeredIds.size === 1 && submission && !submission.ids.includes([...answeredIds][0] ?? ""))
    ) {
      result.duplicateSubmissions += 1;
      note(
        `candidate ${ledger.index}: its submits were answered with different submissions (${[...answeredIds].join(", ")}; database: ${submission?.ids.join(", ") ?? "none"})`,
      );
    }
    for (const source of submission?.sources ?? [])
      result.submitted.bySource[source] = (result.submitted.bySource[source] ?? 0) + 1;
    result.clientDigestMismatches +=
      ledger.submitAnswers.filter((answer) => answer.digestMatches === false).length > 0 ? 1 : 0;
    const isSubmittedByCandidate = ledger.submitAnswers.length > 0;
    if (isSubmittedByCandidate) result.submitted.byCandidate += 1;
    else if (ledger.submittedElsewhere) result.submitted.elsewhere += 1;
    if (!submission) {
      if (options.isSubmitExpected) {
        result.notSubmitted += 1;
        note(`candidate ${ledger.index}: attempt ${attemptId} has no submission`);
      }
    }
    result.lateAnswers += options.database.lateAnswers.get(attemptId) ?? 0;

    // Answers.
    const best = winners(ledger.edits);
    const owed = new Map<string, { version: number; deviceId: string; value?: AnswerValue }>();
    if (isSubmittedByCandidate) {
      for (const [questionId, edit] of best) owed.set(questionId, edit);
    } else {
      for (const [questionId, stamp] of ledger.acknowledged) {
        const edit = ledger.edits.find((item) => item.questionId === questionId && compareStamp(item, stamp) === 0);
        owed.set(questionId, { ...stamp, value: edit?.value });
      }
    }
    result.answersChecked += best.size;
    for (const [questionId, expected] of owed) {
      const actual = held.get(questionId);
      if (!actual || compareStamp(actual, expected) < 0) {
        result.lost += 1;
        note(
          `candidate ${ledger.index}: LOST question ${questionId}: expected v${expected.version}/${expected.deviceId}, server holds ${actual ? `v${actual.version}/${actual.deviceId}` : "nothing"}`,
        );
      } else if (
        compareStamp(actual, expected) === 0 &&
        expected.value !== undefined &&
        !sameValue(actual.value, expected.value)
      ) {
        result.lost += 1;
        note(
          `candidate ${ledger.index}: LOST question ${questionId}: v${expected.version}/${expected.deviceId} holds another value`,
        );
      }
    }
    for (const [questionId, stamp] of ledger.acknowledged) {
      const actual = held.get(questionId);
      if (!actual || compareStamp(actual, stamp) < 0) {
        result.staleOverwrites += 1;
        note(
          `candidate ${ledger.index}: STALE question ${questionId}: acknowledged v${stamp.version}/${stamp.deviceId}, server holds ${actual ? `v${actual.version}/${actual.deviceId}` : "nothing"}`,
        );
      }
    }
    for (const actual of stored) {
      const made = ledger.edits.some(
        (edit) =>
          edit.questionId === actual.questionId &&
          compareStamp(edit, actual) === 0 &&
          sameValue(edit.value, actual.value),
      );
      if (!made) {
        result.phantoms += 1;
        note(
          `candidate ${ledger.index}: PHANTOM question ${actual.questionId}: server holds v${actual.version}/${actual.deviceId}, which no device of this candidate made`,
        );
      }
    }

    // A submitted attempt is frozen: whoever submitted it (the candidate, another device, the deadline),
    // the answers the database holds now must still be the paper whose digest the submission recorded.
    // This needs no ledger, so it also catches a write into a paper submitted by the deadline sweeper.
    if (submission?.digests?.length) {
      const heldDigest = await answersDigest(
        stored.map((answer) => ({ questionId: answer.questionId, value: answer.value })),
      );
      if (!submission.digests.includes(heldDigest)) {
        result.frozenPaperChanges += 1;
        note(
          `candidate ${ledger.index}: FROZEN PAPER CHANGED: attempt ${attemptId} now holds answers with digest ${heldDigest.slice(0, 12)}…, its submission froze ${submission.digests[0]?.slice(0, 12)}…`,
        );
      }
    }

    // The submitted paper must be exactly the expected one.
    if (submission && isSubmittedByCandidate) {
      const paper = [...best.values()].map((edit) => ({ questionId: edit.questionId, value: edit.value }));
      const expectedDigest = await answersDigest(paper);
      const digest = view?.submission?.digest ?? ledger.submitAnswers[0]?.digest;
      if (digest !== expectedDigest) {
        result.paperDigestMismatches += 1;
        note(
          `candidate ${ledger.index}: submitted digest ${digest?.slice(0, 12)}… is not the expected paper's ${expectedDigest.slice(0, 12)}…`,
        );
      }
    }
  }

  result.isOk =
    result.lost === 0 &&
    result.staleOverwrites === 0 &&
    result.phantoms === 0 &&
    result.duplicateSubmissions === 0 &&
    result.paperDigestMismatches === 0 &&
    result.frozenPaperChanges === 0 &&
    result.apiDatabaseDisagreements === 0 &&
    (!options.isSubmitExpected || result.notSubmitted === 0);
  return result;
}

export function formatCheck(check: CheckResult): string {
  return (
    `checker: ${check.candidates} candidates, ${check.edits} edits, ${check.answersChecked} answers checked — ` +
    `lost ${check.lost}, duplicate submissions ${check.duplicateSubmissions}, stale overwrites ${check.staleOverwrites}, ` +
    `phantoms ${check.phantoms}, paper digest mismatches ${check.paperDigestMismatches}, frozen papers changed ${check.frozenPaperChanges}, not submitted ${check.notSubmitted}, ` +
    `late answers ${check.lateAnswers}, API/DB disagreements ${check.apiDatabaseDisagreements}, ` +
    `submitted ${check.submitted.byCandidate} (+${check.submitted.elsewhere} elsewhere) → ${check.isOk ? "OK" : "FAILED"}`
  );
}
