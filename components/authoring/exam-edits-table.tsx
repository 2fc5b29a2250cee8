"use client";

import { useLocale, useTimeZone, useTranslations } from "next-intl";

import { formatInstant } from "@/lib/shared/format";
import type { AdminQuestion, ExamEditRecord } from "@/lib/shared/schemas/exams";

import styles from "./exam-edits-table.module.css";

/** The corrections made after candidates started (exam_edits), newest first: who, when, what, before and after. */
export function ExamEditsTable({ edits, questions }: { edits: ExamEditRecord[]; questions: AdminQuestion[] }) {
  const t = useTranslations("authoring.editor");
  const locale = useLocale();
  const timeZone = useTimeZone() ?? "UTC";
  const show = (value: unknown) =>
    value === null || value === undefined ? t("empty") : typeof value === "string" ? value : JSON.stringify(value);
  const position = (questionId: string | null) => questions.find((q) => q.id === questionId)?.position;
  return (
    <section aria-labelledby="edits-heading">
      <h2 id="edits-heading">{t("edits")}</h2>
      {edits.length === 0 ? (
        <p className="muted">{t("editsNone")}</p>
      ) : (
        <div className={`table-wrap ${styles.edits}`} role="region" aria-labelledby="edits-heading" tabIndex={0}>
          <table className="data">
            <thead>
              <tr>
                <th scope="col">{t("editsColumns.when")}</th>
                <th scope="col">{t("editsColumns.who")}</th>
                <th scope="col">{t("editsColumns.question")}</th>
                <th scope="col">{t("editsColumns.field")}</th>
                <th scope="col">{t("editsColumns.before")}</th>
                <th scope="col">{t("editsColumns.after")}</th>
              </tr>
            </thead>
            <tbody>
              {edits.map((edit) => {
                const at = position(edit.questionId);
                return (
                  <tr key={edit.id}>
                    <td>{formatInstant(new Date(edit.at), locale, timeZone)}</td>
                    <td>{edit.actorLabel}</td>
                    <td>{at === undefined ? "" : t("questionNumber", { position: at })}</td>
                    <td>
                      <code>{edit.field}</code>
                    </td>
                    <td>{show(edit.before)}</td>
                    <td>{show(edit.after)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
