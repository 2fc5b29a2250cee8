"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useId, useRef, useState, type FormEvent } from "react";

import { useDescribeFailure } from "@/lib/client/i18n/use-describe-failure";
import { failureOf, fetchAnnouncements, sendAnnouncement } from "@/lib/client/proctor/proctor-api";
import { proctorKeys } from "@/lib/client/proctor/query-keys";
import { useProctorWords } from "@/lib/client/proctor/use-proctor-words";
import { ANNOUNCEMENT_LIMITS } from "@/lib/shared/schemas/announcements";

import { TextAreaField } from "../ui/field";
import { FormError } from "../ui/form-error";
import { useApiAction } from "../ui/use-action";

import styles from "./announcements-panel.module.css";

/** A heal for a missed `announcements` event (the feed does not replay them): the counts catch up this often. */
const REFRESH_MS = 30_000;

/**
 * The dashboard's announcements: a message to every candidate, or to those selected in the table, sent after
 * a confirmation; then every announcement with its time, sender and "received by N of M candidates", which
 * the exam's event stream refreshes as devices acknowledge (use-exam-live.ts). One Idempotency-Key per
 * message and recipients, kept until it is sent, so a double click or a retry after a timeout sends it once.
 * Folded to one line until opened (how many were sent, and the latest), so with a full room the candidates'
 * table stays in view; it stays open while a message is being written or confirmed.
 */
