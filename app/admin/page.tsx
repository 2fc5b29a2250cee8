import type { Metadata } from "next";

import { ExamsTable } from "@/components/exams-table";
import { StaffHeader } from "@/components/site-header";
import { requireStaff } from "@/lib/server/auth/current-principal";
import { listExams } from "@/lib/server/exams/list-exams";

export const metadata: Metadata = { title: "Exams" };

export default async function AdminPage() {
  const staff = await requireStaff({ path: "/admin", role: "admin" });
  const exams = await listExams({ staff });

  return (
    <>
      <StaffHeader staff={staff} current="admin" />
      <main className="page">
        <h1>Exams</h1>
        {exams.length === 0 ? (
          <p className="notice">
            No exams yet. Create one with <code>POST /api/admin/exams</code>; it appears here at once.
          </p>
        ) : (
          <ExamsTable exams={exams} linkTo="admin" label="Exams" />
        )}
      </main>
    </>
  );
}
