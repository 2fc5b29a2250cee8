import "server-only";

import type { ExamHealth, HealthPoint } from "@/lib/shared/schemas/proctor";

import { addMinute, emptyMinute, type MinuteCounts } from "../request-stats/exam-request-stats";
import { quantileMs } from "../request-stats/latency-buckets";
import type { ExamLoss } from "./read-exam-loss";

/** p99 in milliseconds to a tenth, or null without requests. */
function p99(buckets: readonly number[]): number | null {
  const value = quantileMs(buckets, 0.99);
  return value === null ? null : Math.round(value * 10) / 10;
}

function ratio(part: number, whole: number): number | null {
  return whole === 0 ? null : part / whole;
}

/**
 * ExamHealth from the loss figures (Postgres) and the window's per-minute request counts (oldest first,
 * the last one being the minute of `now`). Rates are fractions (0.004 is 0.4 %).
 */
export function summariseExamHealth(options: {
  loss: ExamLoss;
  minutes: readonly MinuteCounts[];
  now: number;
}): ExamHealth {
  const { loss, minutes, now } = options;
  const total = emptyMinute();
  for (const minute of minutes) addMinute(total, minute);
  const firstMinuteStart = (Math.floor(now / 60_000) - minutes.length + 1) * 60_000;
  const series: HealthPoint[] = minutes.map((minute, index) => ({
    at: firstMinuteStart + index * 60_000,
    autosaves: minute.autosaves,
    submits: minute.submits,
    replays: minute.replays,
    rateLimited: minute.rateLimited,
    autosaveP99Ms: p99(minute.autosaveBuckets),
    submitP99Ms: p99(minute.submitBuckets),
  }));
  return {
    examId: loss.examId,
    serverTime: now,
    submissions: loss.submissions,
    lossRate: ratio(loss.affectedSubmissions, loss.submissions),
    digestMismatches: loss.digestMismatches,
    attemptsWithLateAnswers: loss.attemptsWithLateAnswers,
    duplicateRate: ratio(total.replays + total.alreadySubmitted, total.submits),
    autosaveP99Ms: p99(total.autosaveBuckets),
    submitP99Ms: p99(total.submitBuckets),
    rateLimited: total.rateLimited,
    series,
  };
}
