import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";

import { LateAnswerList } from "@/components/admin/late-answers/late-answer-list";
import { ResultsNav } from "@/components/admin/results-nav";
import { ClientMessages } from "@/components/i18n/client-messages";
import { TimeZoneNote } from "@/components/i18n/time-zone-note";
import { findLateAnswersPage } from "@/lib/server/results/find-late-answers-page";

import { requireStaffExam } from "../staff-exam";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("lateAnswers");
  return { title: t("metaTitle") };
}

type Props = { params: Promise<{ examId: string }> };

/**
 * An exam's late answers for admins (docs/results.md, "Late answers"): by candidate, each beside the frozen answer
 * with the server's times, to accept into the result or reject with a reason.
 */
export default async function LateAnswersPage({ params }: Props) {
  const { examId } = await params;
  const { exam } = await requireStaffExam(examId, "admin");
  const [page, t] = await Promise.all([findLateAnswersPage({ examId }), getTranslations("lateAnswers")]);
  if (!page) notFound();
  const all = page.candidates.flatMap((candidate) => candidate.lateAnswers);
  const open = all.filter((late) => late.decision === null).length;

  return (
    <>
      <main className="page">
        <p className="breadcrumb">
          <Link href={`/admin/exams/${exam.id}`}>{t("backToExam")}</Link>
        </p>
        <h1>{t("title", { exam: exam.title })}</h1>
        <ResultsNav examId={exam.id} current="lateAnswers" />
        <p className="prose">{t("intro")}</p>
        {all.length > 0 ? (
          <>
            <p>{t("count", { count: all.length, open })}</p>
            <TimeZoneNote />
          </>
        ) : null}
        <ClientMessages namespaces={["lateAnswers", "errors"]}>
          <LateAnswerList examId={exam.id} candidates={page.candidates} questions={page.questions} />
        </ClientMessages>
      </main>
    </>
  );
}
