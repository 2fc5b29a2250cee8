import type { Metadata } from "next";
import Link from "next/link";
import { getTimeZone, getTranslations } from "next-intl/server";

import { AuditLog } from "@/components/admin/audit-log";
import { ClientMessages } from "@/components/i18n/client-messages";
import { TimeZoneNote } from "@/components/i18n/time-zone-note";
import { StaffHeader } from "@/components/staff-header";
import { Field, SelectField } from "@/components/ui/field";
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
            <SelectField
              id="audit-exam"
              label={t("filters.exam")}
              name="examId"
              defaultValue={filters.examId}
              options={[
                { value: "", label: t("filters.anyExam") },
                // A deleted exam (or an id typed into the URL): its log is still shown, under its id.
                ...(filters.examId && !exams.some((exam) => exam.id === filters.examId)
                  ? [{ value: filters.examId, label: page?.entries[0]?.examTitle ?? filters.examId }]
                  : []),
                ...exams.map((exam) => ({ value: exam.id, label: exam.title })),
              ]}
            />
            <SelectField
              id="audit-person"
              label={t("filters.person")}
              name="actorId"
              defaultValue={filters.actorId}
              options={[
                { value: "", label: t("filters.anyone") },
                // A candidate, or a deleted account: the API filters by any actor's id.
                ...(filters.actorId && !people.some((person) => person.id === filters.actorId)
                  ? [{ value: filters.actorId, label: page?.entries[0]?.actor.name ?? filters.actorId }]
                  : []),
                ...people.map((person) => ({ value: person.id, label: `${person.name} (${person.email})` })),
              ]}
            />
            <SelectField
              id="audit-kind"
              label={t("filters.kind")}
              name="action"
              defaultValue={filters.action}
              options={[
                { value: "", label: t("filters.anyKind") },
                ...AUDIT_ACTIONS.map((action) => ({ value: action, label: tKinds(action) })),
              ]}
            />
            <Field id="audit-from" label={t("filters.from")} name="from" type="date" defaultValue={filters.from} />
            <Field id="audit-to" label={t("filters.to")} name="to" type="date" defaultValue={filters.to} />
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
