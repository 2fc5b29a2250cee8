import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";

import { ExamsTable } from "@/components/exams-table";
import { TimeZoneNote } from "@/components/i18n/time-zone-note";
import { StaffHeader } from "@/components/staff-header";
import { requireStaff } from "@/lib/server/auth/current-principal";
import { listExams } from "@/lib/server/exams/list-exams";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("staff.proctorList");
  return { title: t("metaTitle") };
}

export default async function ProctorPage() {
  const staff = await requireStaff({ path: "/proctor", role: "proctor" });
  const [exams, t] = await Promise.all([listExams({ staff }), getTranslations("staff.proctorList")]);
  const title = staff.role === "admin" ? t("titleAdmin") : t("titleProctor");

  return (
    <>
      <StaffHeader staff={staff} current="proctor" />
      <main className="page">
        <h1>{title}</h1>
        <p>{t("intro")}</p>
        {exams.length === 0 ? (
          <p>{t("empty")}</p>
        ) : (
          <>
            <TimeZoneNote />
            <ExamsTable exams={exams} linkTo="proctor" label={title} />
          </>
        )}
      </main>
    </>
  );
}
