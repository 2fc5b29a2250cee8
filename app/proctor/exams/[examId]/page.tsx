import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";

import { ClientMessages } from "@/components/i18n/client-messages";
import { ProctorDashboard } from "@/components/proctor/proctor-dashboard";
import { QueryProvider } from "@/components/proctor/query-provider";
import { StaffHeader } from "@/components/staff-header";
import { requireStaff } from "@/lib/server/auth/current-principal";
import { findWatchedExam } from "@/lib/server/proctor/find-watched-exam";
import { UuidSchema } from "@/lib/shared/schemas/attempts";

import styles from "./page.module.css";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("proctor");
  return { title: t("metaTitle") };
}

type Props = { params: Promise<{ examId: string }> };

/**
 * The live dashboard of one exam. The exam is read through `findWatchedExam`, whose query is the
 * authorization (the same rule as the proctor API's): an exam this proctor is not assigned to is the same
 * 404 as one that does not exist. It reads only the exam's id and title, whatever the number of candidates.
 * Everything live is fetched by the client (snapshot, events stream, health), whose words come with the
 * `proctor` messages only.
 */
export default async function ProctorExamPage({ params }: Props) {
  const { examId } = await params;
  const staff = await requireStaff({ path: `/proctor/exams/${encodeURIComponent(examId)}`, role: "proctor" });
  if (!UuidSchema.safeParse(examId).success) notFound();
  const exam = await findWatchedExam({ examId, principal: staff });
  if (!exam) notFound();
  const t = await getTranslations("staff.proctorList");

  return (
    <>
      <StaffHeader staff={staff} current="proctor" />
      <main className={`page ${styles.wide}`}>
        <p className="breadcrumb">
          <Link href="/proctor">{staff.role === "admin" ? t("titleAdmin") : t("titleProctor")}</Link>
        </p>
        <ClientMessages namespaces={["proctor"]}>
          <QueryProvider>
            <ProctorDashboard examId={exam.id} examTitle={exam.title} />
          </QueryProvider>
        </ClientMessages>
      </main>
    </>
  );
}
