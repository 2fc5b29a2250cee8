import { z } from "zod";

import type { CandidateQuestion } from "./exams";

import { ATTEMPT_STATUSES } from "./constants";

export { ATTEMPT_STATUSES };
export type AttemptStatus = (typeof ATTEMPT_STATUSES)[number];

export const UuidSchema = z.uuid({ message: "must be a UUID" });

export type AnswerValue = string | number | string[];

export type StoredAnswer = {
  questionId: string;
  value: AnswerValue;
  version: number;
  deviceId: string;
};

/** Body of `POST /api/exams/{examId}/attempts` and `GET /api/attempts/{attemptId}` (contract: "Shapes"). */
export type AttemptView = {
  attemptId: string;
  examId: string;
  examTitle: string;
  status: AttemptStatus;
  startedAt: string;
  deadline: string;
  /** Deadline + grace: writes are accepted until then. */
  acceptsUntil: string;
  serverTime: string;
  revision: number;
  questions: CandidateQuestion[];
  answers: StoredAnswer[];
  submission: { submissionId: string; submittedAt: string; digest: string } | null;
};
