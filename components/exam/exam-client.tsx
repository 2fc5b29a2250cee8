"use client";

import { useCallback, useState } from "react";

import { useSyncEngine } from "@/lib/client/sync/use-sync-engine";
import { useKeepExportKey } from "@/lib/client/use-export-key";
import type { AttemptView } from "@/lib/shared/schemas/attempts";

import { OPENING_ANSWERS_ID } from "./answer-control";
import { ConnectionBanner } from "./connection-banner";
import { Countdown } from "./countdown";
import { EmergencyExport } from "./emergency-export-button";
import { ExamQuestion, questionHeadingId } from "./exam-question";
import { FinalScreen } from "./final-screen";
import { QuestionNavigator } from "./question-navigator";
import { ReviewDialog } from "./review-dialog";
import { useNow } from "./use-now";

/** Scrolls to a question and moves focus to its heading, so keyboard users land where they asked. */
function jumpTo(questionId: string) {
  const heading = document.getElementById(questionHeadingId(questionId));
  if (!heading) return;
  heading.scrollIntoView({ block: "start" });
  heading.focus({ preventScroll: true });
}

/**
 * The candidate's exam: every question with its save state, the navigator, the server-timed countdown, the
 * connection banner and the submit flow, all read from the attempt's sync engine (docs/sync-protocol.md,
 * "The client"). Every change goes to the engine at once; the engine keeps it on the device and sends it.
 */
export function ExamClient({ initialView }: { initialView: AttemptView }) {
  const { state, edit, toggleFlag, submit, flushNow } = useSyncEngine({
    attemptId: initialView.attemptId,
    initialView,
  });
  const [isReviewOpen, setIsReviewOpen] = useState(false);

  const onJumpFromReview = useCallback((questionId: string) => {
    setIsReviewOpen(false);
    // After the dialog has closed and given focus back.
    requestAnimationFrame(() => jumpTo(questionId));
  }, []);

  const isFinished = state.submitState === "submitted" || state.closed !== null;
  const isSubmitting = state.submitState === "submitting";
  const isLocked = !state.ready || isSubmitting || isFinished;
  const title = state.examTitle ?? initialView.examTitle;

  // Emergency export (docs/sync-protocol.md): the key is kept while online; the file is offered once the
  // deadline has passed by server time with answers still waiting and no working connection.
  useKeepExportKey(initialView.attemptId, { isReady: state.ready, isOnline: state.connection === "ok" });
  const now = useNow();
  const isPastDeadline =
    now !== null && state.deadline !== null && now + state.serverOffsetMs > Date.parse(state.deadline);
  const isExportOffered = isPastDeadline && state.pendingCount > 0 && state.connection !== "ok";

  return (
    <main className="page page--reading exam">
      <p className="eyebrow">Exam</p>
      <h1>{title}</h1>

      {isFinished ? (
        <FinalScreen state={state} />
      ) : (
        <>
          <div className="exam__bar">
            <Countdown deadline={state.deadline} serverOffsetMs={state.serverOffsetMs} />
            <button
              type="button"
              className="button button--primary exam__submit-top"
              onClick={() => setIsReviewOpen(true)}
              disabled={isSubmitting}
            >
              {isSubmitting ? "Submitting…" : "Review and submit"}
            </button>
          </div>

          <ConnectionBanner state={state} onRetryNow={() => void flushNow()} />

          {isExportOffered ? <EmergencyExport attemptId={state.attemptId} pendingCount={state.pendingCount} /> : null}

          {state.storageError ? (
            <p className="notice notice--warn" role="alert">
              This browser cannot keep your answers on this device ({state.storageError}). Use another browser, or leave
              private browsing, before you answer.
            </p>
          ) : null}
          {!state.ready && !state.storageError ? (
            <p className="quiet" id={OPENING_ANSWERS_ID}>
              Opening your answers on this device…
            </p>
          ) : null}

          {isSubmitting ? (
            <section className="notice submitting" aria-labelledby="submitting-title">
              <h2 id="submitting-title">Submitting…</h2>
              <p>
                Your answers are locked and kept on this device. This page keeps sending them until the server confirms;
                you do not need to do anything.
              </p>
              {state.submitError ? (
                <p role="alert">
                  The server did not accept the submission: {state.submitError.message}{" "}
                  <button type="button" className="button button--quiet" onClick={() => void submit()}>
                    Send again
                  </button>
                </p>
              ) : null}
            </section>
          ) : null}

          <QuestionNavigator
            questions={state.questions}
            answers={state.answers}
            flagged={state.flagged}
            onJump={jumpTo}
          />

          <ol className="questions" aria-label="Questions">
            {state.questions.map((question) => (
              <ExamQuestion
                key={question.id}
                question={question}
                answer={state.answers[question.id]}
                isFlagged={state.flagged.includes(question.id)}
                deviceId={state.deviceId}
                isLocked={isLocked}
                isHydrated={state.ready}
                onEdit={edit}
                onToggleFlag={toggleFlag}
              />
            ))}
          </ol>

          <div className="exam__end">
            <button
              type="button"
              className="button button--primary button--large"
              onClick={() => setIsReviewOpen(true)}
              disabled={isSubmitting}
            >
              {isSubmitting ? "Submitting…" : "Review and submit"}
            </button>
          </div>

          <ReviewDialog
            isOpen={isReviewOpen}
            questions={state.questions}
            answers={state.answers}
            flagged={state.flagged}
            pendingCount={state.pendingCount}
            submitState={state.submitState}
            submitError={state.submitError}
            onClose={() => setIsReviewOpen(false)}
            onSubmit={() => void submit()}
            onJump={onJumpFromReview}
          />
        </>
      )}
    </main>
  );
}
