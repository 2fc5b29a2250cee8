"use client";

import { useLocale, useTranslations } from "next-intl";
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent as ReactKeyboardEvent } from "react";

import { Field, TextAreaField } from "@/components/ui/field";
import { FormError } from "@/components/ui/form-error";
import { callApi } from "@/lib/client/call-api";
import { useDescribeFailure } from "@/lib/client/i18n/use-describe-failure";
import { formatNumber } from "@/lib/shared/format";
import {
  GradeViewSchema,
  GradingQueueSchema,
  SavedGradeSchema,
  type GradeMarker,
  type GradeView,
  type GradingQueue,
  type GradingQueueItem,
} from "@/lib/shared/schemas/grading";

import styles from "./grading.module.css";

type PaperState = "waiting" | "marked" | "auto" | "blank" | "decided" | "disagreement" | "settled";

/** Points as the API takes them: a number from 0, at most four decimals (lib/shared/schemas/grading.ts). */
const POINTS = /^\d+(\.\d{1,4})?$/;

function isBlankValue(value: GradingQueueItem["value"]): boolean {
  if (value === null) return true;
  if (typeof value === "string") return value.trim() === "";
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

/** Where a paper stands for this marker, in the words of the paper list. */
function stateOf(item: GradingQueueItem, marker: GradeMarker): PaperState {
  if (marker === "final") {
    if (item.grades.final) return "settled";
    if (item.reason === "disagreement") return "disagreement";
  } else if (item.grades[marker]) {
    return "marked";
  }
  // A blank answer scores 0 without a person, also while its result is still being computed.
  if (item.reason === "blank" || isBlankValue(item.value)) return "blank";
  if (item.source === "auto") return "auto";
  if (item.source === "grader" || item.source === "settled") return "decided";
  return "waiting";
}

function isWaiting(item: GradingQueueItem, marker: GradeMarker): boolean {
  return stateOf(item, marker) === (marker === "final" ? "disagreement" : "waiting");
}

/** The next paper after `from` (wrapping round) that still waits for this marker, or null. */
function nextWaiting(items: readonly GradingQueueItem[], from: number, marker: GradeMarker): number | null {
  for (let step = 1; step <= items.length; step += 1) {
    const at = (from + step) % items.length;
    if (at !== from && isWaiting(items[at]!, marker)) return at;
  }
  return null;
}

type Conflict = { attemptId: string; current: GradeView | null; mine: { points: number; comment: string } };

/**
 * One question's grading queue, keyboard first (issue 15, "Grading by people"): one answer at a time, shown as
 * text (answers are hostile input: never HTML), under its candidate code; the papers beside it to jump between.
 * A save sends the revision of the mark it was based on; when another grader saved first (409 GRADE_CONFLICT)
 * their mark is shown and the grader chooses: keep theirs, or replace it with theirs' revision. Nothing silent.
 */
export function GradingQueueView({
  examId,
  initial,
  startAt,
}: {
  examId: string;
  initial: GradingQueue;
  /** The paper to open first (a link from the disagreements); else the first that waits. */
  startAt: string | null;
}) {
  const t = useTranslations("grading.queue");
  const locale = useLocale();
  const describeFailure = useDescribeFailure();
  const marker = initial.marker;
  const [queue, setQueue] = useState(initial);
  const [index, setIndex] = useState(() => {
    const at = startAt ? initial.items.findIndex((item) => item.attemptId === startAt) : -1;
    if (at >= 0) return at;
    const waiting = initial.items.findIndex((item) => isWaiting(item, marker));
    return waiting >= 0 ? waiting : 0;
  });
  const item: GradingQueueItem | undefined = queue.items[index];
  const [points, setPoints] = useState(() => (item?.grades[marker] ? String(item.grades[marker].points) : ""));
  const [comment, setComment] = useState(() => item?.grades[marker]?.comment ?? "");
  const [errors, setErrors] = useState<{ points?: string; form?: string }>({});
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [isSaving, setIsSaving] = useState(false);
  const [announcement, setAnnouncement] = useState("");
  const pointsRef = useRef<HTMLInputElement>(null);
  const conflictRef = useRef<HTMLHeadingElement>(null);

  const max = queue.question.points;
  const number = (value: number) => formatNumber(value, locale, 4);
  const queueUrl = `/api/admin/exams/${examId}/grading/${queue.question.id}`;

  function go(to: number, items: readonly GradingQueueItem[] = queue.items) {
    const target = items[to];
    if (!target) return;
    setIndex(to);
    // The address names the open paper, so a reload or a shared link comes back to it.
    const url = new URL(window.location.href);
    url.searchParams.set("paper", target.attemptId);
    window.history.replaceState(null, "", url);
    const mine = target.grades[marker];
    setPoints(mine ? String(mine.points) : "");
    setComment(mine?.comment ?? "");
    setErrors({});
    setConflict(null);
  }

  function move(step: 1 | -1) {
    if (queue.items.length === 0) return;
    go((index + step + queue.items.length) % queue.items.length);
  }

  async function save(basedOn?: number) {
    if (!item || isSaving) return;
    const text = points.trim();
    if (!POINTS.test(text) || Number(text) > max) {
      setErrors({ points: t("pointsInvalid", { max: number(max) }) });
      pointsRef.current?.focus();
      return;
    }
    const value = Number(text);
    const revision = basedOn ?? item.grades[marker]?.revision ?? 0;
    setIsSaving(true);
    const response = await callApi(`${queueUrl}/${item.attemptId}`, {
      method: "PUT",
      json: { marker, points: value, comment, revision },
      schema: SavedGradeSchema,
    });
    setIsSaving(false);
    if (!response.ok) {
      const failure = response.failure;
      if (failure.kind === "http" && failure.code === "GRADE_CONFLICT") {
        // The 409 carries the mark someone else saved meanwhile (none: they removed it).
        const parsed = GradeViewSchema.nullable().safeParse(failure.details?.current ?? null);
        const current = parsed.success ? parsed.data : null;
        setErrors({});
        setConflict({ attemptId: item.attemptId, current, mine: { points: value, comment } });
        return;
      }
      if (
        failure.kind === "http" &&
        failure.code === "VALIDATION_FAILED" &&
        failure.issues.some((i) => i.path === "points")
      ) {
        setErrors({ points: t("pointsInvalid", { max: number(max) }) });
        pointsRef.current?.focus();
        return;
      }
      setErrors({ form: describeFailure(failure) });
      return;
    }
    const { grade } = response.body;
    const items = queue.items.map((entry, at) =>
      at === index ? { ...entry, grades: { ...entry.grades, [marker]: grade } } : entry,
    );
    setQueue({ ...queue, items });
    setConflict(null);
    setErrors({});
    const next = nextWaiting(items, index, marker);
    const said = { points: number(grade.points), code: item.candidateCode };
    setAnnouncement(next === null ? t("allDone", said) : t("saved", said));
    if (next !== null) {
      go(next, items);
      pointsRef.current?.focus();
    } else {
      setPoints(String(grade.points));
      setComment(grade.comment);
    }
  }

  async function keepTheirs() {
    if (!conflict) return;
    const response = await callApi(`${queueUrl}?marker=${marker}`, { cache: "no-store", schema: GradingQueueSchema });
    if (!response.ok) {
      setErrors({ form: describeFailure(response.failure) });
      return;
    }
    const fresh = response.body;
    const at = fresh.items.findIndex((entry) => entry.attemptId === conflict.attemptId);
    setQueue(fresh);
    const code = fresh.items[at]?.candidateCode ?? "";
    go(at >= 0 ? at : 0, fresh.items);
    setAnnouncement(t("kept", { code }));
    pointsRef.current?.focus();
  }

  function replaceWithMine() {
    if (!conflict) return;
    void save(conflict.current?.revision ?? 0);
  }

  // A conflict takes the focus, so a keyboard or screen reader user meets it where it is.
  useEffect(() => {
    if (conflict) conflictRef.current?.focus();
  }, [conflict]);

  // The keys of the help line. The latest handler is read through a ref so the listener is added once.
  const onKeyRef = useRef<(event: KeyboardEvent) => void>(() => {});
  function onKey(event: KeyboardEvent) {
    if (event.defaultPrevented || !item) return;
    if (event.altKey && (event.key === "ArrowDown" || event.key === "ArrowUp")) {
      event.preventDefault();
      move(event.key === "ArrowDown" ? 1 : -1);
      return;
    }
    const target = event.target instanceof HTMLElement ? event.target : null;
    const isTyping = target?.closest("input, textarea, select, [contenteditable='true']") != null;
    if (isTyping || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === "j" || event.key === "J") {
      event.preventDefault();
      move(1);
    } else if (event.key === "k" || event.key === "K") {
      event.preventDefault();
      move(-1);
    } else if (/^[0-9]$/.test(event.key) && !conflict) {
      event.preventDefault();
      setPoints(event.key);
      setErrors({});
      pointsRef.current?.focus();
    }
  }
  useEffect(() => {
    onKeyRef.current = onKey;
  });
  useEffect(() => {
    const listener = (event: KeyboardEvent) => onKeyRef.current(event);
    window.addEventListener("keydown", listener);
    return () => window.removeEventListener("keydown", listener);
  }, []);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void save();
  }

  function onCommentKeyDown(event: ReactKeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void save();
    }
  }

  return (
    <>
      <p className="muted">{t("blindNote")}</p>
      <p className={styles.keys} id="grading-keys">
        {t("keys")}
      </p>
      <p role="status" aria-live="polite" className="visually-hidden">
        {announcement}
      </p>

      <div className={styles.layout}>
        <div className={styles.main}>
          <section className={styles.panel} aria-labelledby="grading-prompt">
            <h2 id="grading-prompt">{t("prompt")}</h2>
            <p className={styles.text}>{queue.question.prompt}</p>
            <p className="muted">{t("maxPoints", { points: number(max) })}</p>
          </section>
          <section className={styles.panel} aria-labelledby="grading-rubric">
            <h2 id="grading-rubric">{t("rubric")}</h2>
            {queue.question.rubric.trim() ? (
              <p className={styles.text}>{queue.question.rubric}</p>
            ) : (
              <p className="muted">{t("noRubric")}</p>
            )}
          </section>

          {item ? (
            <>
              <section className={styles.panel} aria-labelledby="grading-answer">
                <div className={styles.answerHead}>
                  <h2 id="grading-answer">{t("answerOf", { code: item.candidateCode })}</h2>
                  <span className="muted">{t("paperOf", { index: index + 1, total: queue.items.length })}</span>
                </div>
                <p>
                  {item.candidateName
                    ? t("candidateNamed", { code: item.candidateCode, name: item.candidateName })
                    : t("candidate", { code: item.candidateCode })}
                </p>
                {isBlankValue(item.value) ? (
                  <p className="muted">{t("blankAnswer")}</p>
                ) : Array.isArray(item.value) ? (
                  <ul className={styles.answer}>
                    {item.value.map((entry) => (
                      <li key={entry}>{entry}</li>
                    ))}
                  </ul>
                ) : (
                  <p className={styles.answer}>{typeof item.value === "number" ? number(item.value) : item.value}</p>
                )}
                {item.lateAnswerId ? <p className="notice">{t("lateAnswer")}</p> : null}
                <p className="muted">
                  {item.points === null ? t("resultPending") : t("resultNow", { points: number(item.points) })}
                </p>
              </section>

              {marker === "final" ? (
                <section className={styles.panel} aria-labelledby="grading-marks">
                  <h2 id="grading-marks">{t("marks")}</h2>
                  <dl className={styles.marks}>
                    {(["first", "second"] as const).map((who) => {
                      const mark = item.grades[who];
                      return (
                        <div key={who}>
                          <dt>{t(`modes.${who}`)}</dt>
                          <dd>{mark ? t("markBy", { points: number(mark.points), by: mark.by }) : t("noMark")}</dd>
                          {mark ? <dd className="muted">{mark.comment || t("noComment")}</dd> : null}
                        </div>
                      );
                    })}
                  </dl>
                </section>
              ) : null}

              {conflict && conflict.attemptId === item.attemptId ? (
                <section className={styles.conflict} aria-labelledby="grading-conflict">
                  <h2 id="grading-conflict" tabIndex={-1} ref={conflictRef}>
                    {t("conflict.title")}
                  </h2>
                  <p>{t("conflict.intro")}</p>
                  {conflict.current ? (
                    <>
                      <p>
                        <strong>
                          {t("conflict.theirs", { by: conflict.current.by, points: number(conflict.current.points) })}
                        </strong>
                      </p>
                      {conflict.current.comment ? (
                        <p className={styles.text}>
                          {t("conflict.theirComment", { comment: conflict.current.comment })}
                        </p>
                      ) : (
                        <p className="muted">{t("noComment")}</p>
                      )}
                    </>
                  ) : (
                    <p>{t("conflict.gone")}</p>
                  )}
                  <p>{t("conflict.yours", { points: number(conflict.mine.points) })}</p>
                  <div className={styles.buttons}>
                    <button type="button" className="button" onClick={() => void keepTheirs()}>
                      {t("conflict.keepTheirs")}
                    </button>
                    {conflict.current ? (
                      <button
                        type="button"
                        className="button button--primary"
                        disabled={isSaving}
                        onClick={replaceWithMine}
                      >
                        {t("conflict.replace")}
                      </button>
                    ) : null}
                  </div>
                </section>
              ) : null}

              <form className={`${styles.panel} ${styles.form}`} onSubmit={onSubmit} noValidate>
                <Field
                  id="grading-points"
                  label={t("points", { max: number(max) })}
                  hint={errors.points ? undefined : t("pointsHint")}
                  error={errors.points}
                  ref={pointsRef}
                  controlClassName={styles.pointsInput}
                  type="text"
                  inputMode="decimal"
                  autoComplete="off"
                  value={points}
                  onChange={(event) => {
                    setPoints(event.target.value);
                    if (errors.points) setErrors({ ...errors, points: undefined });
                  }}
                />
                <TextAreaField
                  id="grading-comment"
                  label={t("comment")}
                  controlClassName={styles.comment}
                  rows={3}
                  maxLength={5000}
                  value={comment}
                  onChange={(event) => setComment(event.target.value)}
                  onKeyDown={onCommentKeyDown}
                />
                <FormError message={errors.form} />
                <div className={styles.buttons}>
                  <button type="submit" className="button button--primary" disabled={isSaving}>
                    {isSaving ? t("saving") : t("save")}
                  </button>
                  <button type="button" className="button button--quiet" onClick={() => move(-1)}>
                    {t("previous")}
                  </button>
                  <button type="button" className="button button--quiet" onClick={() => move(1)}>
                    {t("next")}
                  </button>
                </div>
              </form>
            </>
          ) : (
            <p className="notice">{t("empty")}</p>
          )}
        </div>

        {queue.items.length > 0 ? (
          <nav className={`${styles.panel} ${styles.papers}`} aria-labelledby="grading-papers">
            <h2 id="grading-papers">{t("papersLabel")}</h2>
            <ol>
              {queue.items.map((entry, at) => {
                const state = stateOf(entry, marker);
                const stateClass =
                  state === "waiting" ? styles.stateWaiting : state === "disagreement" ? styles.stateDisagreement : "";
                return (
                  <li key={entry.attemptId}>
                    <button
                      type="button"
                      className={styles.paper}
                      aria-current={at === index ? "true" : undefined}
                      onClick={() => go(at)}
                    >
                      <span className={styles.code}>{entry.candidateCode}</span>
                      <span className={`${styles.state} ${stateClass}`}>{t(`states.${state}`)}</span>
                    </button>
                  </li>
                );
              })}
            </ol>
          </nav>
        ) : null}
      </div>
    </>
  );
}
