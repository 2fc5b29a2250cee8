"use client";

import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";

import { formatClock } from "@/lib/client/proctor/describe";
import type { StreamState } from "@/lib/client/proctor/exam-event-stream";
import { fetchExamHealth } from "@/lib/client/proctor/proctor-api";
import { proctorKeys } from "@/lib/client/proctor/query-keys";
import {
  countRows,
  deriveRows,
  DEFAULT_VIEW,
  rankByName,
  viewRows,
  type StatusFilter,
  type TableView,
} from "@/lib/client/proctor/table-view";
import { useExamLive } from "@/lib/client/proctor/use-exam-live";
import type { ExamHealth, StatusCounters } from "@/lib/shared/schemas/proctor";

import { CandidateDrawer } from "./candidate-drawer";
import { CandidatesTable } from "./candidates-table";
import { ExamHealthPanel } from "./exam-health-panel";
import { ExtendDialog } from "./extend-dialog";

type Props = { examId: string; examTitle: string };

/** The live proctoring page of one exam: counters, the candidates table, a drawer per candidate, health. */
export function ProctorDashboard({ examId, examTitle }: Props) {
  const live = useExamLive(examId);
  const { store, version, now } = live;
  const [view, setView] = useState<TableView>(DEFAULT_VIEW);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [openId, setOpenId] = useState<string | null>(null);
  const [isBulkOpen, setBulkOpen] = useState(false);

  // Name order only when candidates come or go; then one pass per store flush (data or clock): derive,
  // count, filter, sort.
  const membership = store.getMembership();
  const ranks = useMemo(() => rankByName(store.list()), [store, membership]); // eslint-disable-line react-hooks/exhaustive-deps
  const rows = useMemo(() => deriveRows(store.list(), now, ranks), [store, version, now, ranks]); // eslint-disable-line react-hooks/exhaustive-deps
  const counters = useMemo(() => countRows(rows), [rows]);
  const visible = useMemo(() => viewRows(rows, view), [rows, view]);

  const health = useQuery({
    queryKey: proctorKeys.health(examId),
    queryFn: () => fetchExamHealth(examId),
    refetchInterval: 10_000,
  });

  const openRow = openId ? (rows.find((row) => row.facts.enrollmentId === openId) ?? null) : null;
  const selectedIds = [...selected].filter((id) => store.get(id));

  return (
    <div className="proctor">
      <header className="proctor__head">
        <div>
          <p className="eyebrow">Live proctoring</p>
          <h1>{examTitle}</h1>
        </div>
        <div className="proctor__clock">
          <p>
            Server time <strong>{now === 0 ? "—" : formatClock(now)}</strong>
          </p>
          <StreamStatus state={live.streamState} lastUpdate={store.lastUpdate()} />
        </div>
      </header>

      <Counters
        counters={counters}
        filter={view.filter}
        onFilter={(filter) =>
          setView((current) => ({ ...current, filter: current.filter === filter ? "all" : filter }))
        }
      />

      <details className="health">
        <summary>
          Exam health{" "}
          <span className="health__figures">
            {health.data ? (
              <HealthFigures health={health.data} />
            ) : health.error ? (
              `could not be loaded: ${health.error.message}`
            ) : (
              "loading…"
            )}
          </span>
        </summary>
        {health.data ? <ExamHealthPanel health={health.data} /> : null}
      </details>

      <div className="proctor__body">
        <section className="proctor__main" aria-label="Candidates">
          <div className="proctor__toolbar">
            <div className="field field--inline">
              <label htmlFor="candidate-search">Search candidates</label>
              <input
                id="candidate-search"
                type="search"
                placeholder="Name or email"
                value={view.search}
                onChange={(event) => setView((current) => ({ ...current, search: event.target.value }))}
              />
            </div>
            <p className="quiet" aria-live="off">
              {visible.length === rows.length
                ? `${rows.length} ${rows.length === 1 ? "candidate" : "candidates"}`
                : `${visible.length} of ${rows.length} shown`}
            </p>
            <button
              type="button"
              className="button button--primary"
              disabled={selectedIds.length === 0}
              onClick={() => setBulkOpen(true)}
            >
              {selectedIds.length === 0
                ? "Extend time for selected candidates"
                : `Extend time for ${selectedIds.length} ${selectedIds.length === 1 ? "candidate" : "candidates"}`}
            </button>
          </div>

          {live.snapshotError ? (
            <p className="notice notice--warn" role="alert">
              The candidate list could not be loaded: {live.snapshotError.message}
            </p>
          ) : null}

          <CandidatesTable
            rows={visible}
            now={now}
            isLoading={!live.isSnapshotLoaded && rows.length === 0}
            view={view}
            onSort={(sort) =>
              setView((current) => ({
                ...current,
                sort,
                direction: current.sort === sort && current.direction === "asc" ? "desc" : "asc",
              }))
            }
            selected={selected}
            onToggle={(id) =>
              setSelected((current) => {
                const next = new Set(current);
                if (next.has(id)) next.delete(id);
                else next.add(id);
                return next;
              })
            }
            onToggleAll={(isChecked) =>
              setSelected(isChecked ? new Set(visible.map((row) => row.facts.enrollmentId)) : new Set())
            }
            onOpen={setOpenId}
          />
        </section>
      </div>

      {openRow ? (
        <CandidateDrawer
          examId={examId}
          row={openRow}
          now={now}
          onClose={() => {
            const enrollmentId = openRow.facts.enrollmentId;
            setOpenId(null);
            // Keyboard users land back on the row they opened (if it is still rendered by the virtualizer).
            requestAnimationFrame(() =>
              document.querySelector<HTMLElement>(`[data-enrollment-id="${CSS.escape(enrollmentId)}"]`)?.focus(),
            );
          }}
        />
      ) : null}

      {isBulkOpen ? (
        <ExtendDialog
          examId={examId}
          target={{ kind: "many", enrollmentIds: selectedIds }}
          onClose={(hasExtended) => {
            setBulkOpen(false);
            if (hasExtended) setSelected(new Set());
          }}
        />
      ) : null}
    </div>
  );
}

