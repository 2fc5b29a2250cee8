import { z } from "@/lib/shared/zod";

import type { CandidateAnnouncement } from "./announcements";
import type { CandidateQuestion } from "./exams";
import type { SUBMISSION_SOURCES } from "./proctor";

import { ATTEMPT_STATUSES } from "./constants";

export { ATTEMPT_STATUSES };
export type AttemptStatus = (typeof ATTEMPT_STATUSES)[number];

export const UuidSchema = z.uuid({ message: "must be a UUID" });

/** An answer's value; null is "no answer" (a cleared answer: versioned like any edit, scored as blank). */
export type AnswerValue = string | number | string[] | null;

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
  /**
   * When a proctor paused the attempt (ADR 016), and why; null while it runs. While paused the clock stands
   * still at `deadline − pausedAt`, editing is locked, and nothing is overdue. Absent from views older pages
   * kept for offline reloads.
   */
  pausedAt?: string | null;
  pauseReason?: string | null;
  revision: number;
  questions: CandidateQuestion[];
  answers: StoredAnswer[];
  /**
   * The attempt's one submission. `source` says who made it: the candidate (from whichever device), their
   * proctor, or the server at the deadline (`auto`); absent from views older pages kept for offline reloads.
   */
  submission: {
    submissionId: string;
    submittedAt: string;
    digest: string;
    source?: (typeof SUBMISSION_SOURCES)[number];
    /** 1, or after a reopening the highest earlier version + 1 (ADR 017); absent from older stored views. */
    version?: number;
  } | null;
  /**
   * Staff's announcements to this candidate, oldest first (docs/sync-protocol.md, "Announcements"); absent from
   * views older pages kept for offline reloads.
   */
  announcements?: CandidateAnnouncement[];
  /**
   * Submissions an admin has since reopened, oldest first, each with its signed receipt: they stay on record
   * and the candidate can still read them (ADR 017). Absent from older stored views.
   */
  earlierSubmissions?: EarlierSubmission[];
};

export type EarlierSubmission = {
  submissionId: string;
  version: number;
  submittedAt: string;
  digest: string;
  source: (typeof SUBMISSION_SOURCES)[number];
  receipt: string;
  supersededAt: string;
};
