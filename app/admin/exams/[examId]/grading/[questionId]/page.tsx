import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";

import { GradingQueueView } from "@/components/admin/grading/grading-queue";
import { ResultsNav } from "@/components/admin/results-nav";
import { ClientMessages } from "@/components/i18n/client-messages";
import { readGradingQueue } from "@/lib/server/grading/grading-queue";
import { UuidSchema } from "@/lib/shared/schemas/attempts";
import { GradingQueueQuerySchema } from "@/lib/shared/schemas/grading";

import { requireStaffExam } from "../../staff-exam";

export const dynamic = "force-dynamic";

type Props = {
  params: Promise<{ examId: string; questionId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("grading.queue");
  return { title: t("metaTitle") };
}

/**
 * One question's grading queue for a marker (`?marker=first|second|final`, `&paper=<attemptId>` to open one
 * paper): blind, keyboard first, the revision check of every save shown, never silent.
 */
export default async function GradingQueuePage({ params, searchParams }: Props) {
  const { examId, questionId } = await params;
  const search = await searchParams;
  const { staff } = await requireStaffExam(examId, "grader");
  if (!UuidSchema.safeParse(questionId).success) notFound();
  const isAdmin = staff.role === "admin";
  const query = GradingQueueQuerySchema.safeParse({
    marker: typeof search.marker === "string" ? search.marker : undefined,
  });
  if (!query.success) notFound();
  // Settling (and seeing both markers' marks) is an admin's: a grader asking for it gets their own queue.
  if (query.data.marker === "final" && !isAdmin) {
    redirect(`/admin/exams/${encodeURIComponent(examId)}/grading/${encodeURIComponent(questionId)}?marker=first`);
  }
  const queue = await readGradingQueue({ examId, questionId, marker: query.data.marker });
  if (!queue) notFound();
  const paper = typeof search.paper === "string" && UuidSchema.safeParse(search.paper).success ? search.paper : null;
  const t = await getTranslations("grading.queue");
  const mode = !queue.secondMarking && queue.marker === "first" ? "single" : queue.marker;

  return (
    <>
      <main className="page">
        <p className="breadcrumb">
          <Link href={`/admin/exams/${examId}/grading`}>{t("backToOverview")}</Link>
        </p>
        <h1>{t("title", { position: queue.question.position, mode: t(`modes.${mode}`) })}</h1>
        {isAdmin ? <ResultsNav examId={examId} current="grading" /> : null}
        <ClientMessages namespaces={["grading"]}>
          <GradingQueueView key={`${questionId} ${queue.marker}`} examId={examId} initial={queue} startAt={paper} />
        </ClientMessages>
      </main>
    </>
  );
}
