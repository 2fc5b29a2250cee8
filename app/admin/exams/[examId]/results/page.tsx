import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getLocale, getTranslations } from "next-intl/server";

import { ResultsNav } from "@/components/admin/results-nav";
import { ResultsDashboard } from "@/components/admin/results/results-dashboard";
import { ClientMessages } from "@/components/i18n/client-messages";
import { TimeZoneNote } from "@/components/i18n/time-zone-note";
import { QueryProvider } from "@/components/proctor/query-provider";
import { listExamResults } from "@/lib/server/results/list-exam-results";
import { readExamStatistics } from "@/lib/server/results/read-exam-statistics";
import { asAppLocale } from "@/lib/shared/i18n/locales";

import { requireStaffExam } from "../staff-exam";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("statistics.page");
  return { title: t("metaTitle") };
}

type Props = { params: Promise<{ examId: string }> };

/**
 * An exam's results for admins (issue 15): the release, regrading, downloads, statistics with charts and each
 * candidate's result. The figures are read here first and then by the page itself every few seconds.
 */
export default async function ExamResultsPage({ params }: Props) {
  const { examId } = await params;
  const { exam } = await requireStaffExam(examId, "admin");
  const locale = asAppLocale(await getLocale());
  const [statistics, results, t] = await Promise.all([
    readExamStatistics(examId),
    listExamResults(examId, locale),
    getTranslations("statistics.page"),
  ]);
  if (!statistics || !results) notFound();

  return (
    <>
      <main className="page">
        <p className="breadcrumb">
          <Link href={`/admin/exams/${exam.id}`}>{t("backToExam")}</Link>
        </p>
        <h1>{t("titleFor", { exam: exam.title })}</h1>
        <ResultsNav examId={exam.id} current="results" />
        <TimeZoneNote />
        <ClientMessages namespaces={["statistics"]}>
          <QueryProvider>
            <ResultsDashboard examId={exam.id} initialStatistics={statistics} initialResults={results} />
          </QueryProvider>
        </ClientMessages>
      </main>
    </>
  );
}
