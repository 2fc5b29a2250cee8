import type { Metadata } from "next";
import Link from "next/link";
import { getTimeZone, getTranslations } from "next-intl/server";

import { AuditLog } from "@/components/admin/audit-log";
import { ClientMessages } from "@/components/i18n/client-messages";
import { TimeZoneNote } from "@/components/i18n/time-zone-note";
import { StaffHeader } from "@/components/staff-header";
import { listAuditEvents } from "@/lib/server/audit/list-audit-events";
import { requireStaff } from "@/lib/server/auth/current-principal";
import { listExams } from "@/lib/server/exams/list-exams";
import { listStaffUsers } from "@/lib/server/staff/list-staff-users";
import { AUDIT_ACTIONS } from "@/lib/shared/audit-actions";
import { auditApiQuery, readAuditPageFilters } from "@/lib/shared/audit-page-filters";
import { AUDIT_PAGE_DEFAULT, auditQueryInput, AuditQuerySchema } from "@/lib/shared/schemas/audit";

import styles from "./audit.module.css";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("audit");
  return { title: t("title") };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** Admins read who did what and when, filter it (the filters live in the URL), and download it as CSV. */
export default async function AuditPage({ searchParams }: Props) {
  const staff = await requireStaff({ path: "/admin/audit", role: "admin" });
  const filters = readAuditPageFilters(await searchParams);
  const timeZone = (await getTimeZone()) ?? "UTC";
  const apiQuery = auditApiQuery(filters, timeZone);
  const parsed = apiQuery ? AuditQuerySchema.safeParse(auditQueryInput(apiQuery)) : null;
  const [t, tKinds, exams, people] = await Promise.all([
    getTranslations("audit"),
    getTranslations("audit.kinds"),
    listExams({ staff }),
    listStaffUsers(),
  ]);
  const page = parsed?.success ? await listAuditEvents({ query: parsed.data, limit: AUDIT_PAGE_DEFAULT }) : null;
  const csvQuery = new URLSearchParams(apiQuery ?? undefined);
  csvQuery.set("format", "csv");

  return (
    <>
      <StaffHeader staff={staff} current="audit" />
      <main className="page">
        <h1>{t("title")}</h1>
        <p className="muted">{t("intro")}</p>

        <form className={styles.filters} method="get" action="/admin/audit">
          <fieldset>
            <legend>{t("filters.legend")}</legend>
            <div className="field">
              <label htmlFor="audit-exam">{t("filters.exam")}</label>
              <select id="audit-exam" name="examId" defaultValue={filters.examId}>
                <option value="">{t("filters.anyExam")}</option>
                {filters.examId && !exams.some((exam) => exam.id === filters.examId) ? (
                  // A deleted exam (or an id typed into the URL): its log is still shown, under its id.
                  <option value={filters.examId}>{page?.entries[0]?.examTitle ?? filters.examId}</option>
                ) : null}
                {exams.map((exam) => (
                  <option key={exam.id} value={exam.id}>
                    {exam.title}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor="audit-person">{t("filters.person")}</label>
              <select id="audit-person" name="actorId" defaultValue={filters.actorId}>
                <option value="">{t("filters.anyone")}</option>
                {filters.actorId && !people.some((person) => person.id === filters.actorId) ? (
                  // A candidate, or a deleted account: the API filters by any actor's id.
                  <option value={filters.actorId}>{page?.entries[0]?.actor.name ?? filters.actorId}</option>
                ) : null}
                {people.map((person) => (
                  <option key={person.id} value={person.id}>
                    {person.name} ({person.email})
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor="audit-kind">{t("filters.kind")}</label>
              <select id="audit-kind" name="action" defaultValue={filters.action}>
                <option value="">{t("filters.anyKind")}</option>
                {AUDIT_ACTIONS.map((action) => (
                  <option key={action} value={action}>
                    {tKinds(action)}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor="audit-from">{t("filters.from")}</label>
              <input id="audit-from" name="from" type="date" defaultValue={filters.from} />
            </div>
            <div className="field">
              <label htmlFor="audit-to">{t("filters.to")}</label>
              <input id="audit-to" name="to" type="date" defaultValue={filters.to} />
            </div>
            <div className={styles.actions}>
              <button type="submit" className="button button--primary">
                {t("filters.apply")}
              </button>
              <Link href="/admin/audit">{t("filters.clear")}</Link>
            </div>
          </fieldset>
        </form>

        {page === null ? (
          <p className="notice notice--warn" role="alert">
            {t("filters.invalid")}
          </p>
        ) : (
          <>
            <p className={styles.download}>
              <a className="button" href={`/api/admin/audit?${csvQuery.toString()}`} download>
                {t("download")}
              </a>{" "}
              <span className="muted">{t("downloadNote")}</span>
            </p>
            <TimeZoneNote />
            <ClientMessages namespaces={["audit"]}>
              <AuditLog key={apiQuery?.toString() ?? ""} initial={page} apiQuery={apiQuery?.toString() ?? ""} />
            </ClientMessages>
          </>
        )}
      </main>
    </>
  );
}
