import type { Metadata } from "next";
import Link from "next/link";
import { getLocale, getTranslations } from "next-intl/server";

import { PrintButton } from "@/components/admin/enrollment/print-button";
import styles from "@/components/admin/enrollment/slips.module.css";
import { listCandidates } from "@/lib/server/enrollments/list-candidates";
import { renderJoinQr } from "@/lib/server/enrollments/render-join-qr";
import { asAppLocale } from "@/lib/shared/i18n/locales";

import { requireStaffExam } from "../../staff-exam";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("enrollment.slips");
  return { title: t("metaTitle") };
}

type Props = { params: Promise<{ examId: string }> };

/** One printable slip per candidate with an active join link: name, exam, link and its QR code. */
export default async function JoinSlipsPage({ params }: Props) {
  const { examId } = await params;
  const { exam } = await requireStaffExam(examId, "admin");
  const locale = asAppLocale(await getLocale());
  const [candidates, t, tp] = await Promise.all([
    listCandidates({ examId, locale }),
    getTranslations("enrollment.slips"),
    getTranslations("enrollment.page"),
  ]);
  const printable = candidates.flatMap((candidate) =>
    candidate.joinLink.status === "active" ? [{ ...candidate, url: candidate.joinLink.url }] : [],
  );
  const slips = await Promise.all(
    printable.map(async (candidate) => ({ ...candidate, qr: await renderJoinQr(candidate.url) })),
  );
  const skipped = candidates.length - printable.length;

  return (
    <>
      <main className="page">
        <div className={styles.toolbar}>
          <p className="breadcrumb">
            <Link href={`/admin/exams/${exam.id}/candidates`}>{tp("title")}</Link>
          </p>
        </div>
        <h1 className={styles.screenOnly}>{t("titleFor", { exam: exam.title })}</h1>
        <div className={styles.toolbar}>
          <p className="muted">{t("intro")}</p>
          {slips.length > 0 ? <PrintButton label={t("print")} /> : null}
        </div>
        {skipped > 0 ? (
          <p className={`notice notice--warn ${styles.screenOnly}`}>{t("skipped", { count: skipped })}</p>
        ) : null}
        {slips.length === 0 ? (
          <p className="notice">{t("none")}</p>
        ) : (
          <ul className={styles.slips}>
            {slips.map((slip) => (
              <li key={slip.id} className={styles.slip}>
                <p className={styles.label}>{t("candidate")}</p>
                <p className={styles.name}>{slip.name}</p>
                {slip.externalId ? (
                  <p className={styles.externalId}>{t("externalId", { externalId: slip.externalId })}</p>
                ) : null}
                <p className={styles.label}>{t("exam")}</p>
                <p className={styles.exam}>{exam.title}</p>
                <div
                  className={styles.qr}
                  role="img"
                  aria-label={t("qrLabel", { name: slip.name })}
                  // The SVG is qrcode's own output for a URL we derived: no user text is in it.
                  dangerouslySetInnerHTML={{ __html: slip.qr }}
                />
                <p className={styles.url}>
                  {t("scan")} <span>{slip.url}</span>
                </p>
                <p className={styles.note}>{t("keepPrivate")}</p>
              </li>
            ))}
          </ul>
        )}
      </main>
    </>
  );
}
