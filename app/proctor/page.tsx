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
        <p>Open an exam to watch its candidates live: who is online, who has unsynced work, and who is at risk.</p>
        {exams.length === 0 ? (
          <p>No exams are assigned to you yet. An admin can assign you to an exam.</p>
        ) : (
          <ExamsTable exams={exams} linkTo="proctor" label={isAdmin ? "All exams" : "Your exams"} />
        )}
      </main>
    </>
  );
}
