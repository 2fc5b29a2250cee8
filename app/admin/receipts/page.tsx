import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";

import { ReceiptVerifier } from "@/components/admin/receipts/receipt-verifier";
import { ClientMessages } from "@/components/i18n/client-messages";
import { TimeZoneNote } from "@/components/i18n/time-zone-note";
import { StaffHeader } from "@/components/staff-header";
import { requireStaff } from "@/lib/server/auth/current-principal";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("receipts");
  return { title: t("metaTitle") };
}

/** Admins check a candidate's receipt file (docs/results.md, "Receipt verifier"). */
export default async function ReceiptsPage() {
  const staff = await requireStaff({ path: "/admin/receipts", role: "admin" });
  const t = await getTranslations("receipts");
  return (
    <>
      <StaffHeader staff={staff} current="receipts" />
      <main className="page">
        <h1>{t("title")}</h1>
        <p className="prose">{t("intro")}</p>
        <TimeZoneNote />
        <ClientMessages namespaces={["receipts"]}>
          <ReceiptVerifier />
        </ClientMessages>
      </main>
    </>
  );
}
