import { z } from "@/lib/shared/zod";

import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from "../text";
import { UuidSchema } from "./attempts";
import type { QuestionType } from "./exams";
import type { GradeMarker as GradeMarkerKind } from "./grading";

/** `GET /api/attempts/{attemptId}/result`: what a candidate sees of their result once they may. */
export type CandidateResult = {
  attemptId: string;
  examTitle: string;
  /** Exact decimals (at most four places). */
  score: number;
  maxScore: number;
  /** False while an answer still waits for a person (the total may still rise). */
  graded: boolean;
  releasedAt: string | null;
  /** Per question, in the candidate's paper order, when the exam shows them; else null. */
  questions:
    | {
        position: number;
        questionId: string;
        points: number | null;
        maxPoints: number;
        comment: string | null;
      }[]
    | null;
};

/** `POST /api/admin/exams/{examId}/results/release` answer (and DELETE, withdrawing it). */
export type ReleaseState = { examId: string; releasedAt: string | null };

export const LATE_ANSWER_DECISIONS = ["accepted", "rejected"] as const;
export type LateAnswerDecisionKind = (typeof LATE_ANSWER_DECISIONS)[number];

export const LateAnswerParamsSchema = z.object({ examId: UuidSchema, lateAnswerId: UuidSchema });

/** `POST /api/admin/exams/{examId}/late-answers/{lateAnswerId}/decision`: a reason is required to reject. */
export const LateAnswerDecisionSchema = z
  .object({
    decision: z.enum(LATE_ANSWER_DECISIONS),
    reason: z.string().trim().max(2_000).refine(isStorableText, UNSTORABLE_TEXT_MESSAGE).default(""),
  })
  .superRefine((body, ctx) => {
    if (body.decision === "rejected" && body.reason === "") {
      ctx.addIssue({ code: "custom", path: ["reason"], message: "a rejection needs a reason" });
    }
  });
export type LateAnswerDecisionInput = z.infer<typeof LateAnswerDecisionSchema>;

/** A late answer as staff review it: beside the frozen answer, with the server's times. */
export type LateAnswerReview = {
  id: string;
  attemptId: string;
  candidateName: string;
  candidateEmail: string;
  questionId: string;
  position: number;
  value: unknown;
  /** What the frozen paper holds for that question (null: nothing). */
  frozenValue: unknown;
  version: number;
  deviceId: string;
  via: string;
  receivedAt: string;
  clientEditedAt: string | null;
  deadline: string;
  submittedAt: string | null;
  decision: { decision: LateAnswerDecisionKind; reason: string; by: string; at: string } | null;
};

/** Why a result got a new version (result_versions.cause). */
export const RESULT_CAUSES = [
  "submitted",
  "regraded",
  "graded",
  "settled",
  "late_answer_accepted",
  "late_answer_rejected",
] as const;
export type ResultCauseKind = (typeof RESULT_CAUSES)[number];

/** How a question of a result was decided (lib/shared/scoring/paper-result.ts). */
export const RESULT_SOURCES = ["auto", "grader", "settled", "ungraded", "pending"] as const;
export type ResultSourceKind = (typeof RESULT_SOURCES)[number];

/** One question of one result version, as staff read it: in the exam's order, not the candidate's. */
export type StaffResultQuestion = {
  questionId: string;
  /** The question's position in the exam (staff numbering). */
  position: number;
  type: QuestionType;
  /** Null while a person still has to decide. */
  points: number | null;
  maxPoints: number;
  source: ResultSourceKind;
  /** A word the page translates: correct, incorrect, partial, blank, graded, awaiting_second, … */
  reason: string;
  /** The accepted late answer scored instead of the frozen one, or null. */
  lateAnswerId: string | null;
};

/** A person's mark on one answer, as it stands now (marks are not versioned; the result versions are). */
export type StaffResultMark = { marker: GradeMarkerKind; points: number; by: string; comment: string; at: string };

/** One row of result_versions. */
export type StaffResultVersion = {
  version: number;
  cause: ResultCauseKind;
  actorType: "staff" | "api-token" | "system";
  /** Who: a staff member's label, the API token, or "Holdfast" for the system. */
  by: string;
  /** Why: the corrector's fields ("corrected: Q1 answerKey"), a rejection's reason, or "". */
  reason: string;
  at: string;
  score: number;
  maxScore: number;
  /** Answers still waiting for a person in this version. */
  pending: number;
  questions: StaffResultQuestion[];
};

/** `GET /api/admin/attempts/{attemptId}/result`: one paper's current result and every version of it. */
export type StaffAttemptResult = {
  attemptId: string;
  examId: string;
  examTitle: string;
  candidate: { enrollmentId: string; name: string; email: string };
  status: "in_progress" | "submitted";
  submittedAt: string | null;
  releasedAt: string | null;
  resultsDetail: "per_question" | "total";
  secondMarking: boolean;
  /** The version `results` holds now; null before the first one is computed. */
  current: StaffResultVersion | null;
  /** False when the paper was reopened and resubmitted and its new result is not computed yet. */
  isUpToDate: boolean;
  /** Per question: the marks people gave and the late-answer decision behind the current result. */
  decisions: {
    questionId: string;
    marks: StaffResultMark[];
    lateAnswer: { lateAnswerId: string; by: string; reason: string; at: string } | null;
  }[];
  /** Every version, newest first. */
  versions: StaffResultVersion[];
};
