import type { Metadata } from "next";

import { ExamsTable } from "@/components/exams-table";
import { StaffHeader } from "@/components/site-header";
import { requireStaff } from "@/lib/server/auth/current-principal";
import { listExams } from "@/lib/server/exams/list-exams";

export const metadata: Metadata = { title: "Proctoring" };

export default async function ProctorPage() {
  const staff = await requireStaff({ path: "/proctor", role: "any" });
  const exams = await listExams({ staff });
  const isAdmin = staff.role === "admin";

  return (
    <>
      <StaffHeader staff={staff} current="proctor" />
      <main className="page">
        <h1>{isAdmin ? "All exams" : "Your exams"}</h1>
        <p className="notice">
          The live proctoring dashboard arrives in a later release. For now this page lists{" "}
          {isAdmin ? "every exam (you are an admin)" : "the exams you are assigned to"}, with their counts.
        </p>
        {exams.length === 0 ? (
          <p>No exams are assigned to you yet. An admin can assign you to an exam.</p>
        ) : (
          <ExamsTable exams={exams} linkToDetail={isAdmin} label={isAdmin ? "All exams" : "Your exams"} />
        )}
      </main>
    </>
  );
}
