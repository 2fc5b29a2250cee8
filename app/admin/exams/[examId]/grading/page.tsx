import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getLocale, getTranslations } from "next-intl/server";

import styles from "@/components/admin/grading/grading.module.css";
import { ResultsNav } from "@/components/admin/results-nav";
import { readGradingOverview } from "@/lib/server/grading/read-grading-overview";
import { formatNumber } from "@/lib/shared/format";
import type { GradingOverviewQuestion } from "@/lib/shared/schemas/grading";

import { requireStaffExam } from "../staff-exam";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("grading.overview");
  return { title: t("metaTitle") };
}

type Props = { params: Promise<{ examId: string }> };

/**
 * The exam's grading per question (issue 15, "Grading by people"): what the rules left to a person, how much of
 * it each marker has done, and a link into each question's queue; questions the rules score alone are said to be.
 */
export default async function GradingOverviewPage({ params }: Props) {
  const { examId } = await params;
  const { staff, exam } = await requireStaffExam(examId, "grader");
  const isAdmin = staff.role === "admin";
  const overview = await readGradingOverview({ examId });
  if (!overview) notFound();
  const [t, tTypes, locale] = await Promise.all([
    getTranslations("grading.overview"),
    getTranslations("common.questionTypes"),
    getLocale(),
  ]);
  const number = (value: number) => formatNumber(value, locale, 4);
  const queueHref = (question: GradingOverviewQuestion, marker: "first" | "second" | "final") =>
    `/admin/exams/${exam.id}/grading/${question.id}?marker=${marker}`;
  const totalDisagreements = overview.questions.reduce((sum, question) => sum + question.disagreements, 0);
  const submitted = overview.questions[0]?.submitted ?? 0;
  const cols = {
    question: t("columns.question"),
    type: t("columns.type"),
    points: t("columns.points"),
    progress: t("columns.progress"),
    actions: t("columns.actions"),
  };

  function progress(question: GradingOverviewQuestion) {
    if (question.ungraded) return <span className="muted">{t("ungraded")}</span>;
    if (question.needsPerson === 0 && question.disagreements === 0) {
      const isPersonal = question.type === "essay" || question.type === "short_text";
      return <span className="muted">{isPersonal ? t("nothing") : t("auto")}</span>;
    }
    const total = question.needsPerson;
    const lines: { key: string; text: string; done: number }[] = overview!.secondMarking
      ? [
          {
            key: "first",
            done: total - question.waiting.first,
            text: t("markedBy", {
              marker: t("first"),
              done: number(total - question.waiting.first),
              total: number(total),
              waiting: question.waiting.first,
            }),
          },
          {
            key: "second",
            done: total - (question.waiting.second ?? 0),
            text: t("markedBy", {
              marker: t("second"),
              done: number(total - (question.waiting.second ?? 0)),
              total: number(total),
              waiting: question.waiting.second ?? 0,
            }),
          },
        ]
      : [
          {
            key: "first",
            done: total - question.waiting.first,
            text: t("marked", {
              done: number(total - question.waiting.first),
              total: number(total),
              waiting: question.waiting.first,
            }),
          },
        ];
    return (
      <ul className={styles.progressList}>
        {lines.map((line) => (
          <li key={line.key}>
            <span>{line.text}</span>
            <progress max={Math.max(total, 1)} value={line.done} aria-label={line.text} />
          </li>
        ))}
        {question.disagreements > 0 ? (
          <li className={styles.disagree}>{t("disagreements", { count: question.disagreements })}</li>
        ) : null}
      </ul>
    );
  }

  function actions(question: GradingOverviewQuestion) {
    if (question.ungraded || (question.needsPerson === 0 && question.disagreements === 0)) return null;
    if (!overview!.secondMarking) {
      return (
        <Link
          className="button button--quiet"
          href={queueHref(question, "first")}
          aria-label={t("gradeLabel", { position: question.position })}
        >
          {t("grade")}
        </Link>
      );
    }
    const links = [
      { marker: "first" as const, text: t("first") },
      { marker: "second" as const, text: t("second") },
      // Settling is an admin's.
      ...(question.disagreements > 0 && isAdmin ? [{ marker: "final" as const, text: t("settle") }] : []),
    ];
    return (
      <span className={styles.actions}>
        {links.map((link) => (
          <Link
            key={link.marker}
            className="button button--quiet"
            href={queueHref(question, link.marker)}
            aria-label={t("markerLabel", { marker: link.text, position: question.position })}
          >
            {link.text}
          </Link>
        ))}
      </span>
    );
  }

  return (
    <>
      <main className="page">
        <p className="breadcrumb">
          {isAdmin ? (
            <Link href={`/admin/exams/${exam.id}`}>{t("backToExam")}</Link>
          ) : (
            <Link href="/grading">{t("backToGradingList")}</Link>
          )}
        </p>
        <h1>{t("titleFor", { exam: exam.title })}</h1>
        {isAdmin ? <ResultsNav examId={exam.id} current="grading" /> : null}
        <p className="prose">{t("intro")}</p>
        {overview.secondMarking ? <p className="notice">{t("secondMarking")}</p> : null}
        {overview.released ? <p className="notice notice--warn">{t("released")}</p> : null}
        <p>{t("submitted", { count: submitted })}</p>
        {overview.secondMarking && isAdmin ? (
          <p>
            <Link href={`/admin/exams/${exam.id}/grading/disagreements`}>
              {t("disagreementsLink", { count: totalDisagreements })}
            </Link>
          </p>
        ) : null}
        {overview.questions.length === 0 ? (
          <p className="notice">{t("noQuestions")}</p>
        ) : (
          <div className="table-wrap table-wrap--stack" role="region" aria-label={t("tableLabel")} tabIndex={0}>
            <table className="data data--stack">
              <thead>
                <tr>
                  <th scope="col">{cols.question}</th>
                  <th scope="col">{cols.type}</th>
                  <th scope="col" className="num">
                    {cols.points}
                  </th>
                  <th scope="col">{cols.progress}</th>
                  <th scope="col">{cols.actions}</th>
                </tr>
              </thead>
              <tbody>
                {overview.questions.map((question) => (
                  <tr key={question.id}>
                    <th scope="row" className={styles.questionCell}>
                      <span className={styles.position}>{t("questionNumber", { position: question.position })}</span>
                      <span className={styles.prompt}>{question.prompt}</span>
                    </th>
                    <td data-label={cols.type}>
                      {tTypes.has(question.type as "essay") ? tTypes(question.type as "essay") : question.type}
                    </td>
                    <td data-label={cols.points} className="num">
                      {number(question.points)}
                    </td>
                    <td data-label={cols.progress}>{progress(question)}</td>
                    <td data-label={cols.actions}>{actions(question)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </main>
    </>
  );
}
