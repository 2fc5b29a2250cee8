import "server-only";

import { subscribeExam } from "./exam-bus";

type Signal = "deadline" | "submitted";
type Listener = (signal: Signal) => void;
type ExamSignals = { unsubscribe: () => void; byAttempt: Map<string, Set<Listener>> };

const globalForSignals = globalThis as unknown as { holdfastAttemptSignals?: Map<string, ExamSignals> };

function registry(): Map<string, ExamSignals> {
  return (globalForSignals.holdfastAttemptSignals ??= new Map());
}

/**
 * Listens to the bus's signals for one attempt ("deadline", "submitted"). Candidate pages are many and every
 * message of a busy exam (thousands of heartbeats) crosses its bus: one subscription per exam and instance
 * routes signals to their attempt's pages, so a page's listener never sees the others' traffic.
 */
export function subscribeAttemptSignals(examId: string, attemptId: string, listener: Listener): () => void {
  let exam = registry().get(examId);
  if (!exam) {
    const byAttempt = new Map<string, Set<Listener>>();
    const unsubscribe = subscribeExam(examId, (message) => {
      if (message.type !== "signal") return;
      for (const each of [...(byAttempt.get(message.attemptId) ?? [])]) each(message.signal);
    });
    exam = { unsubscribe, byAttempt };
    registry().set(examId, exam);
  }
  const listeners = exam.byAttempt.get(attemptId) ?? new Set<Listener>();
  listeners.add(listener);
  exam.byAttempt.set(attemptId, listeners);

  const current = exam;
  let isSubscribed = true;
  return () => {
    if (!isSubscribed) return;
    isSubscribed = false;
    listeners.delete(listener);
    if (listeners.size === 0) current.byAttempt.delete(attemptId);
    if (current.byAttempt.size === 0 && registry().get(examId) === current) {
      current.unsubscribe();
      registry().delete(examId);
    }
  };
}
