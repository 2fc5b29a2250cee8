import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";

import { ExamsTable } from "@/components/exams-table";
import { TimeZoneNote } from "@/components/i18n/time-zone-note";
import { StaffHeader } from "@/components/staff-header";
import { requireStaff } from "@/lib/server/auth/current-principal";
import { listExams } from "@/lib/server/exams/list-exams";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("staff.gradingList");
  return { title: t("metaTitle") };
}

/** A grader's home: the exams they are assigned to mark (an admin sees every exam), each to its grading page. */
export default async function GradingPage() {
  const staff = await requireStaff({ path: "/grading", role: "grader" });
  const [exams, t] = await Promise.all([listExams({ staff }), getTranslations("staff.gradingList")]);
  const title = staff.role === "admin" ? t("titleAdmin") : t("titleGrader");

  return (
    <>
      <StaffHeader staff={staff} current="grading" />
      <main className="page">
        <h1>{title}</h1>
        <p>{t("intro")}</p>
        {exams.length === 0 ? (
          <p>{t("empty")}</p>
        ) : (
          <>
            <TimeZoneNote />
            <ExamsTable exams={exams} linkTo="grading" label={title} />
          </>
        )}
      </main>
    </>
  );
}
