import type { QuestionType } from "./exams";

/**
 * `GET /api/admin/exams/{examId}/statistics`: the figures of lib/shared/statistics/item-statistics.ts over the
 * exam's scored papers, in points (exact to a unit, 1/10,000 point). A figure that is not defined (one paper,
 * no spread, a zero-point question) is null, never a made-up 0.
 */
export type ExamStatisticsView = {
  examId: string;
  /** Submitted papers. */
  submitted: number;
  /** Submitted papers whose result is computed (the rest are queued, a second or so). */
  scored: number;
  /** Scored papers with at least one answer waiting for a person. */
  waitingForPerson: number;
  maxScore: number;
  mean: number | null;
  median: number | null;
  standardDeviation: number | null;
  cronbachAlpha: number | null;
  /** Ten equal-width bins of totals over 0..maxScore, the last one closed. */
  histogram: { from: number; to: number; count: number }[];
  questions: QuestionStatisticsView[];
};

export type QuestionStatisticsView = {
  questionId: string;
  position: number;
  type: QuestionType;
  /** 0 for an ungraded survey item (which counts for nothing). */
  points: number;
  ungraded: boolean;
  /** Papers with a decided score for this question. */
  decided: number;
  facility: number | null;
  discrimination: number | null;
  /** How many decided papers earned each distinct score, ascending. */
  distribution: { points: number; count: number }[];
  /** Scored papers whose frozen answer to this question is missing, empty or white space, or no choice. */
  blank: number;
  /**
   * From an answer's first save to its last, on the server: the median over the answered scored papers whose
   * first save is known (`known` of them; answers stored before it was recorded are not), in seconds (one
   * decimal); null when none is known.
   */
  editTime: { medianSeconds: number | null; known: number };
  /** Choice questions: how many scored papers chose each option, in the authored order; else null. */
  options: { optionId: string; label: string; count: number }[] | null;
};

/** `GET /api/admin/exams/{examId}/results`: the release state and each enrolled candidate's result. */
export type ExamResultsView = {
  examId: string;
  releasedAt: string | null;
  maxScore: number;
  candidates: CandidateResultRow[];
};

export type CandidateResultRow = {
  enrollmentId: string;
  name: string;
  email: string;
  attemptId: string | null;
  status: "not_started" | "in_progress" | "submitted";
  /** Null until the paper is scored. */
  score: number | null;
  /** True when the paper is scored and no answer waits for a person. */
  graded: boolean;
};

/** `POST /api/admin/exams/{examId}/results/regrade` answer. */
export type RegradeQueued = { examId: string; queued: number };