export function AnnouncementsPanel({ examId, selectedIds }: { examId: string; selectedIds: readonly string[] }) {
  const t = useTranslations("proctor.announcements");
  const words = useProctorWords();
  const describeFailure = useDescribeFailure();
  const [message, setMessage] = useState("");
  const [audience, setAudience] = useState<"all" | "selected">("all");
  const [isConfirming, setIsConfirming] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  // The key of the last body tried: a retry of the same body reuses it (sent once even if the first try's
  // answer was lost), an edited body gets a new one (it is another announcement, not a reuse of the key).
  const lastTry = useRef<{ key: string; body: string } | null>(null);
  const [sentNote, setSentNote] = useState<string | null>(null);
  const [isOpen, setIsOpen] = useState(false);
  const ids = { title: useId(), message: useId(), error: useId() };

  const list = useQuery({
    queryKey: proctorKeys.announcements(examId),
    queryFn: () => fetchAnnouncements(examId),
    refetchInterval: REFRESH_MS,
  });
  const toSelected = audience === "selected" && selectedIds.length > 0;
  const queryClient = useQueryClient();
  const send = useApiAction(
    () => {
      const body = { message: message.trim(), ...(toSelected ? { enrollmentIds: [...selectedIds] } : {}) };
      const text = JSON.stringify(body);
      if (lastTry.current?.body !== text) lastTry.current = { key: crypto.randomUUID(), body: text };
      return sendAnnouncement(examId, body, lastTry.current.key);
    },
    {
      onSettled: () => queryClient.invalidateQueries({ queryKey: proctorKeys.announcements(examId) }),
      onSuccess: () => {
        setMessage("");
        setIsConfirming(false);
        lastTry.current = null;
        setSentNote(t("sent"));
      },
    },
  );

  const onCompose = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = message.trim();
    if (trimmed.length === 0) return setFormError(t("writeMessage"));
    if (trimmed.length > ANNOUNCEMENT_LIMITS.maxMessageLength)
      return setFormError(t("tooLong", { max: words.number(ANNOUNCEMENT_LIMITS.maxMessageLength) }));
    setFormError(null);
    setSentNote(null);
    send.reset();
    setIsConfirming(true);
  };

  const announcements = list.data?.announcements ?? [];
  const latest = announcements[0];
  const isHeld = isConfirming || message.length > 0 || Boolean(send.error) || formError !== null;

  return (
    <section className={styles.panel} aria-labelledby={ids.title}>
      <details
        open={isOpen || isHeld}
        onToggle={(event) => setIsOpen(event.currentTarget.open)}
        className={styles.fold}
      >
        <summary className={styles.summary}>
          <h2 id={ids.title}>{t("title")}</h2>
          <span className={styles.summaryText}>
            {latest
              ? t("summary", {
                  count: announcements.length,
                  time: words.clock(Date.parse(latest.sentAt)),
                  message: latest.message,
                })
              : list.isSuccess
                ? t("summaryNone")
                : null}
          </span>
        </summary>
        <form className={styles.compose} onSubmit={onCompose} noValidate>
          <TextAreaField
            id={ids.message}
            label={t("message")}
            rows={3}
            value={message}
            disabled={isConfirming}
            hint={t("length", {
              count: words.number(message.trim().length),
              max: words.number(ANNOUNCEMENT_LIMITS.maxMessageLength),
            })}
            error={formError}
            describedBy={send.error ? ids.error : undefined}
            onChange={(event) => setMessage(event.target.value)}
          />
          <fieldset className={styles.audience} disabled={isConfirming}>
            <legend>{t("to")}</legend>
            <label>
              <input type="radio" name="audience" checked={!toSelected} onChange={() => setAudience("all")} />{" "}
              {t("toAll")}
            </label>
            <label>
              <input
                type="radio"
                name="audience"
                checked={toSelected}
                disabled={selectedIds.length === 0}
                onChange={() => setAudience("selected")}
              />{" "}
              {selectedIds.length === 0 ? t("toSelectedNone") : t("toSelected", { count: selectedIds.length })}
            </label>
          </fieldset>
          {/* Only while there is one: an empty live region would add a row to the grid (a rendered alert is read out). */}
          {send.error ? <FormError id={ids.error} message={send.error} /> : null}
          {isConfirming ? (
            <div className={`notice ${styles.confirm}`} role="group" aria-label={t("confirmLabel")}>
              <p>{toSelected ? t("confirmSelected", { count: selectedIds.length }) : t("confirmAll")}</p>
              <div className={styles.actions}>
                <button
                  type="button"
                  className="button button--primary"
                  disabled={send.isPending}
                  onClick={() => void send.run()}
                >
                  {send.isPending ? t("sending") : t("confirmSend")}
                </button>
                <button
                  type="button"
                  className="button button--quiet"
                  disabled={send.isPending}
                  onClick={() => setIsConfirming(false)}
                >
                  {t("cancel")}
                </button>
              </div>
            </div>
          ) : (
            <button type="submit" className="button button--primary">
              {t("send")}
            </button>
          )}
          <p className="quiet" role="status">
            {sentNote}
          </p>
        </form>

        {list.error ? (
          <p className="notice notice--warn" role="alert">
            {t("loadError", { reason: describeFailure(failureOf(list.error)) })}
          </p>
        ) : null}
        {announcements.length === 0 ? (
          list.isSuccess ? (
            <p className="quiet">{t("none")}</p>
          ) : null
        ) : (
          // `announcements-panel__list`: the hook e2e/screenshots.spec.ts and e2e/a11y/axe.spec.ts find the list by.
          <ol className={`${styles.list} announcements-panel__list`} aria-label={t("listLabel")}>
            {announcements.map((announcement) => (
              <li key={announcement.id}>
                <p className={styles.meta}>
                  <span>{words.clock(Date.parse(announcement.sentAt))}</span> <span>{announcement.sentBy}</span>{" "}
                  <span className="muted">
                    {announcement.enrollmentIds === null
                      ? t("audienceAll")
                      : t("audienceSelected", { count: announcement.enrollmentIds.length })}
                  </span>
                </p>
                <p className={styles.message}>{announcement.message}</p>
                <p className={styles.received}>
                  {t("received", {
                    received: announcement.receivedCandidates,
                    total: announcement.recipients,
                    devices: announcement.receivedDevices,
                  })}
                </p>
              </li>
            ))}
          </ol>
        )}
      </details>
    </section>
  );
}
