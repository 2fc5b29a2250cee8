"use client";

import { useTranslations } from "next-intl";
import { useEffect, useRef } from "react";

import { draftOf, type ExamDraft } from "@/lib/client/authoring/exam-draft";
import type { AdminExam } from "@/lib/shared/schemas/exams";

import styles from "./authoring.module.css";
import own from "./conflict-panel.module.css";

type Props = {
  mine: ExamDraft;
  theirs: AdminExam;
  timeZone: string;
  isSaving: boolean;
  onKeepMine: () => void;
  onTakeTheirs: () => void;
};

type Row = { label: string; mine: string; theirs: string };

/**
 * "Someone else changed this": the admin's unsaved draft beside the version that won, field by field, the
 * differences marked. Keeping mine re-saves the draft on the new revision; taking theirs replaces the draft.
 */
export function ConflictPanel({ mine, theirs, timeZone, isSaving, onKeepMine, onTakeTheirs }: Props) {
  const t = useTranslations("authoring.conflict");
  const te = useTranslations("authoring.editor");
  const tq = useTranslations("common.questionTypes");
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), [theirs.revision]);

  const other = draftOf(theirs, timeZone);
  const empty = te("empty");
  const text = (value: string) => (value.trim() === "" ? empty : value);
  const when = (draft: ExamDraft) =>
    draft.isAlwaysOpen
      ? te("alwaysOpen")
      : `${text(draft.opensAt.replace("T", " "))} – ${text(draft.closesAt.replace("T", " "))}`;
  const questions = (draft: ExamDraft) =>
    [
      t("questionsSummary", { count: draft.questions.length }),
      ...draft.questions.map((q, i) => `${i + 1}. ${tq(q.type)}: ${text(q.prompt)}`),
    ].join("\n");

  const rows: Row[] = [
    { label: te("title"), mine: text(mine.title), theirs: text(other.title) },
    { label: te("description"), mine: text(mine.description), theirs: text(other.description) },
    { label: te("rules"), mine: text(mine.rules), theirs: text(other.rules) },
    { label: te("duration"), mine: mine.durationMinutes, theirs: other.durationMinutes },
    { label: te("grace"), mine: mine.graceSeconds, theirs: other.graceSeconds },
    { label: te("window"), mine: when(mine), theirs: when(other) },
    {
      label: te("lateAnswers"),
      mine: te(`lateAnswersOptions.${mine.lateAnswers}`),
      theirs: te(`lateAnswersOptions.${other.lateAnswers}`),
    },
    {
      label: te("resultsVisibility"),
      mine: te(`resultsVisibilityOptions.${mine.resultsVisibility}`),
      theirs: te(`resultsVisibilityOptions.${other.resultsVisibility}`),
    },
    {
      label: te("resultsDetail"),
      mine: te(`resultsDetailOptions.${mine.resultsDetail}`),
      theirs: te(`resultsDetailOptions.${other.resultsDetail}`),
    },
    {
      label: te("secondMarking"),
      mine: mine.secondMarking ? t("on") : t("off"),
      theirs: other.secondMarking ? t("on") : t("off"),
    },
    { label: te("questions"), mine: questions(mine), theirs: questions(other) },
  ];

  const column = (side: "mine" | "theirs") => (
    <dl>
      {rows.map((row) => (
        <div key={row.label} className={row.mine !== row.theirs ? own.changed : undefined}>
          <dt>{row.label}</dt>
          <dd>{row[side]}</dd>
        </div>
      ))}
    </dl>
  );

  return (
    <section className={own.conflict} aria-labelledby="conflict-heading">
      <h2 id="conflict-heading" tabIndex={-1} ref={headingRef}>
        {t("title")}
      </h2>
      <p>{t("body", { revision: theirs.revision })}</p>
      <div className={own.compare}>
        <section aria-labelledby="conflict-mine">
          <h3 id="conflict-mine">{t("mine")}</h3>
          {column("mine")}
        </section>
        <section aria-labelledby="conflict-theirs">
          <h3 id="conflict-theirs">{t("theirs", { revision: theirs.revision })}</h3>
          {column("theirs")}
        </section>
      </div>
      <div className={styles.buttonRow}>
        <button type="button" className="button button--primary" disabled={isSaving} onClick={onKeepMine}>
          {t("keepMine")}
        </button>
        <button type="button" className="button" disabled={isSaving} onClick={onTakeTheirs}>
          {t("takeTheirs")}
        </button>
      </div>
    </section>
  );
}
