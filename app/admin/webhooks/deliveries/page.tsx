import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";

import { DeliveryList, type DeliveryFilters } from "@/components/admin/webhooks/delivery-list";
import { ClientMessages } from "@/components/i18n/client-messages";
import { TimeZoneNote } from "@/components/i18n/time-zone-note";
import { QueryProvider } from "@/components/proctor/query-provider";
import { StaffHeader } from "@/components/staff-header";
import { requireStaff } from "@/lib/server/auth/current-principal";
import { UuidSchema } from "@/lib/shared/schemas/attempts";
import { DELIVERY_STATUSES, type DeliveryStatus } from "@/lib/shared/schemas/webhooks";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("webhooks.deliveries");
  return { title: t("metaTitle") };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** One value of the address's query, or undefined when absent, repeated or not what `isValid` accepts. */
function pick(value: string | string[] | undefined, isValid: (value: string) => boolean): string | undefined {
  return typeof value === "string" && isValid(value) ? value : undefined;
}

/**
 * Every webhook delivery for admins (docs/results.md, "Webhooks"), `?status=&endpointId=&examId=`: a filter the
 * page does not understand is left out rather than refused, so an old link still opens the list.
 */
export default async function WebhookDeliveriesPage({ searchParams }: Props) {
  const query = await searchParams;
  const filters: DeliveryFilters = {
    status: pick(query.status, (value) => (DELIVERY_STATUSES as readonly string[]).includes(value)) as
      DeliveryStatus | undefined,
    endpointId: pick(query.endpointId, (value) => UuidSchema.safeParse(value).success),
    examId: pick(query.examId, (value) => UuidSchema.safeParse(value).success),
  };
  const staff = await requireStaff({ path: "/admin/webhooks/deliveries", role: "admin" });
  const t = await getTranslations("webhooks.deliveries");

  return (
    <>
      <StaffHeader staff={staff} current="deliveries" />
      <main className="page">
        {filters.examId ? (
          <p className="breadcrumb">
            <Link href={`/admin/exams/${filters.examId}/webhooks`}>{t("backToExam")}</Link>
          </p>
        ) : null}
        <h1>{t("title")}</h1>
        <p className="prose">{t("intro")}</p>
        <TimeZoneNote />
        <ClientMessages namespaces={["webhooks"]}>
          <QueryProvider>
            <DeliveryList filters={filters} />
          </QueryProvider>
        </ClientMessages>
      </main>
    </>
  );
}
