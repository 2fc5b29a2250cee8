import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";

import { ExamEditor } from "@/components/authoring/exam-editor";
import { ClientMessages } from "@/components/i18n/client-messages";
import { findAdminExam } from "@/lib/server/exams/find-admin-exam";
import { listExamEdits } from "@/lib/server/exams/list-exam-edits";

import { requireStaffExam } from "../staff-exam";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("authoring.editor");
  return { title: t("metaTitle") };
}

type Props = { params: Promise<{ examId: string }> };

export default async function EditExamPage({ params }: Props) {
  const { examId } = await params;
  await requireStaffExam(examId, "admin");
  const [exam, edits] = await Promise.all([findAdminExam({ examId }), listExamEdits({ examId })]);
  if (!exam) notFound();
  const t = await getTranslations("authoring.editor");

  return (
    <>
      <main className="page">
        <p className="breadcrumb">
          <Link href={`/admin/exams/${exam.id}`}>{exam.title}</Link>
        </p>
        <h1>{t("heading", { title: exam.title })}</h1>
        <ClientMessages namespaces={["authoring", "exam"]}>
          <ExamEditor exam={exam} edits={edits} />
        </ClientMessages>
      </main>
    </>
  );
}
