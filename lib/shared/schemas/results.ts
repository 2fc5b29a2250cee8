import { z } from "zod";

import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from "../text";
import { UuidSchema } from "./attempts";

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
