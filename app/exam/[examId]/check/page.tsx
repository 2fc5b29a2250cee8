import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";

import { PreExamCheck } from "@/components/pre-exam-check";
import { CandidateHeader } from "@/components/site-header";
import { currentCandidate } from "@/lib/server/auth/current-principal";
import { findExamForCandidate } from "@/lib/server/exams/find-exam-for-candidate";
import { UuidSchema } from "@/lib/shared/schemas/attempts";

export const metadata: Metadata = { title: "Check this device" };

type Props = { params: Promise<{ examId: string }> };

/** Before the exam: is this browser ready to keep answers, reach Holdfast, and reload offline? */
export default async function PreExamCheckPage({ params }: Props) {
  const { examId } = await params;
  const candidate = await currentCandidate();
  if (!candidate || !UuidSchema.safeParse(examId).success) notFound();
  // Same scope as the start page: another candidate's exam id is simply not found.
  const exam = await findExamForCandidate({ examId, candidate });
  if (!exam) notFound();

  return (
    <>
      <CandidateHeader name={candidate.name} />
      <main className="page page--reading">
        <p className="breadcrumb">
          <Link href={`/exam/${exam.id}`}>Back to {exam.title}</Link>
        </p>
        <p className="eyebrow">Before you start</p>
        <h1>Check this device</h1>
        <p className="muted">
          A few seconds of checks, run in this browser. They change nothing and you can run them as often as you like.
        </p>
        <PreExamCheck examHref={`/exam/${exam.id}`} />
      </main>
    </>
  );
}
