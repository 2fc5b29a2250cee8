"use client";

import { useRouter } from "next/navigation";
import { useLocale, useTimeZone, useTranslations } from "next-intl";
import { useDeferredValue, useState, type FormEvent } from "react";

import { useConfirm } from "@/components/confirm-dialog";
import { Field } from "@/components/ui/field";
import { FormError, FormStatus } from "@/components/ui/form-error";
import { useApiAction } from "@/components/ui/use-action";
import { callApi } from "@/lib/client/call-api";
import { useDescribeFailure } from "@/lib/client/i18n/use-describe-failure";
import { extraMinutesOf } from "@/lib/shared/enrollment-csv";
import { formatDuration, formatInstant, formatNumber } from "@/lib/shared/format";
import { LIMITS } from "@/lib/shared/limits";
import type { EnrolledCandidateListItem } from "@/lib/shared/schemas/enrollments";
import { CandidateExtraTimeSchema } from "@/lib/shared/schemas/responses/enrollments";

import styles from "./enrollment.module.css";
import { ReopenDialog } from "./reopen-dialog";

const MAX_MINUTES = Math.floor(LIMITS.maxExtraSeconds / 60);

/**
 * Whether the exam's submitted attempts can be reopened now (lib/server/attempts/find-reopen-window.ts), and if
 * not, why: the Reopen buttons are then disabled and say so.
 */
export type ReopenAvailability = { isOpen: true } | { isOpen: false; reason: "status" | "closed" };

/**
 * The enrolled candidates with a search box; per candidate: copy the join link, revoke it or issue a new
 * one (docs/admin-api.md, "Revoking a join link"), edit the extra time, which during the exam moves
 * the deadline, and reopen a submitted attempt (ADR 017). Every outcome is announced above the table (a refusal in a
 * FormError, a success in a status); the list is re-read from the server after.
 */
