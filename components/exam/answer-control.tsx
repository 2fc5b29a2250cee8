"use client";

import { useTranslations } from "next-intl";
import { useId, useState, type ChangeEvent } from "react";

import type { AnswerState, EditResult } from "@/lib/client/sync/sync-state";
import { isBlankAnswer } from "@/lib/shared/answers";
import { LIMITS } from "@/lib/shared/limits";
import { numericAnswerText, readNumericAnswer, type NumericProblem } from "@/lib/shared/numeric-answer";
import type { AnswerValue } from "@/lib/shared/schemas/attempts";
import type { CandidateQuestion } from "@/lib/shared/schemas/exams";

import styles from "./answer-control.module.css";

export type AnswerControlProps = {
  question: CandidateQuestion;
  answer: AnswerState | undefined;
  /** This browser's device id: an incoming value made elsewhere may replace what is in a focused field. */
  deviceId: string | null;
  /** Read-only: the device is still loading, or the paper is being submitted, submitted or closed. */
  isLocked: boolean;
  /**
   * The device's store has been read, so `answer` is the newest draft this device holds. Until then the control
   * shows the page's render, which may be older than the device's draft: it stays read-only, and the first
   * value from the device replaces whatever it shows (issue 11, defect 6).
   */
  isHydrated: boolean;
  onEdit: (value: AnswerValue) => Promise<EditResult>;
  /** Ids of the elements that describe the control (prompt, save status). */
  describedBy: string;
};

/** The id of the page's "opening your answers on this device" message, which describes every control until then. */
export const OPENING_ANSWERS_ID = "exam-opening-answers";

/** The native control for each question type; every change goes to `onEdit` at once. */
export function AnswerControl(props: AnswerControlProps) {
  const locked = { ...props, isLocked: props.isLocked || !props.isHydrated };
  switch (props.question.type) {
    case "single_choice":
    case "multiple_choice":
      return <ChoiceControl {...locked} />;
    case "short_text":
    case "essay":
    case "numeric":
      return <TextControl {...locked} />;
  }
}

/** While the device's store is being read, the control is busy and described by the page's message saying so. */
function loadingProps(isHydrated: boolean, describedBy: string) {
  return isHydrated
    ? { "aria-describedby": describedBy }
    : { "aria-busy": true, "aria-describedby": `${OPENING_ANSWERS_ID} ${describedBy}` };
}

function ChoiceControl({ question, answer, isLocked, isHydrated, onEdit, describedBy }: AnswerControlProps) {
  const t = useTranslations("exam.answer");
  const name = useId();
  const isMultiple = question.type === "multiple_choice";
  const options = question.options ?? [];
  const value = answer?.value ?? null;
  const selected = value === null ? [] : Array.isArray(value) ? value : [String(value)];

  function onChange(optionId: string, isChecked: boolean) {
    if (!isMultiple) {
      void onEdit(optionId);
      return;
    }
    // In the question's own option order, so the same choice is always the same value; none left is no answer.
    const next = options
      .filter((option) => (option.id === optionId ? isChecked : selected.includes(option.id)))
      .map((option) => option.id);
    void onEdit(next.length > 0 ? next : null);
  }

  return (
    <fieldset className={styles.answer} disabled={isLocked} {...loadingProps(isHydrated, describedBy)}>
      <legend className={styles.legend}>{isMultiple ? t("chooseAll") : t("chooseOne")}</legend>
      <div className={styles.choices}>
        {options.map((option) => (
          <label key={option.id} className={styles.choice}>
            <input
              type={isMultiple ? "checkbox" : "radio"}
              name={name}
              value={option.id}
              checked={selected.includes(option.id)}
              onChange={(event) => onChange(option.id, event.currentTarget.checked)}
            />
            <span>{option.label}</span>
          </label>
        ))}
      </div>
      {/* A chosen radio cannot be unchosen by itself: clearing is an edit like any other (value null). */}
      {selected.length > 0 && !isLocked ? (
        <button
          type="button"
          className={`button button--quiet ${styles.clear}`}
          aria-label={t("clearLabel", { position: question.position })}
          onClick={() => void onEdit(null)}
        >
          {t("clear")}
        </button>
      ) : null}
    </fieldset>
  );
}

/** The text a field shows for a stored value: numbers as plain digits that read back as the same number. */
function asText(value: AnswerValue | undefined): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "number") return numericAnswerText(value);
  return Array.isArray(value) ? value.join(", ") : value;
}

/** What a numeric field says about text it cannot read (exam.answer.numeric.* in the catalogs). */
const PROBLEM_KEYS: Record<NumericProblem, string> = {
  incomplete: "incomplete",
  "not-a-number": "notANumber",
  exponent: "exponent",
  grouping: "grouping",
  "ambiguous-comma": "ambiguousComma",
  "too-many-digits": "tooManyDigits",
};

/**
 * Short text, essay and numeric answers. The field keeps its own text, so an echo of the candidate's own
 * edit never moves the caret; a value from elsewhere is adopted when the field is not focused and the value is
 * not simply what this field last wrote, or at once when another device made a newer version.
 *
 * A numeric field is plain text (`inputmode="decimal"`, never `type=number`, whose browsers drop what they
 * cannot read): its text is read by `readNumericAnswer` (lib/shared/numeric-answer.ts), a decimal comma as a
 * decimal point. Text it cannot read is never saved; the field says why, next to it, and what is still saved.
 */
