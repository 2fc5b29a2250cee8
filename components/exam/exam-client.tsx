"use client";

import dynamic from "next/dynamic";
import { useRouter } from "next/navigation";
import { useLocale, useTimeZone, useTranslations } from "next-intl";
import { memo, useCallback, useEffect, useRef, useState } from "react";

import { useDescribeFailure } from "@/lib/client/i18n/use-describe-failure";
import { useSyncEngine } from "@/lib/client/sync/use-sync-engine";
import { tellWorker } from "@/components/service-worker-registration";
import { useKeepExportKey } from "@/lib/client/use-export-key";
import type { AttemptView } from "@/lib/shared/schemas/attempts";

import { Announcements as AnnouncementsView } from "./announcements";
import { OPENING_ANSWERS_ID } from "./answer-control";
import { ConnectionBanner, ConnectionStatus, failureOf } from "./connection-banner";
import {
  Countdown as CountdownView,
  DeadlineNote as DeadlineNoteView,
  DeadlineWarning as DeadlineWarningView,
} from "./countdown";
import { ExamQuestion } from "./exam-question";
import { EMERGENCY_EXPORT_ID, EXAM_MAIN_ID, FOCUS_FIRST_QUESTION_KEY, questionHeadingId, TIME_UP_NOTE_ID } from "./ids";
import { LeaveDevice as LeaveDeviceView } from "./leave-device";
import { PAUSE_NOTE_ID, PauseBanner as PauseBannerView } from "./pause-banner";
import { QuestionNavigator } from "./question-navigator";
import { useNow } from "./use-now";

import page from "./exam-page.module.css";

// A keystroke changes the snapshot (the edited answer), so the page re-renders at each key: these parts take
// only values a keystroke does not change (time facts, counts, the pause, the inbox) and are skipped then.
const Countdown = memo(CountdownView);
const DeadlineWarning = memo(DeadlineWarningView);
const DeadlineNote = memo(DeadlineNoteView);
const PauseBanner = memo(PauseBannerView);
const Announcements = memo(AnnouncementsView);
const LeaveDevice = memo(LeaveDeviceView);

/**
 * What the first paint of an exam in progress does not show — the review dialog, the final screen with its
 * receipt, the emergency file and its crypto — comes in chunks of its own, fetched as soon as the page is
 * interactive (`usePreloadLaterParts`), so the service worker keeps them for an offline reload like every
 * other script the page loaded. A chunk that cannot be fetched yet (the connection dropped in the first
 * moments) is asked for again until it comes: the part shows when it arrives; the page never breaks.
 */
function retrying<T>(load: () => Promise<T>): () => Promise<T> {
  return () =>
    new Promise<T>((resolve) => {
      const attempt = () => {
        load().then(resolve, () => setTimeout(attempt, 2_000));
      };
      attempt();
    });
}
const loadReviewDialog = retrying(() => import("./review-dialog"));
const loadFinalScreen = retrying(() => import("./final-screen"));
const loadEmergencyExport = retrying(() => import("./emergency-export-button"));
const ReviewDialog = dynamic(() => loadReviewDialog().then((module) => module.ReviewDialog));
const FinalScreen = dynamic(() => loadFinalScreen().then((module) => module.FinalScreen));
const EmergencyExport = dynamic(() => loadEmergencyExport().then((module) => module.EmergencyExport));

function usePreloadLaterParts() {
  useEffect(() => {
    const preload = () => {
      void loadReviewDialog();
      void loadFinalScreen();
      void loadEmergencyExport();
    };
    // After the page's own load, so they never hold up its first paint or its `load`.
    if (document.readyState === "complete") preload();
    else window.addEventListener("load", preload, { once: true });
    return () => window.removeEventListener("load", preload);
  }, []);
}

/** Scrolls to a question and moves focus to its heading, so keyboard users land where they asked. */
function jumpTo(questionId: string) {
  const heading = document.getElementById(questionHeadingId(questionId));
  if (!heading) return;
  heading.scrollIntoView({ block: "start" });
  heading.focus({ preventScroll: true });
}

/**
 * The copy of this page the service worker keeps for offline reloads (public/sw.js, rule 5) carries the
 * messages of the language and the time zone it was rendered in. When the candidate switches language (or
 * the page learns their zone), the page is re-rendered in place, which the worker never sees: ask it to keep
 * the page again, so an offline reload shows the language the candidate chose.
 */
function useKeptPageFollowsLanguage() {
  const locale = useLocale();
  const timeZone = useTimeZone() ?? "UTC";
  const kept = useRef(`${locale}|${timeZone}`);
  useEffect(() => {
    const current = `${locale}|${timeZone}`;
    if (current === kept.current) return;
    kept.current = current;
    if (!("serviceWorker" in navigator)) return;
    tellWorker(navigator.serviceWorker, { type: "holdfast:keep", page: location.href, assets: [], language: locale });
  }, [locale, timeZone]);
}

