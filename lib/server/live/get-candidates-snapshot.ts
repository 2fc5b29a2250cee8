import "server-only";

import { liveCandidates } from "@/lib/shared/proctor/live-status";
import { AppError } from "@/lib/shared/errors";
import type { CandidatesSnapshot } from "@/lib/shared/schemas/proctor";

import type { ApiTokenPrincipal, StaffPrincipal } from "../auth/sessions";
import { currentExamEventId, seedExamFeed } from "./exam-feed";
import { findWatchedExam } from "../proctor/find-watched-exam";
import { queryRows, sql } from "../db/sql";
import { loadCandidateFacts } from "./load-candidate-facts";

/**
 * Every candidate of an exam with the facts their live status is derived from, and the counters at
 * serverTime (`GET /api/proctor/exams/{examId}/candidates`). Another exam's id, or an exam not assigned to
 * the proctor, is a 404.
 *
 * `lastEventId` is read before the facts, once the feed hears the bus: an event sent while they load is then
 * replayed to a dashboard that resumes from it (a candidate seen twice is harmless: newer facts replace older
 * ones), never lost.
 */
export async function getCandidatesSnapshot(options: {
  examId: string;
  principal: StaffPrincipal | ApiTokenPrincipal;
}): Promise<CandidatesSnapshot> {
  const exam = await findWatchedExam({ examId: options.examId, principal: options.principal });
  if (!exam) throw new AppError("NOT_FOUND", "No such exam.");
  const lastEventId = await currentExamEventId(exam.id);
  const [facts, pauses] = await Promise.all([
    loadCandidateFacts({ examId: exam.id }),
    queryRows<{ paused_at: number | null; pause_reason: string | null }>(sql`
      SELECT (extract(epoch FROM paused_at) * 1000)::float8 AS paused_at, pause_reason FROM exams WHERE id = ${exam.id}::uuid`),
  ]);
  seedExamFeed(exam.id, facts);
  const serverTime = Date.now();
  const pause = pauses[0];
  const examPause = pause?.paused_at != null ? { pausedAt: pause.paused_at, reason: pause.pause_reason ?? "" } : null;
  return {
    examId: exam.id,
    examTitle: exam.title,
    serverTime,
    lastEventId,
    examPause,
    ...liveCandidates(facts, serverTime),
  };
}
