import "server-only";

import { AppError } from "@/lib/shared/errors";

import type { ApiTokenPrincipal, StaffPrincipal } from "../auth/sessions";
import { examFeed, type FeedConnection } from "./exam-feed";
import { findWatchedExam } from "../proctor/find-watched-exam";
import { openEventStream } from "./open-event-stream";

/**
 * `GET /api/proctor/exams/{examId}/events`: a dashboard's connection to this instance's feed of the exam
 * (exam-feed.ts). Another exam's id, or an exam not assigned to the proctor, is a 404 before any stream opens.
 */
export async function streamExamEvents(options: {
  examId: string;
  principal: StaffPrincipal | ApiTokenPrincipal;
  lastEventId: string | null;
  signal: AbortSignal;
}): Promise<Response> {
  const exam = await findWatchedExam({ examId: options.examId, principal: options.principal });
  if (!exam) throw new AppError("NOT_FOUND", "No such exam.");
  const feed = examFeed(exam.id);
  let connection: FeedConnection | null = null;
  return openEventStream({
    signal: options.signal,
    onOpen: (sink) => {
      connection = { send: sink.send, close: sink.close };
      feed.connect(connection, options.lastEventId);
    },
    onClose: () => {
      if (connection) feed.disconnect(connection);
    },
  });
}
