import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";

import { NewExamButton } from "@/components/authoring/new-exam-button";
import { ExamsTable } from "@/components/exams-table";
import { ClientMessages } from "@/components/i18n/client-messages";
import { TimeZoneNote } from "@/components/i18n/time-zone-note";
import { StaffHeader } from "@/components/staff-header";
import { requireStaff } from "@/lib/server/auth/current-principal";
import { listExams } from "@/lib/server/exams/list-exams";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("staff.admin");
  return { title: t("title") };
}

export default async function AdminPage() {
  const staff = await requireStaff({ path: "/admin", role: "admin" });
  const [exams, t] = await Promise.all([listExams({ staff }), getTranslations("staff.admin")]);

  return (
    <>
      <StaffHeader staff={staff} current="admin" />
      <main className="page">
        <h1>{t("title")}</h1>
        <ClientMessages namespaces={["authoring"]}>
          <NewExamButton />
        </ClientMessages>
        {exams.length === 0 ? (
          <p className="notice">{t.rich("empty", { code: (chunks) => <code>{chunks}</code> })}</p>
        ) : (
          <>
            <TimeZoneNote />
            <ExamsTable exams={exams} linkTo="admin" label={t("tableLabel")} />
          </>
        )}
      </main>
    </>
  );
}
