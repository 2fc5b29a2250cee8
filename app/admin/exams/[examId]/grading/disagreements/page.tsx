import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getLocale, getTranslations } from "next-intl/server";

import styles from "@/components/admin/grading/grading.module.css";
import { ResultsNav } from "@/components/admin/results-nav";
import { listDisagreements } from "@/lib/server/grading/list-disagreements";
import { formatNumber } from "@/lib/shared/format";
import type { GradeView } from "@/lib/shared/schemas/grading";

import { requireStaffExam } from "../../staff-exam";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("grading.disagreements");
  return { title: t("metaTitle") };
}

type Props = { params: Promise<{ examId: string }> };

/**
 * Double marks that differ and wait for an admin (issue 15, "Grading by people"): both marks side by side, each
 * linking to its question's queue in settling mode at that paper.
 */
export default async function GradingDisagreementsPage({ params }: Props) {
  const { examId } = await params;
  const { exam } = await requireStaffExam(examId, "admin");
  const list = await listDisagreements({ examId });
  if (!list) notFound();
  const [t, tOverview, tQueue, locale] = await Promise.all([
    getTranslations("grading.disagreements"),
    getTranslations("grading.overview"),
    getTranslations("grading.queue"),
    getLocale(),
  ]);
  const number = (value: number) => formatNumber(value, locale, 4);
  const cols = {
    question: t("columns.question"),
    candidate: t("columns.candidate"),
    first: t("columns.first"),
    second: t("columns.second"),
    action: t("columns.action"),
  };
  const mark = (grade: GradeView) => (
    <>
      <span>{tQueue("markBy", { points: number(grade.points), by: grade.by })}</span>
      <span className={`${styles.text} ${styles.block} muted`}>{grade.comment || tQueue("noComment")}</span>
    </>
  );

  return (
    <>
      <main className="page">
        <p className="breadcrumb">
          <Link href={`/admin/exams/${exam.id}/grading`}>{tQueue("backToOverview")}</Link>
        </p>
        <h1>{t("titleFor", { exam: exam.title })}</h1>
        <ResultsNav examId={exam.id} current="grading" />
        <p className="prose">{t("intro")}</p>
        {!list.secondMarking ? (
          <p className="notice">{t("off")}</p>
        ) : list.items.length === 0 ? (
          <p className="notice">{t("none")}</p>
        ) : (
          <div className="table-wrap table-wrap--stack" role="region" aria-label={t("tableLabel")} tabIndex={0}>
            <table className="data data--stack">
              <thead>
                <tr>
                  <th scope="col">{cols.question}</th>
                  <th scope="col">{cols.candidate}</th>
                  <th scope="col">{cols.first}</th>
                  <th scope="col">{cols.second}</th>
                  <th scope="col">{cols.action}</th>
                </tr>
              </thead>
              <tbody>
                {list.items.map((item) => (
                  <tr key={`${item.questionId} ${item.attemptId}`}>
                    <th scope="row" className={styles.questionCell}>
                      <span className={styles.position}>
                        {tOverview("questionNumber", { position: item.position })}
                      </span>
                      <span className={styles.prompt}>{item.prompt}</span>
                    </th>
                    <td data-label={cols.candidate}>
                      <span className={styles.code}>{item.candidateCode}</span>
                      {item.candidateName ? <span className={styles.block}>{item.candidateName}</span> : null}
                    </td>
                    <td data-label={cols.first}>{mark(item.first)}</td>
                    <td data-label={cols.second}>{mark(item.second)}</td>
                    <td data-label={cols.action}>
                      <Link
                        className="button button--quiet"
                        href={`/admin/exams/${exam.id}/grading/${item.questionId}?marker=final&paper=${item.attemptId}`}
                        aria-label={t("settleLabel", { position: item.position, code: item.candidateCode })}
                      >
                        {t("settle")}
                      </Link>
                    </td>
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
