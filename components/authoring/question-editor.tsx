"use client";

import { useTranslations } from "next-intl";
import type { KeyboardEvent } from "react";

import { Field, SelectField, TextAreaField } from "@/components/ui/field";
import fieldStyles from "@/components/ui/field.module.css";
import { nextOptionId, type DraftQuestion } from "@/lib/client/authoring/exam-draft";
import { LIMITS } from "@/lib/shared/limits";
import { CHOICE_SCORINGS, QUESTION_TYPES, type QuestionType } from "@/lib/shared/schemas/exams";

import styles from "./authoring.module.css";
import own from "./question-editor.module.css";

type Props = {
  question: DraftQuestion;
  index: number;
  count: number;
  /** Candidates have started: structure is locked (see lib/server/exams/update-exam.ts). */
  isLocked: boolean;
  /** Server issues for this question, by path inside it ("prompt", "options.0.label"). */
  issues: Map<string, string>;
  onChange: (question: DraftQuestion) => void;
  onMove: (from: number, to: number) => void;
  onDuplicate: (index: number) => void;
  onDelete: (index: number) => void;
};

const isChoiceType = (type: QuestionType) => type === "single_choice" || type === "multiple_choice";

/**
 * One question of the editor: its type, prompt, points and the fields of its type. Each labelled control is a
 * `Field`, `TextAreaField` or `SelectField`; the option rows (a correct-answer box, the option's text and its remove
 * button on one line, each named by `aria-label`) and the checkboxes cannot be, so they use the fields' error look.
 */
