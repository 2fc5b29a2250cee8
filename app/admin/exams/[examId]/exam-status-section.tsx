import { ExamLifecycleControl } from "@/components/authoring/exam-lifecycle-control";
import { ClientMessages } from "@/components/i18n/client-messages";
import { findAdminExam } from "@/lib/server/exams/find-admin-exam";

/**
 * The exam overview's "Status and actions" block (server component): reads the exam's revision itself, so the
 * overview page only places it.
 */
export async function ExamStatusSection({ examId }: { examId: string }) {
  const exam = await findAdminExam({ examId });
  if (!exam) return null;
  return (
    <ClientMessages namespaces={["authoring"]}>
      <ExamLifecycleControl
        examId={exam.id}
        title={exam.title}
        status={exam.status}
        revision={exam.revision}
        attemptCount={exam.attemptCount}
        showEditLink
      />
    </ClientMessages>
  );
}
