import { describe, expect, it } from "vitest";

import { answersDigest } from "../../../lib/shared/digest";
import type { StoredAnswer } from "../../../lib/shared/schemas/attempts";
import { checkLedgers, type ServerAttempt } from "./checker";
import { newLedger, recordAcknowledged, type CandidateLedger } from "../candidates/ledger";

const ATTEMPT = "00000000-0000-4000-8000-000000000001";
const Q1 = "00000000-0000-4000-8000-0000000000a1";
const Q2 = "00000000-0000-4000-8000-0000000000a2";

function ledgerWith(edits: { q: string; value: string; version: number; device?: string }[]): CandidateLedger {
  const ledger = newLedger(0, "c@holdfast.test");
  ledger.attemptId = ATTEMPT;
  ledger.edits = edits.map((edit, index) => ({
    questionId: edit.q,
    value: edit.value,
    version: edit.version,
    deviceId: edit.device ?? "dev-a",
    atMs: index,
  }));
  return ledger;
}

async function submittedBy(
  ledger: CandidateLedger,
  paper: { questionId: string; value: string }[],
  submissionId = "s1",
): Promise<string> {
  const digest = await answersDigest(paper);
  ledger.submitAnswers.push({ submissionId, digest, clientDigest: digest, digestMatches: true, isReplay: false });
  return digest;
}

async function check(
  ledger: CandidateLedger,
  stored: StoredAnswer[],
  options: {
    submissions?: string[];
    digest?: string;
    frozenDigest?: string;
    isSubmitExpected?: boolean;
    view?: ServerAttempt | null;
  } = {},
) {
  const submissions = options.submissions ?? [];
  const view: ServerAttempt | null =
    options.view === undefined
      ? {
          status: submissions.length ? "submitted" : "in_progress",
          answers: stored,
          submission: submissions[0] ? { submissionId: submissions[0], digest: options.digest ?? "" } : null,
        }
      : options.view;
  return checkLedgers({
    ledgers: [ledger],
    database: {
      answers: new Map([[ATTEMPT, stored]]),
      submissions: new Map(
        submissions.length
          ? [
              [
                ATTEMPT,
                {
                  count: submissions.length,
                  ids: submissions,
                  sources: submissions.map(() => "candidate"),
                  digests:
                    options.frozenDigest === undefined ? undefined : submissions.map(() => options.frozenDigest!),
                },
              ],
            ]
          : [],
      ),
      lateAnswers: new Map(),
      statuses: new Map([[ATTEMPT, submissions.length ? "submitted" : "in_progress"]]),
    },
    apiViews: new Map(view ? [[ATTEMPT, view]] : []),
    isSubmitExpected: options.isSubmitExpected ?? submissions.length > 0,
  });
}

