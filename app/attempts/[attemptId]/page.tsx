import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";

import { ExamClient } from "@/components/exam/exam-client";
import { EXAM_MAIN_ID, questionHeadingId } from "@/components/exam/ids";
import { ClientMessages } from "@/components/i18n/client-messages";
import { CandidateHeader } from "@/components/site-header";
import { findAttemptView } from "@/lib/server/attempts/attempt-view";
import { currentCandidate } from "@/lib/server/auth/current-principal";
import { UuidSchema } from "@/lib/shared/schemas/attempts";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("exam");
  return { title: t("pageTitle") };
}

type Props = { params: Promise<{ attemptId: string }> };

/**
 * The exam page. Its client tree gets the `exam` namespace only (with common and errors); the messages travel
 * inside this page's HTML, which the service worker keeps, so an offline reload speaks the same language.
 */
export default async function AttemptPage({ params }: Props) {
  const { attemptId } = await params;
  const candidate = await currentCandidate();
  if (!candidate || !UuidSchema.safeParse(attemptId).success) notFound();
  // Scoped to this session's enrollment: another candidate's attempt id is simply not found.
  const view = await findAttemptView({ attemptId, enrollmentId: candidate.enrollmentId });
  if (!view) notFound();
  const t = await getTranslations("exam");
  const firstQuestion = view.status === "submitted" ? undefined : view.questions[0];

  return (
    <ClientMessages namespaces={["exam"]}>
      {/* First in the page, before the header: one Tab and Enter reach the paper. */}
      <a className="skip-link" href={`#${firstQuestion ? questionHeadingId(firstQuestion.id) : EXAM_MAIN_ID}`}>
        {firstQuestion ? t("skipToQuestions") : t("skipToContent")}
      </a>
      <CandidateHeader name={candidate.name} />
      <ExamClient initialView={view} candidateName={candidate.name} />
    </ClientMessages>
  );
}
