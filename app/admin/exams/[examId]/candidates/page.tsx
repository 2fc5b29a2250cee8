import type { Metadata } from "next";
import Link from "next/link";
import { getLocale, getTranslations } from "next-intl/server";

import { AddCandidateForm } from "@/components/admin/enrollment/add-candidate-form";
import { CandidateList } from "@/components/admin/enrollment/candidate-list";
import { CsvImport } from "@/components/admin/enrollment/csv-import";
import styles from "@/components/admin/enrollment/enrollment.module.css";
import { ClientMessages } from "@/components/i18n/client-messages";
import { TimeZoneNote } from "@/components/i18n/time-zone-note";
import { findReopenWindow } from "@/lib/server/attempts/find-reopen-window";
import { listCandidates } from "@/lib/server/enrollments/list-candidates";
import { asAppLocale } from "@/lib/shared/i18n/locales";

import { requireStaffExam } from "../staff-exam";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("enrollment.page");
  return { title: t("metaTitle") };
}

type Props = { params: Promise<{ examId: string }> };

/**
 * An exam's candidates for admins: add one, import a CSV, and each candidate's link and extra time; a
 * submitted attempt can be reopened while the exam's window is open.
 */
export default async function ExamCandidatesPage({ params }: Props) {
  const { examId } = await params;
  const { exam } = await requireStaffExam(examId, "admin");
  const locale = asAppLocale(await getLocale());
  const [candidates, reopenWindow, t, ta, tc, tl] = await Promise.all([
    listCandidates({ examId, locale }),
    findReopenWindow({ examId }),
    getTranslations("enrollment.page"),
    getTranslations("enrollment.add"),
    getTranslations("enrollment.csv"),
    getTranslations("enrollment.list"),
  ]);

  return (
    <>
      <main className="page">
        <p className="breadcrumb">
          <Link href={`/admin/exams/${exam.id}`}>{t("backToExam")}</Link>
        </p>
        <h1>{t("titleFor", { exam: exam.title })}</h1>
        <p>{t("count", { count: candidates.length })}</p>
        <p className={styles.links}>
          <a href={`/api/admin/exams/${exam.id}/candidates/join-links.csv`} download>
            {t("exportCsv")}
          </a>
          <Link href={`/admin/exams/${exam.id}/candidates/slips`}>{t("slips")}</Link>
        </p>
        <ClientMessages namespaces={["enrollment"]}>
          <div className={styles.sections}>
            <section className={styles.panel} aria-labelledby="add-candidate-heading">
              <h2 id="add-candidate-heading">{ta("title")}</h2>
              <AddCandidateForm
                examId={exam.id}
                enrolled={candidates.map((candidate) => ({
                  email: candidate.email,
                  name: candidate.name,
                  externalId: candidate.externalId,
                }))}
              />
            </section>
            <section className={styles.panel} aria-labelledby="csv-import-heading">
              <h2 id="csv-import-heading">{tc("title")}</h2>
              <p className="muted">{tc.rich("intro", { code: (chunks) => <code>{chunks}</code> })}</p>
              <CsvImport examId={exam.id} />
            </section>
            <section aria-labelledby="enrolled-heading">
              <h2 id="enrolled-heading">{tl("title")}</h2>
              <TimeZoneNote />
              <CandidateList
                examId={exam.id}
                candidates={candidates}
                reopenWindow={reopenWindow.isOpen ? reopenWindow : { isOpen: false, reason: reopenWindow.reason }}
              />
            </section>
          </div>
        </ClientMessages>
      </main>
    </>
  );
}
