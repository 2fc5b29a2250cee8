import { getTranslations } from "next-intl/server";

import { ClientMessages } from "@/components/i18n/client-messages";
import { listAssignableProctors, listExamProctors } from "@/lib/server/staff/exam-proctors";

import { ExamProctors } from "@/components/admin/exam-proctors";

/** The "Proctors" section of the admin exam page: loads its own data, so the page only places it. */
export async function ExamProctorsSection({ examId }: { examId: string }) {
  const [assigned, proctors, t] = await Promise.all([
    listExamProctors({ examId }),
    listAssignableProctors(),
    getTranslations("account.proctors"),
  ]);

  return (
    <section aria-labelledby="proctors-heading">
      <h2 id="proctors-heading">{t("heading")}</h2>
      <p className="muted">{t("intro")}</p>
      <ClientMessages namespaces={["account"]}>
        <ExamProctors examId={examId} assigned={assigned ?? []} assignable={proctors} />
      </ClientMessages>
    </section>
  );
}
