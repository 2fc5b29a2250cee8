"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useLocale, useTimeZone, useTranslations } from "next-intl";
import { useMemo, useRef, useState, type FormEvent } from "react";

import { blankQuestion, draftOf, moveItem, newKey, patchBody, type ExamDraft } from "@/lib/client/authoring/exam-draft";
import { callApi } from "@/lib/client/call-api";
import { useDescribeFailure } from "@/lib/client/i18n/use-describe-failure";
import { describeTimeZone } from "@/lib/shared/format";
import type { ApiFailure } from "@/lib/shared/i18n/api-failure";
import { LIMITS } from "@/lib/shared/limits";
import {
  AdminExamSchema,
  ExamEditsSchema,
  LATE_ANSWER_POLICIES,
  QUESTION_TYPES,
  RESULTS_DETAILS,
  RESULTS_VISIBILITIES,
  type AdminExam,
  type ExamEditRecord,
  type QuestionType,
} from "@/lib/shared/schemas/exams";

import styles from "./authoring.module.css";
import { ConflictPanel } from "./conflict-panel";
import { ExamEditsTable } from "./exam-edits-table";
import { ExamLifecycleControl } from "./exam-lifecycle-control";
import { ExamPreview } from "./exam-preview";
import { QtiTransfer } from "./qti-transfer";
import { QuestionEditor } from "./question-editor";

type Props = { exam: AdminExam; edits: ExamEditRecord[] };

/** Field issues of a 422, by path ("title", "questions.2.prompt"), in the reader's language. */
function issueMap(failure: ApiFailure, generic: string, closesAfterOpens: string): Map<string, string> {
  const map = new Map<string, string>();
  if (failure.kind !== "http") return map;
  for (const issue of failure.issues) {
    map.set(issue.path, issue.path === "closesAt" && /after/.test(issue.message) ? closesAfterOpens : generic);
  }
  return map;
}

/**
 * The exam editor: every field of the exam and its questions, saved as one PATCH on the revision it was loaded
 * at. A 409 EDIT_CONFLICT keeps the admin's draft and shows it beside the other version (ConflictPanel); the
 * admin either saves theirs on the new revision or takes the other one. Nothing is lost without a choice.
 */