export function CandidateList({
  examId,
  candidates,
  reopenWindow,
}: {
  examId: string;
  candidates: EnrolledCandidateListItem[];
  reopenWindow: ReopenAvailability;
}) {
  const t = useTranslations("enrollment.list");
  const locale = useLocale();
  const [query, setQuery] = useState("");
  const [announcement, setAnnouncement] = useState<{ text: string; isError: boolean }>({ text: "", isError: false });
  const deferredQuery = useDeferredValue(query);
  const needle = deferredQuery.trim().toLowerCase();
  const shown =
    needle === ""
      ? candidates
      : candidates.filter(
          (candidate) =>
            candidate.name.toLowerCase().includes(needle) ||
            candidate.email.includes(needle) ||
            (candidate.externalId?.toLowerCase().includes(needle) ?? false),
        );
  const announce = (text: string, isError = false) => setAnnouncement({ text, isError });

  if (candidates.length === 0) return <p className="notice">{t("empty")}</p>;

  return (
    <>
      <Field
        id="candidate-search"
        className={styles.search}
        label={t("search")}
        type="search"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
      />
      <p className="muted" aria-live="polite">
        {needle === ""
          ? null
          : shown.length === 0
            ? t("noMatch", { query: deferredQuery.trim() })
            : t("shown", { shown: formatNumber(shown.length, locale), total: formatNumber(candidates.length, locale) })}
      </p>
      <FormError message={announcement.isError ? announcement.text : ""} />
      <FormStatus className={styles.statusOk} message={announcement.isError ? "" : announcement.text} />
      {!reopenWindow.isOpen && candidates.some((candidate) => candidate.attempt?.status === "submitted") ? (
        <p className="muted" id={REOPEN_CLOSED_ID}>
          {reopenWindow.reason === "status" ? t("reopenNotPublished") : t("reopenClosed")}
        </p>
      ) : null}
      {shown.length > 0 ? (
        <div className="table-wrap table-wrap--stack" role="region" aria-label={t("tableLabel")} tabIndex={0}>
          <table className="data data--stack">
            <thead>
              <tr>
                <th scope="col">{t("columns.name")}</th>
                <th scope="col">{t("columns.email")}</th>
                <th scope="col">{t("columns.externalId")}</th>
                <th scope="col">{t("columns.extraTime")}</th>
                <th scope="col">{t("columns.attempt")}</th>
                <th scope="col">{t("columns.joinLink")}</th>
                <th scope="col">{t("columns.actions")}</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((candidate) => (
                <CandidateRow
                  key={candidate.id}
                  examId={examId}
                  candidate={candidate}
                  announce={announce}
                  canReopen={reopenWindow.isOpen}
                />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </>
  );
}

const REOPEN_CLOSED_ID = "reopen-closed-note";

function CandidateRow({
  examId,
  candidate,
  announce,
  canReopen,
}: {
  examId: string;
  candidate: EnrolledCandidateListItem;
  announce: (text: string, isError?: boolean) => void;
  canReopen: boolean;
}) {
  const t = useTranslations("enrollment.list");
  const locale = useLocale();
  const timeZone = useTimeZone() ?? "UTC";
  const router = useRouter();
  const describeFailure = useDescribeFailure();
  const [isEditing, setIsEditing] = useState(false);
  const [minutes, setMinutes] = useState(String(extraMinutesOf(candidate.extraSeconds)));
  const [extraError, setExtraError] = useState("");
  // What this admin saved last: the page's copy of the row catches up only when router.refresh() lands.
  const [savedExtraSeconds, setSavedExtraSeconds] = useState(0);
  const [isReopening, setIsReopening] = useState(false);
  const { confirm, dialog } = useConfirm();
  const { name } = candidate;
  const link = candidate.joinLink;
  const hasStarted = candidate.attempt?.status === "in_progress";
  const base = `/api/admin/exams/${examId}/candidates/${candidate.id}`;
  const linkChange = useApiAction((action: "revoke" | "reissue") =>
    callApi(`${base}/join-link`, { method: "POST", json: { action } }),
  );
  const extraChange = useApiAction((extraSeconds: number) =>
    callApi(base, { method: "PATCH", json: { extraSeconds }, schema: CandidateExtraTimeSchema }),
  );
  const isPending = linkChange.isPending || extraChange.isPending;

  async function copy() {
    if (link.status !== "active") return;
    try {
      await navigator.clipboard.writeText(link.url);
      announce(t("copied", { name }));
    } catch {
      announce(t("copyFailed", { url: link.url }), true);
    }
  }

  async function changeLink(action: "revoke" | "reissue") {
    const isConfirmed = await confirm(
      action === "revoke"
        ? { title: t("confirmRevokeTitle", { name }), text: t("confirmRevoke"), confirmLabel: t("revoke") }
        : { title: t("confirmReissueTitle", { name }), text: t("confirmReissue"), confirmLabel: t("reissue") },
    );
    if (!isConfirmed) return;
    const response = await linkChange.run(action);
    if (!response.ok) {
      announce(describeFailure(response.failure), true);
      return;
    }
    announce(action === "revoke" ? t("revokedStatus", { name }) : t("reissuedStatus", { name }));
    router.refresh();
  }

  async function saveExtra(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = minutes.trim();
    if (!/^\d+$/.test(value) || Number(value) > MAX_MINUTES) {
      setExtraError(t("extraInvalid", { max: MAX_MINUTES }));
      return;
    }
    const extraSeconds = Number(value) * 60;
    // Once started, extra time only rises, so the larger of the two is the newest.
    if (hasStarted && extraSeconds < Math.max(candidate.extraSeconds, savedExtraSeconds)) {
      setExtraError(t("extraCannotLower", { name }));
      return;
    }
    setExtraError("");
    const response = await extraChange.run(extraSeconds);
    if (!response.ok) {
      const { failure } = response;
      // The server knows of a higher value (another admin raised it): say so beside the field, and show it.
      const isLowering =
        hasStarted &&
        failure.kind === "http" &&
        failure.code === "VALIDATION_FAILED" &&
        failure.issues.some((issue) => issue.path === "extraSeconds");
      if (isLowering) {
        extraChange.reset();
        setExtraError(t("extraCannotLower", { name }));
        router.refresh();
      }
      return;
    }
    setSavedExtraSeconds(extraSeconds);
    const { deadline } = response.body;
    announce(
      deadline
        ? `${t("extraSaved", { name, minutes: Number(value) })} ${t("deadlineMoved", { name, time: formatInstant(deadline, locale, timeZone) })}`
        : t("extraSaved", { name, minutes: Number(value) }),
    );
    setIsEditing(false);
    router.refresh();
  }

  const extraId = `extra-${candidate.id}`;
  return (
    <tr>
      <th scope="row" className="name-cell">
        {name}
      </th>
      <td data-label={t("columns.email")} className="email-cell">
        {candidate.email}
      </td>
      <td data-label={t("columns.externalId")}>
        {candidate.externalId ?? <span className="muted">{t("noExternalId")}</span>}
      </td>
      <td data-label={t("columns.extraTime")}>
        {isEditing ? (
          <form className={styles.extraForm} onSubmit={saveExtra} noValidate>
            {/* The field's box is left out of the layout: its input, hint and error line up with the buttons. */}
            <Field
              id={extraId}
              className={styles.extraField}
              label={t("extraMinutesFor", { name })}
              hint={!extraError && hasStarted ? t("extraHintStarted") : null}
              error={extraError}
              isInvalid={extraChange.error !== ""}
              describedBy={extraChange.error !== "" ? `${extraId}-refused` : undefined}
              inputMode="numeric"
              value={minutes}
              autoFocus
              onChange={(event) => setMinutes(event.target.value)}
            />
            <button className="button button--quiet" type="submit" disabled={isPending}>
              {isPending ? t("saving") : t("save")}
            </button>
            <button
              className="button button--quiet"
              type="button"
              onClick={() => {
                extraChange.reset();
                setIsEditing(false);
              }}
            >
              {t("cancel")}
            </button>
            <FormError id={`${extraId}-refused`} className={styles.extraRefused} message={extraChange.error} />
          </form>
        ) : (
          <>
            {candidate.extraSeconds > 0 ? formatDuration(candidate.extraSeconds, locale) : t("noExtraTime")}{" "}
            {candidate.attempt?.status !== "submitted" ? (
              <button
                className={`link-button ${styles.editExtra}`}
                type="button"
                aria-label={t("editExtraFor", { name })}
                onClick={() => {
                  setMinutes(String(extraMinutesOf(candidate.extraSeconds)));
                  setExtraError("");
                  extraChange.reset();
                  setIsEditing(true);
                }}
              >
                {t("editExtra")}
              </button>
            ) : null}
          </>
        )}
      </td>
      <td data-label={t("columns.attempt")}>
        <AttemptCell attempt={candidate.attempt} />
      </td>
      <td data-label={t("columns.joinLink")} className="join-cell">
        {link.status === "active" ? (
          <code className={styles.url}>{link.url}</code>
        ) : (
          <span className="muted">{t("linkRevoked")}</span>
        )}
      </td>
      <td data-label={t("columns.actions")}>
        <div className={styles.rowActions}>
          {link.status === "active" ? (
            <>
              <button className="button button--quiet" type="button" onClick={copy} aria-label={t("copyFor", { name })}>
                {t("copy")}
              </button>
              <button
                className="button button--quiet"
                type="button"
                disabled={isPending}
                onClick={() => changeLink("revoke")}
                aria-label={t("revokeFor", { name })}
              >
                {t("revoke")}
              </button>
            </>
          ) : null}
          <button
            className="button button--quiet"
            type="button"
            disabled={isPending}
            onClick={() => changeLink("reissue")}
            aria-label={t("reissueFor", { name })}
          >
            {t("reissue")}
          </button>
          {candidate.attempt?.status === "submitted" ? (
            <button
              className="button button--quiet"
              type="button"
              disabled={!canReopen}
              aria-describedby={canReopen ? undefined : REOPEN_CLOSED_ID}
              onClick={() => setIsReopening(true)}
              aria-label={t("reopenFor", { name })}
            >
              {t("reopen")}
            </button>
          ) : null}
        </div>
        {dialog}
        {isReopening && candidate.attempt ? (
          <ReopenDialog
            attemptId={candidate.attempt.id}
            name={name}
            version={candidate.attempt.submissionVersion ?? 1}
            onClose={(response) => {
              setIsReopening(false);
              if (!response) return;
              announce(t("reopenedStatus", { name, time: formatInstant(response.deadline, locale, timeZone) }));
              router.refresh();
            }}
          />
        ) : null}
      </td>
    </tr>
  );
}

/** The attempt's state; after a reopening, which submission it is at (ADR 017). */
function AttemptCell({ attempt }: { attempt: EnrolledCandidateListItem["attempt"] }) {
  const t = useTranslations("enrollment.list");
  const locale = useLocale();
  const timeZone = useTimeZone() ?? "UTC";
  if (!attempt) return t("notStarted");
  if (attempt.status === "in_progress") {
    const time = formatInstant(attempt.deadline, locale, timeZone);
    return attempt.reopenings > 0
      ? t("reopenedInProgress", { time, version: attempt.reopenings + 1 })
      : t("inProgress", { time });
  }
  const time = formatInstant(attempt.submittedAt ?? attempt.deadline, locale, timeZone);
  const version = attempt.submissionVersion ?? 1;
  return version > 1 ? t("submittedVersion", { time, version }) : t("submitted", { time });
}
