import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";

import { ClientMessages } from "@/components/i18n/client-messages";
import { PreExamCheck } from "@/components/pre-exam-check";
import { CandidateHeader } from "@/components/site-header";
import { currentCandidate } from "@/lib/server/auth/current-principal";
import { findExamForCandidate } from "@/lib/server/exams/find-exam-for-candidate";
import { UuidSchema } from "@/lib/shared/schemas/attempts";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("candidate.checkPage");
  return { title: t("pageTitle") };
}

type Props = { params: Promise<{ examId: string }> };

/** Before the exam: is this browser ready to keep answers, reach Holdfast, and reload offline? */
export default async function PreExamCheckPage({ params }: Props) {
  const { examId } = await params;
  const candidate = await currentCandidate();
  if (!candidate || !UuidSchema.safeParse(examId).success) notFound();
  // Same scope as the start page: another candidate's exam id is simply not found.
  const exam = await findExamForCandidate({ examId, candidate });
  if (!exam) notFound();
  const t = await getTranslations("candidate.checkPage");

  return (
    <ClientMessages namespaces={["candidate"]}>
      <CandidateHeader name={candidate.name} />
      <main className="page page--reading">
        <p className="breadcrumb">
          <Link href={`/exam/${exam.id}`}>{t("back", { title: exam.title })}</Link>
        </p>
        <p className="eyebrow">{t("eyebrow")}</p>
        <h1>{t("title")}</h1>
        <p className="muted">{t("intro")}</p>
        <PreExamCheck examHref={`/exam/${exam.id}`} />
      </main>
    </ClientMessages>
  );
}
