"use client";

import { useLocale, useTranslations } from "next-intl";

import { Field, SelectField, TextAreaField } from "@/components/ui/field";
import type { ExamDraft } from "@/lib/client/authoring/exam-draft";
import { describeTimeZone } from "@/lib/shared/format";
import { LIMITS } from "@/lib/shared/limits";
import { LATE_ANSWER_POLICIES, RESULTS_DETAILS, RESULTS_VISIBILITIES } from "@/lib/shared/schemas/exams";

import styles from "./authoring.module.css";

type Props = {
  draft: ExamDraft;
  set: (patch: Partial<ExamDraft>) => void;
  /** The last save's field issues, by the API's path ("title", "closesAt"), in the reader's language. */
  issues: Map<string, string>;
  timeZone: string;
};

/**
 * The exam's own settings in the editor: its details (title, description, rules, duration, grace), its window and
 * late-answer and results policies, and how results are shown and marked. Each labelled control is a `Field`,
 * `TextAreaField` or `SelectField` showing the last save's issue for it; the checkboxes keep their label around the
 * box (the building blocks label a control from above), with the same hint rules.
 */
export function ExamSettings({ draft, set, issues, timeZone }: Props) {
  const t = useTranslations("authoring.editor");
  const locale = useLocale();
  const error = (path: string) => issues.get(path) ?? null;

  return (
    <>
      <fieldset className={styles.section}>
        <legend>{t("details")}</legend>
        <Field
          id="exam-title"
          className={styles.field}
          label={t("title")}
          error={error("title")}
          value={draft.title}
          maxLength={LIMITS.maxTitleChars}
          onChange={(event) => set({ title: event.target.value })}
        />
        <TextAreaField
          id="exam-description"
          className={styles.field}
          label={t("description")}
          hint={t("descriptionHint")}
          error={error("description")}
          value={draft.description}
          onChange={(event) => set({ description: event.target.value })}
        />
        <TextAreaField
          id="exam-rules"
          className={styles.field}
          label={t("rules")}
          error={error("rules")}
          value={draft.rules}
          onChange={(event) => set({ rules: event.target.value })}
        />
        <div className={styles.grid}>
          <Field
            id="exam-duration"
            className={styles.field}
            label={t("duration")}
            error={error("durationSeconds")}
            inputMode="numeric"
            value={draft.durationMinutes}
            onChange={(event) => set({ durationMinutes: event.target.value })}
          />
          <Field
            id="exam-grace"
            className={styles.field}
            label={t("grace")}
            hint={t("graceHint")}
            error={error("graceSeconds")}
            inputMode="numeric"
            value={draft.graceSeconds}
            onChange={(event) => set({ graceSeconds: event.target.value })}
          />
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
              <Field
                id="exam-opens"
                className={styles.field}
                label={t("opensAt")}
                error={error("opensAt")}
                type="datetime-local"
                value={draft.opensAt}
                onChange={(event) => set({ opensAt: event.target.value })}
              />
              <Field
                id="exam-closes"
                className={styles.field}
                label={t("closesAt")}
                error={error("closesAt")}
                type="datetime-local"
                value={draft.closesAt}
                onChange={(event) => set({ closesAt: event.target.value })}
              />
            </div>
            <p className={styles.hint}>{t("zone", { zone: describeTimeZone(timeZone, locale) })}</p>
          </>
        )}
        <div className={styles.grid}>
          <SelectField
            id="exam-late"
            className={styles.field}
            label={t("lateAnswers")}
            value={draft.lateAnswers}
            options={LATE_ANSWER_POLICIES.map((policy) => ({
              value: policy,
              label: t(`lateAnswersOptions.${policy}`),
            }))}
            onChange={(event) => {
              const policy = LATE_ANSWER_POLICIES.find((value) => value === event.target.value);
              if (policy) set({ lateAnswers: policy });
            }}
          />
          <SelectField
            id="exam-results"
            className={styles.field}
            label={t("resultsVisibility")}
            value={draft.resultsVisibility}
            options={RESULTS_VISIBILITIES.map((visibility) => ({
              value: visibility,
              label: t(`resultsVisibilityOptions.${visibility}`),
            }))}
            onChange={(event) => {
              const visibility = RESULTS_VISIBILITIES.find((value) => value === event.target.value);
              if (visibility) set({ resultsVisibility: visibility });
            }}
          />
        </div>
      </fieldset>

      <fieldset className={styles.section}>
        <legend>{t("resultsSettings")}</legend>
        <div className={styles.grid}>
          <SelectField
            id="exam-results-detail"
            className={styles.field}
            label={t("resultsDetail")}
            hint={t("resultsDetailHint")}
            value={draft.resultsDetail}
            options={RESULTS_DETAILS.map((detail) => ({ value: detail, label: t(`resultsDetailOptions.${detail}`) }))}
            onChange={(event) => {
              const detail = RESULTS_DETAILS.find((value) => value === event.target.value);
              if (detail) set({ resultsDetail: detail });
            }}
          />
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
    </>
  );
}
