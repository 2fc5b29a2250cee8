"use client";

import { useTranslations } from "next-intl";
import { useState, type Dispatch, type SetStateAction } from "react";

import { SelectField } from "@/components/ui/field";
import { blankQuestion, moveItem, newKey, type ExamDraft } from "@/lib/client/authoring/exam-draft";
import { LIMITS } from "@/lib/shared/limits";
import { QUESTION_TYPES, type QuestionType } from "@/lib/shared/schemas/exams";

import styles from "./authoring.module.css";
import { QuestionEditor } from "./question-editor";

type Props = {
  draft: ExamDraft;
  setDraft: Dispatch<SetStateAction<ExamDraft>>;
  /** Candidates have started: questions cannot be added, moved, copied or removed, nor shuffled differently. */
  isLocked: boolean;
  /** The last save's field issues, by the API's path ("questions.2.prompt"). */
  issues: Map<string, string>;
  /** The questions moved, or one was added or removed: the last save's issues no longer point at the right one. */
  onReordered: () => void;
  /** Says what happened (moved, duplicated, removed, added) in the editor's polite live region. */
  announce: (text: string) => void;
};

/**
 * The editor's questions: the shuffle settings, one QuestionEditor per question (move with Alt+↑/↓ or the arrow
 * buttons, duplicate, delete), and adding a question of a chosen type. Focus follows what the admin was using.
 */
export function QuestionList({ draft, setDraft, isLocked, issues, onReordered, announce }: Props) {
  const t = useTranslations("authoring.editor");
  const tq = useTranslations("common.questionTypes");
  const [newType, setNewType] = useState<QuestionType>("single_choice");
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
    onReordered();
    announce(t("moved", { from: from + 1, to: to + 1 }));
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
    onReordered();
    announce(t("duplicated", { position: index + 1 }));
    refocus(copy.key, null);
  }

  function remove(index: number) {
    const next = draft.questions[index + 1] ?? draft.questions[index - 1];
    setDraft((current) => ({ ...current, questions: current.questions.filter((_, i) => i !== index) }));
    onReordered();
    announce(t("removed", { position: index + 1 }));
    if (next) refocus(next.key, null);
  }

  function add() {
    const question = blankQuestion(newType);
    setDraft((current) => ({ ...current, questions: [...current.questions, question] }));
    announce(t("added", { position: draft.questions.length + 1 }));
    refocus(question.key, null);
  }

  return (
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
      <ol className={styles.questions}>
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
          <SelectField
            id="new-question-type"
            className={styles.field}
            label={t("addQuestionOfType")}
            value={newType}
            options={QUESTION_TYPES.map((type) => ({ value: type, label: tq(type) }))}
            onChange={(event) => {
              const type = QUESTION_TYPES.find((value) => value === event.target.value);
              if (type) setNewType(type);
            }}
          />
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
  );
}