function TextControl({ question, answer, deviceId, isLocked, isHydrated, onEdit, describedBy }: AnswerControlProps) {
  const t = useTranslations("exam.answer");
  const inputId = useId();
  const countId = useId();
  const noteId = useId();
  const incoming = asText(answer?.value);
  const [text, setText] = useState(incoming);
  const [lastWritten, setLastWritten] = useState<string | null>(null);
  const [isFocused, setIsFocused] = useState(false);
  const [refusal, setRefusal] = useState<Exclude<EditResult, { ok: true }>["reason"] | null>(null);
  const [seen, setSeen] = useState({
    text: incoming,
    version: answer?.version ?? 0,
    deviceId: answer?.deviceId ?? "",
    isHydrated,
  });

  const version = answer?.version ?? 0;
  const author = answer?.deviceId ?? "";
  if (
    seen.text !== incoming ||
    seen.version !== version ||
    seen.deviceId !== author ||
    seen.isHydrated !== isHydrated
  ) {
    // Adjusting state to a new incoming value during render (React's "storing information from previous renders").
    const isFromElsewhere = author !== "" && author !== deviceId && version !== seen.version;
    // Until the device's store is read (and in the render that brings its value) nothing in the field is the
    // candidate's: it was read-only. The device's value replaces it even in a focused field.
    const isFromDevice = !isHydrated || !seen.isHydrated;
    setSeen({ text: incoming, version, deviceId: author, isHydrated });
    if (incoming !== text && (isFromDevice || isFromElsewhere || (!isFocused && incoming !== lastWritten))) {
      setText(incoming);
    }
  }

  function write(value: AnswerValue, written: string) {
    setLastWritten(written);
    void onEdit(value).then((result) => setRefusal(result.ok ? null : result.reason));
  }

  function onChange(event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) {
    const next = event.currentTarget.value;
    setText(next);
    // Emptied: no answer (null), the same whatever the type, where there was an answer to clear.
    const hasValue = answer !== undefined && answer.value !== null;
    if (question.type !== "numeric") {
      if (next !== "") write(next, next);
      else if (hasValue) write(null, "");
      return;
    }
    // Only a number is an answer; an emptied field clears it (null). Unreadable text writes nothing (never a 0,
    // never a guess): the field says why, and what is still saved.
    const reading = readNumericAnswer(next);
    if (reading.kind === "number") write(reading.value, numericAnswerText(reading.value));
    else if (reading.kind === "empty" && hasValue) write(null, "");
  }

  function onBlur() {
    setIsFocused(false);
    // Someone else wrote this question while the candidate was typing here: show the newest value now.
    if (incoming !== text && lastWritten !== null && incoming !== lastWritten && answer?.status === "saved") {
      setText(incoming);
    }
  }

  const reading = question.type === "numeric" ? readNumericAnswer(text) : null;
  const isInvalid = reading?.kind === "invalid";

  const common = {
    id: inputId,
    value: text,
    readOnly: isLocked,
    onChange,
    onFocus: () => setIsFocused(true),
    onBlur,
    ...loadingProps(isHydrated, `${countId} ${noteId} ${describedBy}`),
  };

  let field;
  let countText: string;
  if (question.type === "essay") {
    field = (
      <textarea {...common} className={`${styles.input} ${styles.essay}`} rows={8} maxLength={LIMITS.essayChars} />
    );
    countText = t("essayCount", { count: text.length, max: LIMITS.essayChars });
  } else if (question.type === "short_text") {
    field = (
      <input {...common} type="text" className={styles.input} maxLength={LIMITS.shortTextChars} autoComplete="off" />
    );
    countText = t("shortCount", { count: text.length, max: LIMITS.shortTextChars });
  } else {
    field = (
      <input
        {...common}
        type="text"
        inputMode="decimal"
        autoComplete="off"
        spellCheck={false}
        aria-invalid={isInvalid}
        className={`${styles.input} ${styles.number}${isInvalid ? ` ${styles.invalid}` : ""}`}
      />
    );
    // Say how the text was read when it is not written the way it is stored (20,5 is read as 20.5).
    countText =
      reading?.kind === "number" && text.trim() !== numericAnswerText(reading.value)
        ? t("numeric.readAs", { value: numericAnswerText(reading.value) })
        : t("numeric.hint");
  }

  let note: string | null = refusal ? t(`refusals.${refusal}`) : null;
  if (!note && reading?.kind === "invalid") {
    const written = text.trim();
    const problem = t(`numeric.${PROBLEM_KEYS[reading.problem]}`, {
      text: written,
      withoutComma: written.replace(",", ""),
      withPoint: written.replace(",", "."),
    });
    const saved = !isBlankAnswer(answer?.value)
      ? t("numeric.stillSaved", { value: asText(answer?.value) })
      : t("numeric.nothingSaved");
    note = t("numeric.problemAndSaved", { problem, saved });
  } else if (!note && text === "" && answer !== undefined && answer.value === null && lastWritten === "") {
    // Emptied here: say that the question has no answer now (it matters where wrong answers cost points).
    note = t("cleared");
  }

  return (
    <div className={styles.answer}>
      <label htmlFor={inputId} className={styles.label}>
        {t("label")}
      </label>
      {field}
      <p className={`${styles.count} muted`} id={countId}>
        {countText}
      </p>
      <p className={isInvalid ? `${styles.note} ${styles.noteError}` : styles.note} id={noteId} aria-live="polite">
        {note}
      </p>
    </div>
  );
}
