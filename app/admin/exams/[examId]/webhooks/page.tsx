import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";

import { ResultsNav } from "@/components/admin/results-nav";
import { WebhookEndpoints } from "@/components/admin/webhooks/webhook-endpoints";
import { ClientMessages } from "@/components/i18n/client-messages";
import { TimeZoneNote } from "@/components/i18n/time-zone-note";
import { QueryProvider } from "@/components/proctor/query-provider";

import { requireStaffExam } from "../staff-exam";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("webhooks.endpoints");
  return { title: t("metaTitle") };
}

type Props = { params: Promise<{ examId: string }> };

/**
 * An exam's webhook endpoints for admins (docs/results.md, "Webhooks"): where its results are delivered, how each
 * receiver is doing, and the actions on each. The list is read by the page itself through the admin API, and
 * again every few seconds.
 */
export default async function ExamWebhooksPage({ params }: Props) {
  const { examId } = await params;
  const [{ exam }, t] = await Promise.all([requireStaffExam(examId, "admin"), getTranslations("webhooks.endpoints")]);

  return (
    <>
      <main className="page">
        <p className="breadcrumb">
          <Link href={`/admin/exams/${exam.id}`}>{t("backToExam")}</Link>
        </p>
        <h1>{t("title", { exam: exam.title })}</h1>
        <ResultsNav examId={exam.id} current="webhooks" />
        <p className="prose">{t("intro")}</p>
        <TimeZoneNote />
        <ClientMessages namespaces={["webhooks"]}>
          <QueryProvider>
            <WebhookEndpoints examId={exam.id} />
          </QueryProvider>
        </ClientMessages>
      </main>
    </>
  );
}
