"use client";

import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useMemo, useState } from "react";

import { TimeZoneNote } from "@/components/i18n/time-zone-note";
import { useDescribeFailure } from "@/lib/client/i18n/use-describe-failure";
import type { ProctorWords } from "@/lib/shared/proctor/describe";
import type { StreamState } from "@/lib/client/proctor/exam-event-stream";
import { failureOf, fetchExamHealth } from "@/lib/client/proctor/proctor-api";
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
import { useProctorWords } from "@/lib/client/proctor/use-proctor-words";
import { describeExamHealth } from "@/lib/shared/proctor/describe-exam-health";
import type { StatusCounters } from "@/lib/shared/schemas/proctor";

import { Field } from "../ui/field";

import { AnnouncementsPanel } from "./announcements-panel";
import { CandidateDrawer } from "./candidate-drawer";
import { CandidatesTable } from "./candidates-table";
import { ExamHealthPanel } from "./exam-health-panel";
import { ExtendDialog } from "./extend-dialog";
import { PauseDialog, type PauseScope } from "./pause-dialog";

import styles from "./proctor-dashboard.module.css";

type Props = { examId: string; examTitle: string };

/** The live proctoring page of one exam: counters, the candidates table, a drawer per candidate, health. */
export function ProctorDashboard({ examId, examTitle }: Props) {
  const t = useTranslations("proctor");
  const words = useProctorWords();
  const describeFailure = useDescribeFailure();
  const live = useExamLive(examId);
  const { store, version, now } = live;
  const [view, setView] = useState<TableView>(DEFAULT_VIEW);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [openId, setOpenId] = useState<string | null>(null);
  const [isBulkOpen, setBulkOpen] = useState(false);
  const [pauseDialog, setPauseDialog] = useState<{ action: "pause" | "resume"; scope: PauseScope } | null>(null);

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

  // The summary line's numbers are the panel's figures (describeExamHealth), in the reader's words.
  const healthFigures = health.data
    ? Object.fromEntries(describeExamHealth(health.data).map((figure) => [figure.key, words.healthValue(figure.value)]))
    : null;

  const openRow = openId ? (rows.find((row) => row.facts.enrollmentId === openId) ?? null) : null;
  const selectedIds = [...selected].filter((id) => store.get(id));
  const pausedCount = rows.filter((row) => row.facts.phase === "in_progress" && row.facts.pausedAt !== null).length;

  return (
    <div>
      <header className={styles.head}>
        <div>
          <p className="eyebrow">{t("eyebrow")}</p>
          <h1>{examTitle}</h1>
        </div>
        <div className={styles.clock}>
          <p>
            {t.rich("serverTime", {
              time: now === 0 ? "—" : words.clock(now),
              strong: (chunks) => <strong>{chunks}</strong>,
            })}
          </p>
          <StreamStatus state={live.streamState} lastUpdate={store.lastUpdate()} words={words} />
          <TimeZoneNote className="time-zone-note" />
        </div>
      </header>

      {/* `proctor__pause`, `pause-state--paused`: hooks e2e/screenshots.spec.ts and e2e/a11y/axe.spec.ts find them by. */}
      <div className={`${styles.pause} proctor__pause`}>
        <p
          role="status"
          className={live.examPause ? `${styles.pauseState} ${styles.paused} pause-state--paused` : styles.pauseState}
        >
          {live.examPause
            ? t("pause.examPaused", { time: words.clock(live.examPause.pausedAt), reason: live.examPause.reason })
            : pausedCount > 0
              ? t("pause.candidatesPaused", { count: pausedCount })
              : ""}
        </p>
        <button
          type="button"
          className="button"
          onClick={() => setPauseDialog({ action: live.examPause ? "resume" : "pause", scope: { kind: "exam" } })}
        >
          {live.examPause ? t("pause.resumeExam") : t("pause.pauseExam")}
        </button>
      </div>

      <Counters
        counters={counters}
        words={words}
        filter={view.filter}
        onFilter={(filter) =>
          setView((current) => ({ ...current, filter: current.filter === filter ? "all" : filter }))
        }
      />

      <details className={styles.health}>
        <summary>
          {t("healthSummary.title")}{" "}
          <span className={styles.healthFigures}>
            {healthFigures
              ? t("healthSummary.figures", healthFigures)
              : health.error
                ? t("healthSummary.error", { reason: describeFailure(failureOf(health.error)) })
                : t("healthSummary.loading")}
          </span>
        </summary>
        {health.data ? <ExamHealthPanel health={health.data} /> : null}
      </details>

      <AnnouncementsPanel examId={examId} selectedIds={selectedIds} />

      <section aria-label={t("toolbar.region")}>
        {/* `proctor__toolbar`: the hook e2e/a11y/axe.spec.ts finds the bulk buttons by. */}
        <div className={`${styles.toolbar} proctor__toolbar`}>
          <Field
            id="candidate-search"
            className={styles.search}
            label={t("toolbar.search")}
            type="search"
            placeholder={t("toolbar.searchPlaceholder")}
            value={view.search}
            onChange={(event) => setView((current) => ({ ...current, search: event.target.value }))}
          />
          <p className="quiet" aria-live="off">
            {visible.length === rows.length
              ? t("toolbar.count", { count: rows.length })
              : t("toolbar.shown", { shown: words.number(visible.length), total: words.number(rows.length) })}
          </p>
          <button
            type="button"
            className="button button--primary"
            disabled={selectedIds.length === 0}
            onClick={() => setBulkOpen(true)}
          >
            {selectedIds.length === 0
              ? t("toolbar.extendSelected")
              : t("toolbar.extendCount", { count: selectedIds.length })}
          </button>
          <button
            type="button"
            className="button"
            disabled={selectedIds.length === 0}
            onClick={() => setPauseDialog({ action: "pause", scope: { kind: "many", enrollmentIds: selectedIds } })}
          >
            {t("toolbar.pauseSelected")}
          </button>
          <button
            type="button"
            className="button"
            disabled={selectedIds.length === 0}
            onClick={() => setPauseDialog({ action: "resume", scope: { kind: "many", enrollmentIds: selectedIds } })}
          >
            {t("toolbar.resumeSelected")}
          </button>
        </div>

        {live.snapshotError ? (
          <p className="notice notice--warn" role="alert">
            {t("snapshotError", { reason: describeFailure(failureOf(live.snapshotError)) })}
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

      {pauseDialog ? (
        <PauseDialog
          examId={examId}
          action={pauseDialog.action}
          scope={pauseDialog.scope}
          onClose={(isDone) => {
            setPauseDialog(null);
            if (isDone && pauseDialog.scope.kind === "many") setSelected(new Set());
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

/** The stream's state in colour too (beside its word): green when live, amber when reconnecting. */
const STREAM_TONES: Partial<Record<StreamState, string>> = { live: styles.live, reconnecting: styles.reconnecting };

function StreamStatus({
  state,
  lastUpdate,
  words,
}: {
  state: StreamState;
  lastUpdate: number | null;
  words: ProctorWords;
}) {
  const t = useTranslations("proctor.stream");
  // Only the state word is announced (politely); the time of the last update changes too often to read out.
  return (
    <p className={`${styles.stream} ${STREAM_TONES[state] ?? ""}`}>
      <span className={styles.streamDot} aria-hidden="true" />
      <span role="status" aria-live="polite" aria-label={t("label")}>
        {t(state)}
      </span>
      {lastUpdate !== null ? <span className="muted">{t("lastUpdate", { time: words.clock(lastUpdate) })}</span> : null}
    </p>
  );
}

const COUNTERS: { filter: Exclude<StatusFilter, "all">; value: (counters: StatusCounters) => number; tone: string }[] =
  [
    { filter: "online", value: (c) => c.online, tone: "ok" },
    { filter: "offline", value: (c) => c.offline + c.unreachable, tone: "warn" },
    { filter: "pending", value: (c) => c.pending, tone: "warn" },
    { filter: "atRisk", value: (c) => c.atRisk, tone: "bad" },
    { filter: "submitted", value: (c) => c.submitted, tone: "muted" },
    { filter: "notStarted", value: (c) => c.notStarted, tone: "muted" },
  ];

function Counters({
  counters,
  filter,
  onFilter,
  words,
}: {
  counters: StatusCounters;
  filter: StatusFilter;
  onFilter: (filter: StatusFilter) => void;
  words: ProctorWords;
}) {
  const t = useTranslations("proctor.counters");
  return (
    <div className={styles.counters} role="group" aria-label={t("label")}>
      {COUNTERS.map((counter) => {
        const value = counter.value(counters);
        return (
          <button
            key={counter.filter}
            type="button"
            className={`${styles.counter} ${styles[counter.tone]}${value === 0 ? ` ${styles.zero}` : ""}`}
            aria-pressed={filter === counter.filter}
            onClick={() => onFilter(counter.filter)}
          >
            <span className={styles.counterValue}>{words.number(value)}</span>
            <span className={styles.counterLabel}>
              {t(counter.filter)}
              {counter.filter === "offline" && counters.unreachable > 0 ? (
                <span className="muted">{t("unreachable", { count: words.number(counters.unreachable) })}</span>
              ) : null}
            </span>
          </button>
        );
      })}
    </div>
  );
}
