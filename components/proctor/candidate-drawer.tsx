"use client";

import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useEffect, useRef, useState } from "react";

import { useDescribeFailure } from "@/lib/client/i18n/use-describe-failure";
import { failureOf, fetchCandidateTimeline } from "@/lib/client/proctor/proctor-api";
import { proctorKeys } from "@/lib/client/proctor/query-keys";
import type { CandidateRow } from "@/lib/client/proctor/table-view";
import { useProctorWords } from "@/lib/client/proctor/use-proctor-words";
import { deviceShortId } from "@/lib/shared/proctor/device-id";

import { ExtendDialog } from "./extend-dialog";
import { ForceSubmitDialog } from "./force-submit-dialog";
import { toneClass } from "./tone";

import styles from "./candidate-drawer.module.css";

type Props = { examId: string; row: CandidateRow; now: number; onClose: () => void };

/** Everything about one candidate, in sentences, with the two actions a proctor can take. */
export function CandidateDrawer({ examId, row, now, onClose }: Props) {
  const t = useTranslations("proctor.drawer");
  const tc = useTranslations("common");
  const words = useProctorWords();
  const describeFailure = useDescribeFailure();
  const { facts, status } = row;
  const [dialog, setDialog] = useState<"extend" | "submit" | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const timeline = useQuery({
    queryKey: proctorKeys.timeline(examId, facts.enrollmentId),
    queryFn: () => fetchCandidateTimeline(examId, facts.enrollmentId),
    refetchInterval: 15_000,
  });

  // Focus moves into the drawer when it opens for a candidate, so a keyboard user lands on it.
  useEffect(() => {
    headingRef.current?.focus();
  }, [facts.enrollmentId]);

  const connection = words.connection(status, now);
  const sync = words.sync(status);
  const isRunning = facts.phase === "in_progress" && facts.attemptId !== null;
  const extension = facts.lastExtension;
  const phase = words.phase(facts);

  return (
    <aside
      className={styles.drawer}
      role="dialog"
      aria-modal="false"
      aria-labelledby="drawer-title"
      onKeyDown={(event) => {
        if (event.key === "Escape" && dialog === null) onClose();
      }}
    >
      <div className={styles.head}>
        <div>
          <h2 id="drawer-title" tabIndex={-1} ref={headingRef}>
            {facts.name}
          </h2>
          <p className="muted">{facts.email}</p>
        </div>
        <button type="button" className="button button--quiet" onClick={onClose}>
          {tc("close")}
        </button>
      </div>

      {status.atRiskReason !== null ? (
        <p className={`notice ${styles.atRisk}`}>
          {t.rich("atRiskNotice", {
            reason: words.riskReason(status.atRiskReason),
            strong: (chunks) => <strong>{chunks}</strong>,
          })}
        </p>
      ) : null}

      <dl className={`facts ${styles.facts}`}>
        <div>
          <dt>{t("status")}</dt>
          <dd>
            {facts.submittedAt !== null ? t("phaseAt", { phase, time: words.clock(facts.submittedAt) }) : phase}
            {facts.digestMismatch ? t("digestDiffers") : ""}
          </dd>
        </div>
        <div>
          <dt>{t("connection")}</dt>
          <dd>{facts.devices.length === 0 ? t("noDeviceYet") : connection.text}</dd>
        </div>
        <div>
          <dt>{t("sync")}</dt>
          <dd>{sync.text}</dd>
        </div>
        <div>
          <dt>{t("lastSave")}</dt>
          <dd>
            {facts.lastSaveAt !== null
              ? t("lastSaveValue", { time: words.clock(facts.lastSaveAt), age: words.age(now - facts.lastSaveAt) })
              : t("nothingSaved")}
          </dd>
        </div>
        <div>
          <dt>{t("answered")}</dt>
          <dd>{t("answeredValue", { answered: words.number(facts.answered), total: words.number(facts.total) })}</dd>
        </div>
        <div>
          <dt>{t("timeLeft")}</dt>
          <dd>
            {status.timeLeftMs !== null ? words.timeLeft(status.timeLeftMs) : "—"}
            {facts.deadline !== null ? (
              <span className="muted">{t("deadline", { time: words.clock(facts.deadline) })}</span>
            ) : null}
          </dd>
        </div>
        {facts.lateAnswers > 0 ? (
          <div>
            <dt>{t("lateAnswers")}</dt>
            <dd>{words.number(facts.lateAnswers)}</dd>
          </div>
        ) : null}
      </dl>

      <h3>{t("extraTime")}</h3>
      {extension ? (
        <div>
          <p>
            {t("extension", {
              duration: words.duration(extension.seconds * 1000),
              by: extension.by,
              time: words.clock(extension.at),
              reason: extension.reason,
            })}
          </p>
          {extension.deadline !== null ? <p>{t("newDeadline", { time: words.clock(extension.deadline) })}</p> : null}
          <p className={toneClass(extension.acknowledgedAt !== null ? "ok" : "warn")}>
            {extension.acknowledgedAt !== null
              ? t("acknowledged", { time: words.clock(extension.acknowledgedAt) })
              : t("waitingForDevice")}
          </p>
        </div>
      ) : (
        <p className="muted">{t("noExtension")}</p>
      )}

      <div className={styles.actions}>
        <button
          type="button"
          className="button button--primary"
          disabled={facts.phase === "submitted" || facts.phase === "auto_submitted"}
          onClick={() => setDialog("extend")}
        >
          {t("extend")}
        </button>
        <button
          type="button"
          className={`button ${styles.danger}`}
          disabled={!isRunning}
          onClick={() => setDialog("submit")}
        >
          {t("forceSubmit")}
        </button>
      </div>

      <h3>{t("devices")}</h3>
      {status.devices.length === 0 ? (
        <p className="muted">{t("noHeartbeat")}</p>
      ) : (
        <ul className={styles.list}>
          {status.devices.map((device) => {
            const deviceFacts = facts.devices.find((candidate) => candidate.deviceId === device.deviceId);
            const tone = device.connection === "online" ? "ok" : device.connection === "offline" ? "warn" : "bad";
            const persisted = deviceFacts?.storagePersisted;
            return (
              <li key={device.deviceId}>
                <code>{deviceShortId(device.deviceId)}</code>{" "}
                <span className={toneClass(tone)}>
                  {device.connection === "online"
                    ? t("deviceOnline")
                    : device.quietSince !== null
                      ? t("deviceQuietFor", { connection: device.connection, age: words.age(now - device.quietSince) })
                      : t("deviceQuiet", { connection: device.connection })}
                </span>
                {" · "}
                {device.pending === 0
                  ? t("nothingPending")
                  : device.oldestPendingMs !== null
                    ? t("devicePendingFor", {
                        count: words.number(device.pending),
                        age: words.age(device.oldestPendingMs),
                      })
                    : t("devicePending", { count: words.number(device.pending) })}
                {device.isFailing ? t("failing") : ""}
                {t("storage", {
                  state: persisted === true ? "persisted" : persisted === false ? "notPersisted" : "unknown",
                })}
                {deviceFacts ? (
                  <span className="muted">{t("lastHeard", { time: words.clock(deviceFacts.lastHeartbeatAt) })}</span>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}

      <h3>{t("timeline")}</h3>
      {timeline.data ? (
        timeline.data.entries.length === 0 ? (
          <p className="muted">{t("timelineEmpty")}</p>
        ) : (
          <ol className={styles.list}>
            {timeline.data.entries.map((entry, index) => (
              <li key={`${entry.at}-${entry.kind}-${index}`}>
                <time dateTime={new Date(entry.at).toISOString()}>{words.clock(entry.at)}</time>{" "}
                {words.timelineLine(entry)}
              </li>
            ))}
          </ol>
        )
      ) : (
        <p className="muted">
          {timeline.error
            ? t("timelineError", { reason: describeFailure(failureOf(timeline.error)) })
            : t("timelineLoading")}
        </p>
      )}

      {dialog === "extend" ? (
        <ExtendDialog
          examId={examId}
          target={{ kind: "one", id: facts.attemptId ?? facts.enrollmentId, name: facts.name }}
          onClose={() => setDialog(null)}
        />
      ) : null}
      {dialog === "submit" && facts.attemptId !== null ? (
        <ForceSubmitDialog
          examId={examId}
          attemptId={facts.attemptId}
          name={facts.name}
          onClose={() => setDialog(null)}
        />
      ) : null}
    </aside>
  );
}
