import type { Metadata } from "next";
import { notFound } from "next/navigation";

import { ExamClient } from "@/components/exam/exam-client";
import { CandidateHeader } from "@/components/site-header";
import { findAttemptView } from "@/lib/server/attempts/attempt-view";
import { currentCandidate } from "@/lib/server/auth/current-principal";
import { UuidSchema } from "@/lib/shared/schemas/attempts";

export const metadata: Metadata = { title: "Exam" };

type Props = { params: Promise<{ attemptId: string }> };

export default async function AttemptPage({ params }: Props) {
  const { attemptId } = await params;
  const candidate = await currentCandidate();
  if (!candidate || !UuidSchema.safeParse(attemptId).success) notFound();
  // Scoped to this session's enrollment: another candidate's attempt id is simply not found.
  const view = await findAttemptView({ attemptId, enrollmentId: candidate.enrollmentId });
  if (!view) notFound();

  return (
    <>
      <CandidateHeader name={candidate.name} />
      <ExamClient initialView={view} />
    </>
  );
}
