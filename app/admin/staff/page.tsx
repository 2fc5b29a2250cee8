import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";

import { StaffManager } from "@/components/admin/staff-manager";
import { ClientMessages } from "@/components/i18n/client-messages";
import { StaffHeader } from "@/components/staff-header";
import { requireStaff } from "@/lib/server/auth/current-principal";
import { listStaffUsers } from "@/lib/server/staff/list-staff-users";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("account.staff");
  return { title: t("title") };
}

/** Admins manage staff accounts here: add, disable or enable, reset a password. */
export default async function StaffPage() {
  const staff = await requireStaff({ path: "/admin/staff", role: "admin" });
  const [accounts, t] = await Promise.all([listStaffUsers(), getTranslations("account.staff")]);

  return (
    <>
      <StaffHeader staff={staff} current="staff" />
      <main className="page">
        <h1>{t("title")}</h1>
        <p className="muted">{t("intro")}</p>
        <ClientMessages namespaces={["account"]}>
          <StaffManager accounts={accounts} selfId={staff.userId} />
        </ClientMessages>
      </main>
    </>
  );
}