const STREAM_WORDS: Record<StreamState, string> = {
  connecting: "Connecting…",
  live: "Live",
  reconnecting: "Reconnecting…",
};

function StreamStatus({ state, lastUpdate }: { state: StreamState; lastUpdate: number | null }) {
  // Only the state word is announced (politely); the time of the last update changes too often to read out.
  return (
    <p className={`stream stream--${state}`}>
      <span className="stream__dot" aria-hidden="true" />
      <span role="status" aria-live="polite" aria-label="Live updates">
        {STREAM_WORDS[state]}
      </span>
      {lastUpdate !== null ? <span className="muted"> · last update {formatClock(lastUpdate)}</span> : null}
    </p>
  );
}

const COUNTERS: { filter: StatusFilter; label: string; value: (counters: StatusCounters) => number; tone: string }[] = [
  { filter: "online", label: "Online", value: (c) => c.online, tone: "ok" },
  { filter: "offline", label: "Offline", value: (c) => c.offline + c.unreachable, tone: "warn" },
  { filter: "pending", label: "Pending", value: (c) => c.pending, tone: "warn" },
  { filter: "atRisk", label: "At risk", value: (c) => c.atRisk, tone: "bad" },
  { filter: "submitted", label: "Submitted", value: (c) => c.submitted, tone: "muted" },
  { filter: "notStarted", label: "Not started", value: (c) => c.notStarted, tone: "muted" },
];

function Counters({
  counters,
  filter,
  onFilter,
}: {
  counters: StatusCounters;
  filter: StatusFilter;
  onFilter: (filter: StatusFilter) => void;
}) {
  return (
    <div className="counters" role="group" aria-label="Filter by status">
      {COUNTERS.map((counter) => {
        const value = counter.value(counters);
        return (
          <button
            key={counter.filter}
            type="button"
            className={`counter counter--${counter.tone}${value === 0 ? " counter--zero" : ""}`}
            aria-pressed={filter === counter.filter}
            onClick={() => onFilter(counter.filter)}
          >
            <span className="counter__value">{value}</span>
            <span className="counter__label">
              {counter.label}
              {counter.filter === "offline" && counters.unreachable > 0 ? (
                <span className="muted"> (incl. {counters.unreachable} unreachable)</span>
              ) : null}
            </span>
          </button>
        );
      })}
    </div>
  );
}

/** The numbers on one line, for the closed health section. */
function HealthFigures({ health }: { health: ExamHealth }) {
  const percent = (rate: number | null) => (rate === null ? "—" : `${(rate * 100).toFixed(1)} %`);
  const ms = (value: number | null) => (value === null ? "—" : `${Math.round(value)} ms`);
  return (
    <>
      · loss {percent(health.lossRate)} · duplicates {percent(health.duplicateRate)} · p99 autosave{" "}
      {ms(health.autosaveP99Ms)}, submit {ms(health.submitP99Ms)} · {health.rateLimited} rate-limited
    </>
  );
}