type Props = {
  initialView: AttemptView;
  /** For the receipt: the name the candidate was enrolled with. */
  candidateName: string;
};

/**
 * The candidate's exam: every question with its save state, the navigator, the server-timed countdown, the
 * connection and the submit flow, all read from the attempt's sync engine (docs/sync-protocol.md, "The
 * client"). Every change goes to the engine at once; the engine keeps it on the device and sends it.
 */
export function ExamClient({ initialView, candidateName }: Props) {
  const t = useTranslations("exam");
  const describe = useDescribeFailure();
  const router = useRouter();
  const { state, edit, toggleFlag, submit, flushNow, announcements } = useSyncEngine({
    attemptId: initialView.attemptId,
    initialView,
  });
  const [isReviewOpen, setIsReviewOpen] = useState(false);
  // The dialog is mounted once first opened (and stays, so closing it returns focus as a dialog does).
  const [hasReviewOpened, setHasReviewOpened] = useState(false);
  if (isReviewOpen && !hasReviewOpened) setHasReviewOpened(true);
  useKeptPageFollowsLanguage();
  usePreloadLaterParts();

  const onJumpFromReview = useCallback((questionId: string) => {
    setIsReviewOpen(false);
    // After the dialog has closed and given focus back.
    requestAnimationFrame(() => jumpTo(questionId));
  }, []);

  const isFinished = state.submitState === "submitted" || state.closed !== null;
  const isSubmitting = state.submitState === "submitting";
  // A proctor's pause locks editing and the submit buttons (ADR 016); edits already made keep syncing.
  const pause = isFinished ? null : state.pause;
  const isPaused = pause !== null;
  // Time up by the server's clock (not while paused: the clock stands still): pencils down. The server submits
  // the answers it holds at deadline + grace; answers already typed keep syncing until then, and a proctor's
  // extension (a later deadline) opens the paper again.
  const now = useNow();
  const isPastDeadline =
    !isPaused && now !== null && state.deadline !== null && now + state.serverOffsetMs > Date.parse(state.deadline);
  // A newer release took the device's store: nothing typed here could be kept until the page is reloaded.
  const isLocked = !state.ready || isSubmitting || isFinished || isPaused || isPastDeadline || state.storeSuperseded;
  const isSubmitLocked = isSubmitting || isPaused || isPastDeadline || state.storeSuperseded;
  // Why the submit buttons are unavailable, for assistive technology.
  const submitLockedBy = isPaused ? PAUSE_NOTE_ID : isPastDeadline && !isSubmitting ? TIME_UP_NOTE_ID : undefined;
  const title = state.examTitle ?? initialView.examTitle;
  const firstQuestionId = state.questions[0]?.id ?? null;

  // After Start (or Resume), keyboard and screen reader users begin at the first question rather than at the
  // top of the document (the start page's button that had focus is gone). Once, and the page does not scroll.
  useEffect(() => {
    if (isFinished || firstQuestionId === null) return;
    let isFromStart = false;
    try {
      isFromStart = sessionStorage.getItem(FOCUS_FIRST_QUESTION_KEY) === initialView.attemptId;
      if (isFromStart) sessionStorage.removeItem(FOCUS_FIRST_QUESTION_KEY);
    } catch {
      return;
    }
    if (isFromStart) document.getElementById(questionHeadingId(firstQuestionId))?.focus({ preventScroll: true });
  }, [isFinished, firstQuestionId, initialView.attemptId]);

  // The attempt closed while the page was open (another device, the proctor, the deadline): the server knows
  // who submitted, and its render of this page says so on the final screen. Asked once, when online.
  const isSourceUnknown = isFinished && state.submitResponse === null && !initialView.submission?.source;
  const hasAskedSource = useRef(false);
  useEffect(() => {
    if (!isSourceUnknown || hasAskedSource.current || state.connection !== "ok") return;
    hasAskedSource.current = true;
    router.refresh();
  }, [isSourceUnknown, state.connection, router]);

  // Reopened by an admin while this page showed its final screen (ADR 017; the engine saw it): the server's
  // render still names the superseded submission, so it is rendered anew, and says the paper was reopened.
  const wasFinished = useRef(isFinished);
  useEffect(() => {
    if (wasFinished.current && !isFinished) router.refresh();
    wasFinished.current = isFinished;
  }, [isFinished, router]);
  const reopenedFrom = initialView.status === "in_progress" ? (initialView.earlierSubmissions?.at(-1) ?? null) : null;

  // Emergency export (docs/sync-protocol.md): the key is kept while online; the file is offered once the
  // deadline has passed by server time with answers still waiting and no working connection.
  useKeepExportKey(initialView.attemptId, { isReady: state.ready, isOnline: state.connection === "ok" });
  const isExportOffered = isPastDeadline && state.pendingCount > 0 && state.connection !== "ok";
  const isSubmitted = state.submitState === "submitted" || state.closed?.reason === "ALREADY_SUBMITTED";

  return (
    <main className={`page page--reading ${page.exam}`} id={EXAM_MAIN_ID} tabIndex={-1}>
      <p className="eyebrow">{t("eyebrow")}</p>
      <h1>{title}</h1>

      {isFinished ? (
        <>
          <FinalScreen state={state} view={initialView} candidateName={candidateName} />
          <LeaveDevice pendingCount={state.pendingCount} isSubmitted={isSubmitted} />
        </>
      ) : (
        <>
          {/* `exam__bar`, `exam__submit-top`: hooks e2e/a11y/axe.spec.ts and e2e/i18n find the bar by. */}
          <div className={`${page.bar} exam__bar`}>
            <Countdown
              deadline={state.deadline}
              acceptsUntil={state.acceptsUntil}
              startedAt={initialView.startedAt}
              serverOffsetMs={state.serverOffsetMs}
              pausedAt={pause?.pausedAt ?? null}
              pendingCount={state.pendingCount}
              connection={state.online ? state.connection : "offline"}
              emergencyHref={isExportOffered ? `#${EMERGENCY_EXPORT_ID}` : null}
            />
            <ConnectionStatus state={state} />
            <button
              type="button"
              className={`button button--primary ${page.submitTop} exam__submit-top`}
              onClick={() => setIsReviewOpen(true)}
              disabled={isSubmitLocked}
              aria-describedby={submitLockedBy}
            >
              {isSubmitting ? t("submitting") : t("reviewAndSubmit")}
            </button>
          </div>

          <DeadlineWarning
            deadline={state.deadline}
            acceptsUntil={state.acceptsUntil}
            startedAt={initialView.startedAt}
            serverOffsetMs={state.serverOffsetMs}
            pausedAt={pause?.pausedAt ?? null}
            pendingCount={state.pendingCount}
            connection={state.online ? state.connection : "offline"}
          />
          <PauseBanner pause={pause} deadline={state.deadline} isTimeUp={isPastDeadline} />
          <DeadlineNote deadline={state.deadline} isPaused={isPaused} />
          <Announcements inbox={announcements} />
          {reopenedFrom ? (
            <p className="notice" role="status">
              {t("reopened", { version: reopenedFrom.version })}
            </p>
          ) : null}
          <ConnectionBanner state={state} onRetryNow={() => void flushNow()} />

          {isExportOffered ? <EmergencyExport attemptId={state.attemptId} pendingCount={state.pendingCount} /> : null}

          {state.storeSuperseded ? (
            // `notice--action`: the hook e2e/a11y/axe.spec.ts finds this notice by.
            <div className={`notice notice--warn ${page.action} notice--action`} role="alert">
              <p>{t("storeSuperseded")}</p>
              <button type="button" className="button" onClick={() => window.location.reload()}>
                {t("reloadPage")}
              </button>
            </div>
          ) : null}
          {state.storageError ? (
            <p className="notice notice--warn" role="alert">
              {t("storageError")}{" "}
              <span className="muted" lang="en">
                ({state.storageError})
              </span>
            </p>
          ) : null}
          {!state.ready && !state.storageError ? (
            <p className="quiet" id={OPENING_ANSWERS_ID}>
              {t("opening")}
            </p>
          ) : null}

          {isSubmitting ? (
            <section className={`notice ${page.submitting}`} aria-labelledby="submitting-title">
              <h2 id="submitting-title">{t("submitting")}</h2>
              <p>{t("submittingText")}</p>
              {state.submitError ? (
                <p role="alert">
                  {t("submitRefused", { reason: describe(failureOf(state.submitError)) })}{" "}
                  <button type="button" className="button button--quiet" onClick={() => void submit()}>
                    {t("sendAgain")}
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

          <ol className="questions" aria-label={t("questionsLabel")}>
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

          <div className={page.end}>
            <button
              type="button"
              className="button button--primary button--large"
              onClick={() => setIsReviewOpen(true)}
              disabled={isSubmitLocked}
              aria-describedby={submitLockedBy}
            >
              {isSubmitting ? t("submitting") : t("reviewAndSubmit")}
            </button>
            {isPaused ? (
              <p className="quiet">{t("pause.submitLocked")}</p>
            ) : isPastDeadline && !isSubmitting ? (
              <p className="quiet" id={TIME_UP_NOTE_ID}>
                {t("timeUpLocked")}
              </p>
            ) : null}
          </div>

          <LeaveDevice pendingCount={state.pendingCount} isSubmitted={false} />

          {hasReviewOpened ? (
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
          ) : null}
        </>
      )}
    </main>
  );
}
