"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";

import {
  describeConnection,
  describePhase,
  describeRiskReason,
  describeSync,
  formatAge,
  formatClock,
  formatTimeLeft,
} from "@/lib/client/proctor/describe";
import { fetchCandidateTimeline } from "@/lib/client/proctor/proctor-api";
import { proctorKeys } from "@/lib/client/proctor/query-keys";
import type { CandidateRow } from "@/lib/client/proctor/table-view";

import { ExtendDialog } from "./extend-dialog";
import { ForceSubmitDialog } from "./force-submit-dialog";

type Props = { examId: string; row: CandidateRow; now: number; onClose: () => void };

/** Everything about one candidate, in sentences, with the two actions a proctor can take. */
export function CandidateDrawer({ examId, row, now, onClose }: Props) {
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

  const connection = describeConnection(status, now);
  const sync = describeSync(status);
  const isRunning = facts.phase === "in_progress" && facts.attemptId !== null;
  const extension = facts.lastExtension;

  return (
    <aside
      className="drawer"
      role="dialog"
      aria-modal="false"
      aria-labelledby="drawer-title"
      onKeyDown={(event) => {
        if (event.key === "Escape" && dialog === null) onClose();
      }}
    >
      <div className="drawer__head">
        <div>
          <h2 id="drawer-title" tabIndex={-1} ref={headingRef}>
            {facts.name}
          </h2>
          <p className="muted">{facts.email}</p>
        </div>
        <button type="button" className="button button--quiet" onClick={onClose}>
          Close
        </button>
      </div>

      {status.isAtRisk ? (
        <p className="notice notice--bad">
          <strong>At risk:</strong> {status.atRiskReason === null ? null : describeRiskReason(status.atRiskReason)}
        </p>
      ) : null}

      <dl className="facts facts--drawer">
        <div>
          <dt>Status</dt>
          <dd>
            {describePhase(facts)}
            {facts.submittedAt !== null ? ` at ${formatClock(facts.submittedAt)}` : ""}
            {facts.digestMismatch ? " — the device's digest differs from the server's" : ""}
          </dd>
        </div>
        <div>
          <dt>Connection</dt>
          <dd>{facts.devices.length === 0 ? "No device has reported yet" : connection.text}</dd>
        </div>
        <div>
          <dt>Sync</dt>
          <dd>{sync.text}</dd>
        </div>
        <div>
          <dt>Last save</dt>
          <dd>
            {facts.lastSaveAt !== null
              ? `${formatClock(facts.lastSaveAt)} (${formatAge(now - facts.lastSaveAt)} ago)`
              : "Nothing saved yet"}
          </dd>
        </div>
        <div>
          <dt>Answered</dt>
          <dd>
            {facts.answered} of {facts.total}
          </dd>
        </div>
        <div>
          <dt>Time left</dt>
          <dd>
            {status.timeLeftMs !== null ? formatTimeLeft(status.timeLeftMs) : "—"}
            {facts.deadline !== null ? <span className="muted"> · deadline {formatClock(facts.deadline)}</span> : null}
          </dd>
        </div>
        {facts.lateAnswers > 0 ? (
          <div>
            <dt>Late answers</dt>
            <dd>{facts.lateAnswers}</dd>
          </div>
        ) : null}
      </dl>

      <h3>Extra time</h3>
      {extension ? (
        <div className="extension">
          <p>
            +{Math.round(extension.seconds / 60)} min by {extension.by} at {formatClock(extension.at)}: “
            {extension.reason}”{extension.deadline !== null ? ` New deadline ${formatClock(extension.deadline)}.` : ""}
          </p>
          <p className={extension.acknowledgedAt !== null ? "tone tone--ok" : "tone tone--warn"}>
            {extension.acknowledgedAt !== null
              ? `Acknowledged by the candidate's device at ${formatClock(extension.acknowledgedAt)}`
              : "Waiting for the candidate's device"}
          </p>
        </div>
      ) : (
        <p className="muted">No extra time given.</p>
      )}

      <div className="drawer__actions">
        <button
          type="button"
          className="button button--primary"
          disabled={facts.phase === "submitted" || facts.phase === "auto_submitted"}
          onClick={() => setDialog("extend")}
        >
          Extend time
        </button>
        <button
          type="button"
          className="button button--danger"
          disabled={!isRunning}
          onClick={() => setDialog("submit")}
        >
          Force submit
        </button>
      </div>

      <h3>Devices</h3>
      {status.devices.length === 0 ? (
        <p className="muted">No device has sent a heartbeat.</p>
      ) : (
        <ul className="devices">
          {status.devices.map((device) => {
            const deviceFacts = facts.devices.find((candidate) => candidate.deviceId === device.deviceId);
            return (
              <li key={device.deviceId}>
                <code>{device.deviceId.slice(0, 8)}</code>{" "}
                <span
                  className={`tone tone--${device.connection === "online" ? "ok" : device.connection === "offline" ? "warn" : "bad"}`}
                >
                  {device.connection === "online"
                    ? "Online"
                    : `${device.connection === "offline" ? "Offline" : "Unreachable"}${device.quietSince !== null ? ` ${formatAge(now - device.quietSince)}` : ""}`}
                </span>
                {" · "}
                {device.pending === 0
                  ? "nothing pending"
                  : `${device.pending} pending${device.oldestPendingMs !== null ? ` for ${formatAge(device.oldestPendingMs)}` : ""}`}
                {device.isFailing ? " · failing" : ""}
                {" · storage "}
                {deviceFacts?.storagePersisted === true
                  ? "persisted"
                  : deviceFacts?.storagePersisted === false
                    ? "not persisted"
                    : "unknown"}
                {deviceFacts ? (
                  <span className="muted"> · last heard {formatClock(deviceFacts.lastHeartbeatAt)}</span>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}

      <h3>Timeline</h3>
      {timeline.data ? (
        timeline.data.entries.length === 0 ? (
          <p className="muted">Nothing yet.</p>
        ) : (
          <ol className="timeline">
            {timeline.data.entries.map((entry, index) => (
              <li key={`${entry.at}-${entry.kind}-${index}`}>
                <time dateTime={new Date(entry.at).toISOString()}>{formatClock(entry.at)}</time> {entry.text}
              </li>
            ))}
          </ol>
        )
      ) : (
        <p className="muted">
          {timeline.error ? `The timeline could not be loaded: ${timeline.error.message}` : "Loading the timeline…"}
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