export function ExamEditor({ exam: initial, edits: initialEdits }: Props) {
  const t = useTranslations("authoring.editor");
  const tq = useTranslations("common.questionTypes");
  const locale = useLocale();
  const timeZone = useTimeZone() ?? "UTC";
  const describeFailure = useDescribeFailure();
  const router = useRouter();
  const [exam, setExam] = useState(initial);
  const [draft, setDraft] = useState<ExamDraft>(() => draftOf(initial, timeZone));
  const [savedDraft, setSavedDraft] = useState<ExamDraft>(draft);
  const [edits, setEdits] = useState(initialEdits);
  const [issues, setIssues] = useState<Map<string, string>>(new Map());
  const [error, setError] = useState("");
  const [status, setStatus] = useState("");
  const [announcement, setAnnouncement] = useState("");
  const [isSaving, setIsSaving] = useState(false);
  const [conflict, setConflict] = useState<AdminExam | null>(null);
  const [isPreviewing, setIsPreviewing] = useState(false);
  const [newType, setNewType] = useState<QuestionType>("single_choice");
  const listRef = useRef<HTMLOListElement>(null);

  const isLocked = exam.attemptCount > 0;
  const isDirty = useMemo(() => JSON.stringify(draft) !== JSON.stringify(savedDraft), [draft, savedDraft]);
  const set = (patch: Partial<ExamDraft>) => setDraft((current) => ({ ...current, ...patch }));

  function questionIssues(index: number): Map<string, string> {
    const prefix = `questions.${index}.`;
    return new Map(
      [...issues].filter(([path]) => path.startsWith(prefix)).map(([path, m]) => [path.slice(prefix.length), m]),
    );
  }

  /**
   * Keeps focus on what the admin was using after a question moved (React moves the node), or puts it in a new
   * question's prompt. Only if focus is still where the action left it: a frame can come late on a busy
   * machine, and by then the admin may be typing elsewhere (their keys must not land in this prompt).
   */
  function refocus(questionKey: string, activeId: string | null) {
    const focusedBefore = document.activeElement;
    requestAnimationFrame(() => {
      const focusedNow = document.activeElement;
      if (focusedNow && focusedNow !== focusedBefore && focusedNow !== document.body) return;
      const active = activeId ? document.getElementById(activeId) : null;
      if (active && !(active as HTMLButtonElement).disabled) active.focus();
      else document.getElementById(`question-${questionKey}-prompt`)?.focus();
    });
  }

  function move(from: number, to: number) {
    if (to < 0 || to >= draft.questions.length) return;
    const moved = draft.questions[from];
    if (!moved) return;
    const activeId = document.activeElement instanceof HTMLElement ? document.activeElement.id || null : null;
    setDraft((current) => ({ ...current, questions: moveItem(current.questions, from, to) }));
    setIssues(new Map());
    setAnnouncement(t("moved", { from: from + 1, to: to + 1 }));
    refocus(moved.key, activeId);
  }

  function duplicate(index: number) {
    const source = draft.questions[index];
    if (!source) return;
    const copy = { ...source, key: newKey(), id: null, options: source.options.map((o) => ({ ...o })) };
    setDraft((current) => ({
      ...current,
      questions: [...current.questions.slice(0, index + 1), copy, ...current.questions.slice(index + 1)],
    }));
    setIssues(new Map());
    setAnnouncement(t("duplicated", { position: index + 1 }));
    refocus(copy.key, null);
  }

  function remove(index: number) {
    const next = draft.questions[index + 1] ?? draft.questions[index - 1];
    setDraft((current) => ({ ...current, questions: current.questions.filter((_, i) => i !== index) }));
    setIssues(new Map());
    setAnnouncement(t("removed", { position: index + 1 }));
    if (next) refocus(next.key, null);
  }

  function add() {
    const question = blankQuestion(newType);
    setDraft((current) => ({ ...current, questions: [...current.questions, question] }));
    setAnnouncement(t("added", { position: draft.questions.length + 1 }));
    refocus(question.key, null);
  }

  async function save(revision: number, body: ExamDraft = draft) {
    setError("");
    setStatus("");
    setIsSaving(true);
    const result = await callApi(`/api/admin/exams/${exam.id}`, {
      method: "PATCH",
      json: patchBody(body, revision, timeZone),
      schema: AdminExamSchema,
    });
    setIsSaving(false);
    if (!result.ok) {
      const failure = result.failure;
      if (failure.kind === "http" && failure.code === "EDIT_CONFLICT") {
        // The 409 carries the exam as it is now, for the conflict panel.
        const theirs = AdminExamSchema.safeParse(failure.details?.exam);
        if (theirs.success) setConflict(theirs.data);
      }
      setIssues(issueMap(failure, t("fieldInvalid"), t("closesAfterOpens")));
      setError(describeFailure(failure));
      return;
    }
    const saved = result.body;
    const next = draftOf(saved, timeZone);
    setExam(saved);
    setDraft(next);
    setSavedDraft(next);
    setConflict(null);
    setIssues(new Map());
    setStatus(t("saved", { revision: saved.revision }));
    // The page's heading and breadcrumb are the server's: let them show the saved title. The editor keeps
    // its own state (a refresh re-renders server components only).
    if (saved.title !== exam.title) router.refresh();
    if (saved.attemptCount > 0) {
      const listed = await callApi(`/api/admin/exams/${exam.id}/edits`, { schema: ExamEditsSchema });
      if (listed.ok) setEdits(listed.body.edits);
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void save(exam.revision);
  }

  function takeTheirs(theirs: AdminExam) {
    const next = draftOf(theirs, timeZone);
    setExam(theirs);
    setDraft(next);
    setSavedDraft(next);
    setConflict(null);
    setError("");
    setIssues(new Map());
  }

  const fieldError = (path: string) =>
    issues.has(path) ? (
      <p className={styles.fieldError} id={`exam-${path}-error`}>
        {issues.get(path)}
      </p>
    ) : null;
  const invalid = (path: string) =>
    issues.has(path) ? { "aria-invalid": true as const, "aria-describedby": `exam-${path}-error` } : {};

  if (isPreviewing) {
    return (
      <div>
        <div className={styles.buttonRow}>
          <button type="button" className="button" onClick={() => setIsPreviewing(false)}>
            {t("closePreview")}
          </button>
        </div>
        <ExamPreview draft={draft} />
      </div>
    );
  }

  return (
    <div className={styles.editor}>
      <p className="muted">{t("revision", { revision: exam.revision })}</p>
      <ExamLifecycleControl
        examId={exam.id}
        title={exam.title}
        status={exam.status}
        revision={exam.revision}
        attemptCount={exam.attemptCount}
        hasUnsavedChanges={isDirty}
        onChanged={(changed) => {
          const next = draftOf(changed, timeZone);
          setExam(changed);
          setDraft(next);
          setSavedDraft(next);
        }}
      />

      {conflict ? (
        <ConflictPanel
          mine={draft}
          theirs={conflict}
          timeZone={timeZone}
          onKeepMine={() => void save(conflict.revision)}
          onTakeTheirs={() => takeTheirs(conflict)}
          isSaving={isSaving}
        />
      ) : null}

      <form className={styles.editor} onSubmit={onSubmit} noValidate>
        <fieldset className={styles.section}>
          <legend>{t("details")}</legend>
          <div className={styles.field}>
            <label htmlFor="exam-title">{t("title")}</label>
            <input
              id="exam-title"
              value={draft.title}
              maxLength={LIMITS.maxTitleChars}
              onChange={(event) => set({ title: event.target.value })}
              {...invalid("title")}
            />
            {fieldError("title")}
          </div>
          <div className={styles.field}>
            <label htmlFor="exam-description">{t("description")}</label>
            <textarea
              id="exam-description"
              value={draft.description}
              aria-describedby="exam-description-hint"
              onChange={(event) => set({ description: event.target.value })}
            />
            <p className={styles.hint} id="exam-description-hint">
              {t("descriptionHint")}
            </p>
            {fieldError("description")}
          </div>
          <div className={styles.field}>
            <label htmlFor="exam-rules">{t("rules")}</label>
            <textarea id="exam-rules" value={draft.rules} onChange={(event) => set({ rules: event.target.value })} />
            {fieldError("rules")}
          </div>
          <div className={styles.grid}>
            <div className={styles.field}>
              <label htmlFor="exam-duration">{t("duration")}</label>
              <input
                id="exam-duration"
                inputMode="numeric"
                value={draft.durationMinutes}
                onChange={(event) => set({ durationMinutes: event.target.value })}
                {...invalid("durationSeconds")}
              />
              {fieldError("durationSeconds")}
            </div>
            <div className={styles.field}>
              <label htmlFor="exam-grace">{t("grace")}</label>
              <input
                id="exam-grace"
                inputMode="numeric"
                value={draft.graceSeconds}
                aria-describedby="exam-grace-hint"
                onChange={(event) => set({ graceSeconds: event.target.value })}
                {...invalid("graceSeconds")}
              />
              <p className={styles.hint} id="exam-grace-hint">
                {t("graceHint")}
              </p>
              {fieldError("graceSeconds")}
            </div>
          </div>
        </fieldset>

        <fieldset className={styles.section}>
          <legend>{t("window")}</legend>
          <label className={styles.check}>
            <input
              type="checkbox"
              checked={draft.isAlwaysOpen}
              onChange={(event) => set({ isAlwaysOpen: event.target.checked })}
            />
            <span>{t("alwaysOpen")}</span>
          </label>
          {draft.isAlwaysOpen ? null : (
            <>
              <div className={styles.grid}>
                <div className={styles.field}>
                  <label htmlFor="exam-opens">{t("opensAt")}</label>
                  <input
                    id="exam-opens"
                    type="datetime-local"
                    value={draft.opensAt}
                    onChange={(event) => set({ opensAt: event.target.value })}
                    {...invalid("opensAt")}
                  />
                  {fieldError("opensAt")}
                </div>
                <div className={styles.field}>
                  <label htmlFor="exam-closes">{t("closesAt")}</label>
                  <input
                    id="exam-closes"
                    type="datetime-local"
                    value={draft.closesAt}
                    onChange={(event) => set({ closesAt: event.target.value })}
                    {...invalid("closesAt")}
                  />
                  {fieldError("closesAt")}
                </div>
              </div>
              <p className={styles.hint}>{t("zone", { zone: describeTimeZone(timeZone, locale) })}</p>
            </>
          )}
          <div className={styles.grid}>
            <div className={styles.field}>
              <label htmlFor="exam-late">{t("lateAnswers")}</label>
              <select
                id="exam-late"
                value={draft.lateAnswers}
                onChange={(event) => set({ lateAnswers: event.target.value as ExamDraft["lateAnswers"] })}
              >
                {LATE_ANSWER_POLICIES.map((policy) => (
                  <option key={policy} value={policy}>
                    {t(`lateAnswersOptions.${policy}`)}
                  </option>
                ))}
              </select>
            </div>
            <div className={styles.field}>
              <label htmlFor="exam-results">{t("resultsVisibility")}</label>
              <select
                id="exam-results"
                value={draft.resultsVisibility}
                onChange={(event) => set({ resultsVisibility: event.target.value as ExamDraft["resultsVisibility"] })}
              >
                {RESULTS_VISIBILITIES.map((visibility) => (
                  <option key={visibility} value={visibility}>
                    {t(`resultsVisibilityOptions.${visibility}`)}
                  </option>
                ))}
              </select>
            </div>
          </div>
        </fieldset>

        <fieldset className={styles.section}>
          <legend>{t("resultsSettings")}</legend>
          <div className={styles.grid}>
            <div className={styles.field}>
              <label htmlFor="exam-results-detail">{t("resultsDetail")}</label>
              <select
                id="exam-results-detail"
                value={draft.resultsDetail}
                onChange={(event) => set({ resultsDetail: event.target.value as ExamDraft["resultsDetail"] })}
                aria-describedby="exam-results-detail-hint"
              >
                {RESULTS_DETAILS.map((detail) => (
                  <option key={detail} value={detail}>
                    {t(`resultsDetailOptions.${detail}`)}
                  </option>
                ))}
              </select>
              <p className={styles.hint} id="exam-results-detail-hint">
                {t("resultsDetailHint")}
              </p>
            </div>
          </div>
          <label className={styles.check}>
            <input
              type="checkbox"
              checked={draft.secondMarking}
              onChange={(event) => set({ secondMarking: event.target.checked })}
              aria-describedby="exam-second-marking-hint"
            />
            <span>{t("secondMarking")}</span>
          </label>
          <p className={styles.hint} id="exam-second-marking-hint">
            {t("secondMarkingHint")}
          </p>
        </fieldset>

        <section aria-labelledby="questions-heading" className={styles.editor}>
          <h2 id="questions-heading">{t("questions")}</h2>
          {isLocked ? (
            <div className="notice notice--warn">
              <p>
                <strong>{t("lockedTitle")}</strong>
              </p>
              <p>{t("lockedBody")}</p>
            </div>
          ) : (
            <p className={styles.hint}>{t("keyboardHint")}</p>
          )}
          <fieldset className={styles.section}>
            <legend className="visually-hidden">{t("questions")}</legend>
            <label className={styles.check}>
              <input
                type="checkbox"
                checked={draft.shuffleQuestions}
                disabled={isLocked}
                aria-describedby="exam-shuffle-hint"
                onChange={(event) => set({ shuffleQuestions: event.target.checked })}
              />
              <span>{t("shuffleQuestions")}</span>
            </label>
            <label className={styles.check}>
              <input
                type="checkbox"
                checked={draft.shuffleOptions}
                disabled={isLocked}
                aria-describedby="exam-shuffle-hint"
                onChange={(event) => set({ shuffleOptions: event.target.checked })}
              />
              <span>{t("shuffleOptions")}</span>
            </label>
            <p className={styles.hint} id="exam-shuffle-hint">
              {t("shuffleHint")}
            </p>
          </fieldset>
          {draft.questions.length === 0 ? <p className="notice">{t("noQuestions")}</p> : null}
          <ol className={styles.questions} ref={listRef}>
            {draft.questions.map((question, index) => (
              <li key={question.key}>
                <QuestionEditor
                  question={question}
                  index={index}
                  count={draft.questions.length}
                  isLocked={isLocked}
                  issues={questionIssues(index)}
                  onChange={(changed) =>
                    setDraft((current) => ({
                      ...current,
                      questions: current.questions.map((q) => (q.key === changed.key ? changed : q)),
                    }))
                  }
                  onMove={move}
                  onDuplicate={duplicate}
                  onDelete={remove}
                />
              </li>
            ))}
          </ol>
          {isLocked ? null : (
            <div className={styles.buttonRow}>
              <div className={styles.field}>
                <label htmlFor="new-question-type">{t("addQuestionOfType")}</label>
                <select
                  id="new-question-type"
                  value={newType}
                  onChange={(event) => setNewType(event.target.value as QuestionType)}
                >
                  {QUESTION_TYPES.map((type) => (
                    <option key={type} value={type}>
                      {tq(type)}
                    </option>
                  ))}
                </select>
              </div>
              <button
                type="button"
                className="button"
                onClick={add}
                disabled={draft.questions.length >= LIMITS.maxQuestionsPerExam}
              >
                {t("addQuestion")}
              </button>
            </div>
          )}
        </section>

        <div className={styles.saveBar}>
          <button type="submit" className="button button--primary" disabled={isSaving} aria-busy={isSaving}>
            {isSaving ? t("saving") : t("save")}
          </button>
          <button type="button" className="button" onClick={() => setIsPreviewing(true)}>
            {t("preview")}
          </button>
          <Link href={`/admin/exams/${exam.id}`}>{t("backToExam")}</Link>
          {isDirty ? <span className="muted">{t("unsaved")}</span> : null}
        </div>
        <p className="form-error" role="alert" aria-live="assertive">
          {error}
        </p>
        <p role="status" aria-live="polite">
          {status}
        </p>
      </form>
      <p className="visually-hidden" aria-live="polite">
        {announcement}
      </p>

      <QtiTransfer
        examId={exam.id}
        revision={exam.revision}
        isLocked={isLocked}
        hasUnsavedChanges={isDirty}
        onImported={(imported) => {
          const next = draftOf(imported, timeZone);
          setExam(imported);
          setDraft(next);
          setSavedDraft(next);
          setConflict(null);
          setIssues(new Map());
        }}
      />

      {isLocked || edits.length > 0 ? <ExamEditsTable edits={edits} questions={exam.questions} /> : null}
    </div>
  );
}