export function QuestionEditor({
  question,
  index,
  count,
  isLocked,
  issues,
  onChange,
  onMove,
  onDuplicate,
  onDelete,
}: Props) {
  const t = useTranslations("authoring.question");
  const tc = useTranslations("common");
  const position = index + 1;
  const base = `question-${question.key}`;
  const set = (patch: Partial<DraftQuestion>) => onChange({ ...question, ...patch });
  const isChoice = isChoiceType(question.type);

  function onKeyDown(event: KeyboardEvent<HTMLFieldSetElement>) {
    if (!event.altKey || isLocked) return;
    if (event.key === "ArrowUp" && index > 0) {
      event.preventDefault();
      onMove(index, index - 1);
    } else if (event.key === "ArrowDown" && index < count - 1) {
      event.preventDefault();
      onMove(index, index + 1);
    }
  }

  function changeType(type: QuestionType) {
    const keepOptions = isChoiceType(type) && question.options.length >= 2;
    set({
      type,
      options: isChoiceType(type)
        ? keepOptions
          ? question.options
          : [
              { id: "a", label: "" },
              { id: "b", label: "" },
            ]
        : [],
      keyIds: type === "single_choice" ? question.keyIds.slice(0, 1) : question.keyIds,
    });
  }

  function toggleKey(id: string, checked: boolean) {
    if (question.type === "single_choice") set({ keyIds: checked ? [id] : [], ungraded: false });
    else set({ keyIds: checked ? [...question.keyIds, id] : question.keyIds.filter((k) => k !== id), ungraded: false });
  }

  const error = (path: string) => issues.get(path) ?? null;
  const optionInvalid = (path: string) =>
    issues.has(path) ? { "aria-invalid": true as const, "aria-describedby": `${base}-${path}-error` } : {};
  const errorLine = (path: string) =>
    issues.has(path) ? (
      <p className={fieldStyles.error} id={`${base}-${path}-error`}>
        {error(path)}
      </p>
    ) : null;

  return (
    <fieldset className={own.question} onKeyDown={onKeyDown} data-question-index={index}>
      <legend>{t("legend", { position })}</legend>
      <div className={own.questionTools}>
        <button
          type="button"
          className="button button--quiet"
          id={`${base}-up`}
          aria-label={t("moveUp", { position })}
          disabled={isLocked || index === 0}
          onClick={() => onMove(index, index - 1)}
        >
          ↑
        </button>
        <button
          type="button"
          className="button button--quiet"
          id={`${base}-down`}
          aria-label={t("moveDown", { position })}
          disabled={isLocked || index === count - 1}
          onClick={() => onMove(index, index + 1)}
        >
          ↓
        </button>
        <button
          type="button"
          className="button button--quiet"
          disabled={isLocked || count >= LIMITS.maxQuestionsPerExam}
          onClick={() => onDuplicate(index)}
        >
          {t("duplicate", { position })}
        </button>
        <button
          type="button"
          className={`button button--quiet ${styles.danger}`}
          disabled={isLocked}
          onClick={() => onDelete(index)}
        >
          {t("delete", { position })}
        </button>
      </div>
      <div className={styles.grid}>
        <SelectField
          id={`${base}-type`}
          className={styles.field}
          label={t("type")}
          value={question.type}
          disabled={isLocked}
          options={QUESTION_TYPES.map((type) => ({ value: type, label: tc(`questionTypes.${type}`) }))}
          onChange={(event) => {
            const type = QUESTION_TYPES.find((value) => value === event.target.value);
            if (type) changeType(type);
          }}
        />
        <Field
          id={`${base}-points`}
          className={styles.field}
          label={t("points")}
          error={error("points")}
          inputMode="decimal"
          value={question.points}
          onChange={(event) => set({ points: event.target.value })}
        />
      </div>
      <TextAreaField
        id={`${base}-prompt`}
        className={styles.field}
        label={t("prompt")}
        error={error("prompt")}
        value={question.prompt}
        maxLength={LIMITS.maxPromptChars}
        onChange={(event) => set({ prompt: event.target.value })}
      />

      {isChoice ? (
        <div className={styles.field} role="group" aria-labelledby={`${base}-options`}>
          <span className={own.fieldLabel} id={`${base}-options`}>
            {t("options")}
          </span>
          <ul className={own.optionList}>
            {question.options.map((option, optionIndex) => (
              <li key={option.id} className={own.option}>
                <input
                  type={question.type === "single_choice" ? "radio" : "checkbox"}
                  name={`${base}-key`}
                  checked={question.keyIds.includes(option.id)}
                  aria-label={t("correctOption", { id: option.id })}
                  onChange={(event) => toggleKey(option.id, event.target.checked)}
                />
                <input
                  aria-label={t("optionLabel", { id: option.id })}
                  value={option.label}
                  onChange={(event) =>
                    set({
                      options: question.options.map((o, i) =>
                        i === optionIndex ? { ...o, label: event.target.value } : o,
                      ),
                    })
                  }
                  {...optionInvalid(`options.${optionIndex}.label`)}
                />
                <button
                  type="button"
                  className="button button--quiet"
                  aria-label={t("removeOption", { id: option.id })}
                  disabled={isLocked || question.options.length <= 2}
                  onClick={() =>
                    set({
                      options: question.options.filter((o) => o.id !== option.id),
                      keyIds: question.keyIds.filter((k) => k !== option.id),
                    })
                  }
                >
                  ✕
                </button>
                {errorLine(`options.${optionIndex}.label`)}
              </li>
            ))}
          </ul>
          {errorLine("answerKey")}
          <div className={styles.buttonRow}>
            <button
              type="button"
              className="button button--quiet"
              disabled={isLocked || question.options.length >= LIMITS.maxOptionsPerQuestion}
              onClick={() => set({ options: [...question.options, { id: nextOptionId(question.options), label: "" }] })}
            >
              {t("addOption")}
            </button>
          </div>
          <label className={styles.check}>
            <input
              type="checkbox"
              checked={question.ungraded}
              onChange={(event) =>
                set({ ungraded: event.target.checked, keyIds: event.target.checked ? [] : question.keyIds })
              }
            />
            <span>{t("ungraded")}</span>
          </label>
        </div>
      ) : null}

      {question.type === "multiple_choice" ? (
        <SelectField
          id={`${base}-scoring`}
          className={styles.field}
          label={t("scoring")}
          value={question.scoring}
          options={CHOICE_SCORINGS.map((scoring) => ({ value: scoring, label: t(`scoringOptions.${scoring}`) }))}
          onChange={(event) => {
            const scoring = CHOICE_SCORINGS.find((value) => value === event.target.value);
            if (scoring) set({ scoring });
          }}
        />
      ) : null}

      {question.type === "short_text" ? (
        <>
          <TextAreaField
            id={`${base}-accepted`}
            className={styles.field}
            label={t("accepted")}
            hint={t("acceptedHint")}
            error={error("answerKey")}
            value={question.accepted}
            onChange={(event) => set({ accepted: event.target.value })}
          />
          <label className={styles.check}>
            <input
              type="checkbox"
              checked={question.exactMatch}
              onChange={(event) => set({ exactMatch: event.target.checked })}
            />
            <span>{t("exactMatch")}</span>
          </label>
        </>
      ) : null}

      {question.type === "numeric" ? (
        <div className={styles.grid}>
          <Field
            id={`${base}-numeric`}
            className={styles.field}
            label={t("numericKey")}
            error={error("answerKey")}
            inputMode="decimal"
            value={question.numericKey}
            onChange={(event) => set({ numericKey: event.target.value })}
          />
          <Field
            id={`${base}-tolerance`}
            className={styles.field}
            label={t("tolerance")}
            error={error("tolerance")}
            inputMode="decimal"
            value={question.tolerance}
            onChange={(event) => set({ tolerance: event.target.value })}
          />
        </div>
      ) : null}

      {question.type === "essay" ? <p className={styles.hint}>{t("essayNote")}</p> : null}

      <TextAreaField
        id={`${base}-rubric`}
        className={styles.field}
        label={t("rubric")}
        hint={t("rubricHint")}
        error={error("rubric")}
        value={question.rubric}
        maxLength={LIMITS.maxRubricChars}
        rows={3}
        onChange={(event) => set({ rubric: event.target.value })}
      />
    </fieldset>
  );
}
