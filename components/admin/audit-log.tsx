"use client";

import { useLocale, useTimeZone, useTranslations } from "next-intl";
import { useState } from "react";

import { callApi } from "@/lib/client/call-api";
import { useDescribeFailure } from "@/lib/client/i18n/use-describe-failure";
import { auditActorName, describeAuditEntry } from "@/lib/shared/describe-audit-entry";
import { formatInstant } from "@/lib/shared/format";
import { AuditPageSchema, type AuditPage } from "@/lib/shared/schemas/audit";

import styles from "./audit-log.module.css";

/**
 * The audit log's entries, newest first: a table on a laptop, a card per entry on a phone. "Load more" asks
 * the API for the page after the last one shown, with the same filters.
 */
export function AuditLog({ initial, apiQuery }: { initial: AuditPage; apiQuery: string }) {
  const t = useTranslations("audit");
  const tc = useTranslations("common");
  const locale = useLocale();
  const timeZone = useTimeZone() ?? "UTC";
  const describe = useDescribeFailure();
  const [entries, setEntries] = useState(initial.entries);
  const [nextCursor, setNextCursor] = useState(initial.nextCursor);
  const [isLoading, setIsLoading] = useState(false);
  const [error, setError] = useState("");

  async function onLoadMore() {
    if (!nextCursor) return;
    setIsLoading(true);
    setError("");
    const query = new URLSearchParams(apiQuery);
    query.set("cursor", nextCursor);
    const result = await callApi(`/api/admin/audit?${query}`, { cache: "no-store", schema: AuditPageSchema });
    setIsLoading(false);
    if (!result.ok) {
      setError(t("loadFailed", { message: describe(result.failure) }));
      return;
    }
    const page = result.body;
    setEntries((shown) => [...shown, ...page.entries]);
    setNextCursor(page.nextCursor);
  }

  if (entries.length === 0) return <p className="notice">{t("empty")}</p>;
  const cols = { when: t("columns.when"), who: t("columns.who"), exam: t("columns.exam") };
  return (
    <>
      <div className="table-wrap table-wrap--stack" role="region" aria-label={t("tableLabel")} tabIndex={0}>
        <table className="data data--stack">
          <thead>
            <tr>
              <th scope="col">{t("columns.what")}</th>
              <th scope="col">{cols.when}</th>
              <th scope="col">{cols.who}</th>
              <th scope="col">{cols.exam}</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.id}>
                <th scope="row">{describeAuditEntry(entry, t, tc, locale)}</th>
                <td data-label={cols.when} className={styles.when}>
                  <time dateTime={entry.at}>{formatInstant(entry.at, locale, timeZone)}</time>
                </td>
                <td data-label={cols.who}>
                  {auditActorName(entry, t)}
                  {entry.actor.email ? <span className={`muted ${styles.email}`}>{entry.actor.email}</span> : null}
                </td>
                <td data-label={cols.exam}>{entry.examTitle ?? ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="muted" role="status">
        {t("shown", { count: entries.length })}
        {nextCursor === null ? ` · ${t("end")}` : ""}
      </p>
      {nextCursor !== null ? (
        <p>
          <button type="button" className="button" onClick={() => void onLoadMore()} disabled={isLoading}>
            {isLoading ? t("loadingMore") : t("loadMore")}
          </button>
        </p>
      ) : null}
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
    </>
  );
}
