import { getTranslations } from "next-intl/server";

import { ClientMessages } from "@/components/i18n/client-messages";
import type { ExamStaffRole } from "@/lib/server/staff/assign-exam-staff";
import { listAssignableStaff, listExamStaff } from "@/lib/server/staff/exam-staff";

import { ExamStaffAssignments } from "@/components/admin/exam-staff-assignments";

/**
 * The "Proctors" or "Graders" section of the admin exam page (`role`): loads its own data, so the page only
 * places it.
 */
export async function ExamStaffSection({ examId, role }: { examId: string; role: ExamStaffRole }) {
  const [assigned, assignable, t] = await Promise.all([
    listExamStaff({ examId, role }),
    listAssignableStaff({ role }),
    getTranslations(role === "proctor" ? "account.proctors" : "account.graders"),
  ]);

  return (
    <section aria-labelledby={`${role}s-heading`}>
      <h2 id={`${role}s-heading`}>{t("heading")}</h2>
      <p className="muted">{t("intro")}</p>
      <ClientMessages namespaces={["account"]}>
        <ExamStaffAssignments role={role} examId={examId} assigned={assigned ?? []} assignable={assignable} />
      </ClientMessages>
    </section>
  );
}