describe("the checker", () => {
  it("passes a submitted paper that holds every winner, the greatest (version, deviceId) per question", async () => {
    const ledger = ledgerWith([
      { q: Q1, value: "old", version: 1 },
      { q: Q1, value: "new", version: 2 },
      { q: Q2, value: "b-low-device", version: 3, device: "dev-a" },
      { q: Q2, value: "b-high-device", version: 3, device: "dev-b" },
    ]);
    const digest = await submittedBy(ledger, [
      { questionId: Q1, value: "new" },
      { questionId: Q2, value: "b-high-device" },
    ]);
    const result = await check(
      ledger,
      [
        { questionId: Q1, value: "new", version: 2, deviceId: "dev-a" },
        { questionId: Q2, value: "b-high-device", version: 3, deviceId: "dev-b" },
      ],
      { submissions: ["s1"], digest },
    );
    expect(result).toMatchObject({
      isOk: true,
      lost: 0,
      phantoms: 0,
      duplicateSubmissions: 0,
      paperDigestMismatches: 0,
      answersChecked: 2,
    });
  });

  it("counts an edit the submitted paper lacks as lost, and fails", async () => {
    const ledger = ledgerWith([
      { q: Q1, value: "old", version: 1 },
      { q: Q1, value: "new", version: 2 },
    ]);
    await submittedBy(ledger, [{ questionId: Q1, value: "new" }]);
    const result = await check(ledger, [{ questionId: Q1, value: "old", version: 1, deviceId: "dev-a" }], {
      submissions: ["s1"],
      digest: "whatever",
    });
    expect(result.lost).toBe(1);
    expect(result.paperDigestMismatches).toBe(1);
    expect(result.isOk).toBe(false);
  });

  it("counts a question missing altogether as lost", async () => {
    const ledger = ledgerWith([{ q: Q1, value: "x", version: 1 }]);
    const digest = await submittedBy(ledger, [{ questionId: Q1, value: "x" }]);
    const result = await check(ledger, [], { submissions: ["s1"], digest });
    expect(result.lost).toBe(1);
    expect(result.isOk).toBe(false);
  });

  it("counts the right stamp with another value as lost", async () => {
    const ledger = ledgerWith([{ q: Q1, value: "typed", version: 1 }]);
    const digest = await submittedBy(ledger, [{ questionId: Q1, value: "typed" }]);
    const result = await check(ledger, [{ questionId: Q1, value: "garbled", version: 1, deviceId: "dev-a" }], {
      submissions: ["s1"],
      digest,
    });
    expect(result.lost).toBe(1);
    expect(result.phantoms).toBe(1);
  });

  it("owes an unsubmitted candidate only what the server acknowledged, and counts going below it as a stale overwrite", async () => {
    const ledger = ledgerWith([
      { q: Q1, value: "v1", version: 1 },
      { q: Q1, value: "v2", version: 2 },
      { q: Q2, value: "unsent", version: 3 },
    ]);
    recordAcknowledged(ledger, Q1, { version: 2, deviceId: "dev-a" });
    const fine = await check(ledger, [{ questionId: Q1, value: "v2", version: 2, deviceId: "dev-a" }]);
    expect(fine).toMatchObject({ isOk: true, lost: 0, staleOverwrites: 0 });

    const wentBack = await check(ledger, [{ questionId: Q1, value: "v1", version: 1, deviceId: "dev-a" }]);
    expect(wentBack.staleOverwrites).toBe(1);
    expect(wentBack.lost).toBe(1);
    expect(wentBack.isOk).toBe(false);
  });

  it("counts an answer no device made as a phantom", async () => {
    const ledger = ledgerWith([{ q: Q1, value: "mine", version: 1 }]);
    const result = await check(ledger, [
      { questionId: Q1, value: "mine", version: 1, deviceId: "dev-a" },
      { questionId: Q2, value: "someone else's", version: 9, deviceId: "dev-z" },
    ]);
    expect(result.phantoms).toBe(1);
    expect(result.isOk).toBe(false);
  });

  it("counts two submission rows, and 200s naming different submissions, as duplicates", async () => {
    const ledger = ledgerWith([{ q: Q1, value: "x", version: 1 }]);
    const digest = await submittedBy(ledger, [{ questionId: Q1, value: "x" }], "s1");
    const stored = [{ questionId: Q1, value: "x", version: 1, deviceId: "dev-a" }];
    const twoRows = await check(ledger, stored, { submissions: ["s1", "s2"], digest });
    expect(twoRows.duplicateSubmissions).toBeGreaterThanOrEqual(1);
    expect(twoRows.isOk).toBe(false);

    await submittedBy(ledger, [{ questionId: Q1, value: "x" }], "s2");
    const twoAnswers = await check(ledger, stored, { submissions: ["s1"], digest });
    expect(twoAnswers.duplicateSubmissions).toBe(1);
    expect(twoAnswers.isOk).toBe(false);
  });

  it("counts a submitted attempt whose answers changed after the freeze, even when no ledger check sees it", async () => {
    // Device a's v1 was acknowledged and frozen when another device's submit won; a late autosave from
    // device b (v2) was then written into the frozen attempt instead of being kept as a late answer.
    const ledger = ledgerWith([
      { q: Q1, value: "frozen", version: 1, device: "dev-a" },
      { q: Q1, value: "late", version: 2, device: "dev-b" },
    ]);
    recordAcknowledged(ledger, Q1, { version: 1, deviceId: "dev-a" });
    ledger.submittedElsewhere = "s1";
    const frozenDigest = await answersDigest([{ questionId: Q1, value: "frozen" }]);
    const intact = await check(ledger, [{ questionId: Q1, value: "frozen", version: 1, deviceId: "dev-a" }], {
      submissions: ["s1"],
      digest: frozenDigest,
      frozenDigest,
    });
    expect(intact).toMatchObject({ isOk: true, frozenPaperChanges: 0 });

    const changed = await check(ledger, [{ questionId: Q1, value: "late", version: 2, deviceId: "dev-b" }], {
      submissions: ["s1"],
      digest: frozenDigest,
      frozenDigest,
    });
    // Nothing the ledger is owed went missing, nothing went below an acknowledgement, no phantom:
    // only the frozen digest shows that the submitted paper was rewritten.
    expect(changed).toMatchObject({ lost: 0, staleOverwrites: 0, phantoms: 0, paperDigestMismatches: 0 });
    expect(changed.frozenPaperChanges).toBe(1);
    expect(changed.isOk).toBe(false);
  });

  it("fails a run that expected a submission and has none", async () => {
    const ledger = ledgerWith([{ q: Q1, value: "x", version: 1 }]);
    const result = await check(ledger, [{ questionId: Q1, value: "x", version: 1, deviceId: "dev-a" }], {
      isSubmitExpected: true,
    });
    expect(result.notSubmitted).toBe(1);
    expect(result.isOk).toBe(false);
  });

  it("counts a candidate who never got an attempt as not submitted when everyone was meant to submit", async () => {
    const ledger = newLedger(0, "late@holdfast.test");
    ledger.failure = "join: ERR TIMEOUT";
    const result = await checkLedgers({
      ledgers: [ledger],
      database: { answers: new Map(), submissions: new Map(), lateAnswers: new Map(), statuses: new Map() },
      apiViews: new Map(),
      isSubmitExpected: true,
    });
    expect(result).toMatchObject({ notSubmitted: 1, failedCandidates: 1, isOk: false });
  });

  it("fails when the API and the database disagree", async () => {
    const ledger = ledgerWith([{ q: Q1, value: "x", version: 1 }]);
    recordAcknowledged(ledger, Q1, { version: 1, deviceId: "dev-a" });
    const stored = [{ questionId: Q1, value: "x", version: 1, deviceId: "dev-a" }];
    const result = await check(ledger, stored, { view: { status: "in_progress", answers: [], submission: null } });
    expect(result.apiDatabaseDisagreements).toBe(1);
    expect(result.isOk).toBe(false);
  });
});
