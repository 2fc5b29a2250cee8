import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";

import { DeliveryDetail } from "@/components/admin/webhooks/delivery-detail";
import { ClientMessages } from "@/components/i18n/client-messages";
import { TimeZoneNote } from "@/components/i18n/time-zone-note";
import { QueryProvider } from "@/components/proctor/query-provider";
import { StaffHeader } from "@/components/staff-header";
import { requireStaff } from "@/lib/server/auth/current-principal";
import { DeliveryIdSchema } from "@/lib/shared/schemas/webhooks";

import styles from "@/components/admin/webhooks/webhooks.module.css";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("webhooks.detail");
  return { title: t("metaTitle") };
}

type Props = { params: Promise<{ deliveryId: string }> };

/**
 * One webhook delivery for admins (docs/results.md, "Webhooks"): its attempts and payload, Retry and Cancel. Read
 * by the page itself through the admin API, often while it is pending.
 */
export default async function WebhookDeliveryPage({ params }: Props) {
  const { deliveryId } = await params;
  const staff = await requireStaff({
    path: `/admin/webhooks/deliveries/${encodeURIComponent(deliveryId)}`,
    role: "admin",
  });
  if (!DeliveryIdSchema.safeParse(deliveryId).success) notFound();
  const t = await getTranslations("webhooks.detail");

  return (
    <>
      <StaffHeader staff={staff} current="deliveries" />
      <main className="page">
        <p className="breadcrumb">
          <Link href="/admin/webhooks/deliveries">{t("back")}</Link>
        </p>
        <h1 className={styles.title}>{t("title", { id: deliveryId })}</h1>
        <TimeZoneNote />
        <ClientMessages namespaces={["webhooks"]}>
          <QueryProvider>
            <DeliveryDetail deliveryId={deliveryId} />
          </QueryProvider>
        </ClientMessages>
      </main>
    </>
  );
}
