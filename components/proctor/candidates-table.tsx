"use client";

import { useVirtualizer } from "@tanstack/react-virtual";
import { memo, useRef, type KeyboardEvent } from "react";

import {
  describeConnection,
  describePhase,
  describeRiskReason,
  describeSync,
  formatClock,
  formatTimeLeft,
} from "@/lib/client/proctor/describe";
import type { CandidateRow, SortKey, TableView } from "@/lib/client/proctor/table-view";

const ROW_HEIGHT = 56;

const COLUMNS: { key: SortKey | null; label: string; className?: string }[] = [
  { key: "name", label: "Candidate" },
  { key: "connection", label: "Connection" },
  { key: "sync", label: "Sync" },
  { key: "lastSave", label: "Last save" },
  { key: "answered", label: "Answered", className: "num" },
  { key: "timeLeft", label: "Time left", className: "num" },
  { key: "status", label: "Status" },
  { key: null, label: "Devices", className: "num" },
  { key: "risk", label: "Risk" },
];

type Props = {
  rows: CandidateRow[];
  now: number;
  isLoading: boolean;
  view: TableView;
  onSort: (key: SortKey) => void;
  selected: ReadonlySet<string>;
  onToggle: (enrollmentId: string) => void;
  onToggleAll: (isChecked: boolean) => void;
  onOpen: (enrollmentId: string) => void;
};

/**
 * The candidates, virtualized: only the rows in view (plus a few) are in the DOM, so 10,000 candidates
 * scroll and re-sort like 50. ARIA table roles on a CSS grid, because a virtualized <table> cannot keep its
 * columns aligned; aria-rowcount tells assistive technology how many rows there are in all.
 */
export function CandidatesTable({
  rows,
  now,
  isLoading,
  view,
  onSort,
  selected,
  onToggle,
  onToggleAll,
  onOpen,
}: Props) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // The React Compiler is not enabled here; useVirtualizer re-renders on scroll by design.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    getItemKey: (index) => rows[index]?.facts.enrollmentId ?? index,
  });
  const isAllSelected = rows.length > 0 && rows.every((row) => selected.has(row.facts.enrollmentId));

  return (
    <div className="ctable-scroll" ref={scrollRef} data-testid="candidates-scroll">
      <div className="ctable" role="table" aria-label="Candidates" aria-rowcount={rows.length + 1}>
        <div className="ctable__head" role="rowgroup">
          <div className="ctable__row ctable__row--head" role="row" aria-rowindex={1}>
            <div className="ctable__cell ctable__cell--check" role="columnheader">
              <input
                type="checkbox"
                aria-label={`Select all ${rows.length} shown`}
                checked={isAllSelected}
                disabled={rows.length === 0}
                onChange={(event) => onToggleAll(event.target.checked)}
              />
            </div>
            {COLUMNS.map((column) => {
              const isSorted =
                column.key !== null &&
                (view.sort === column.key || (column.key === "sync" && view.sort === "oldestPending"));
              return (
                <div
                  key={column.label}
                  className={`ctable__cell ${column.className ?? ""}`}
                  role="columnheader"
                  aria-sort={isSorted ? (view.direction === "asc" ? "ascending" : "descending") : undefined}
                >
                  {column.key === null ? (
                    column.label
                  ) : column.key === "sync" ? (
                    <>
                      <SortButton label="Sync" sortKey="sync" view={view} onSort={onSort} />
                      <SortButton
                        label="oldest"
                        sortKey="oldestPending"
                        view={view}
                        onSort={onSort}
                        ariaLabel="Oldest pending"
                      />
                    </>
                  ) : (
                    <SortButton
                      label={column.key === "risk" ? "At risk" : column.label}
                      sortKey={column.key}
                      view={view}
                      onSort={onSort}
                    />
                  )}
                </div>
              );
            })}
          </div>
        </div>
        <div className="ctable__body" role="rowgroup" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index];
            if (!row) return null;
            return (
              <CandidateRowView
                key={item.key}
                row={row}
                now={now}
                index={item.index}
                top={item.start}
                isSelected={selected.has(row.facts.enrollmentId)}
                onToggle={onToggle}
                onOpen={onOpen}
              />
            );
          })}
        </div>
        {rows.length === 0 ? (
          <p className="ctable__empty">{isLoading ? "Loading candidates…" : "No candidates match."}</p>
        ) : null}
      </div>
    </div>
  );
}

type RowProps = {
  row: CandidateRow;
  now: number;
  index: number;
  top: number;
  isSelected: boolean;
  onToggle: (enrollmentId: string) => void;
  onOpen: (enrollmentId: string) => void;
};

const CandidateRowView = memo(function CandidateRowView({
  row,
  now,
  index,
  top,
  isSelected,
  onToggle,
  onOpen,
}: RowProps) {
  const { facts, status } = row;
  // After submission the connection says nothing; unsynced work still on a device does.
  const isFinished = facts.phase === "submitted" || facts.phase === "auto_submitted";
  const connection = facts.phase === "in_progress" ? describeConnection(status, now) : null;
  const sync = isFinished && status.pending === 0 ? null : describeSync(status);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget) return;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      onOpen(facts.enrollmentId);
    }
  };
  return (
    <div
      className={`ctable__row${status.isAtRisk ? " ctable__row--risk" : ""}`}
      role="row"
      aria-rowindex={index + 2}
      aria-selected={isSelected}
      data-enrollment-id={facts.enrollmentId}
      tabIndex={0}
      style={{ transform: `translateY(${top}px)`, height: ROW_HEIGHT }}
      onClick={() => onOpen(facts.enrollmentId)}
      onKeyDown={onKeyDown}
    >
      <div className="ctable__cell ctable__cell--check" role="cell" onClick={(event) => event.stopPropagation()}>
        <input
          type="checkbox"
          aria-label={`Select ${facts.name}`}
          checked={isSelected}
          onChange={() => onToggle(facts.enrollmentId)}
        />
      </div>
      <div className="ctable__cell ctable__cell--who" role="cell">
        <span className="ctable__name">{facts.name}</span>
        <span className="ctable__email muted">{facts.email}</span>
        {status.isAtRisk ? (
          // On a phone the risk column is off screen: the words come under the name instead of the email.
          <span className="ctable__risk-inline" aria-hidden="true">
            At risk: {status.atRiskReason === null ? null : describeRiskReason(status.atRiskReason)}
          </span>
        ) : null}
      </div>
      <div className="ctable__cell" role="cell">
        {connection ? (
          <span className={`tone tone--${connection.tone}`}>{connection.text}</span>
        ) : (
          <span className="muted">—</span>
        )}
      </div>
      <div className="ctable__cell" role="cell">
        {sync ? <span className={`tone tone--${sync.tone}`}>{sync.text}</span> : <span className="muted">—</span>}
      </div>
      <div className="ctable__cell" role="cell">
        {facts.lastSaveAt !== null ? formatClock(facts.lastSaveAt) : <span className="muted">—</span>}
      </div>
      <div className="ctable__cell num" role="cell">
        {facts.answered}/{facts.total}
      </div>
      <div className="ctable__cell num" role="cell">
        {status.timeLeftMs !== null ? formatTimeLeft(status.timeLeftMs) : <span className="muted">—</span>}
      </div>
      <div className="ctable__cell ctable__cell--status" role="cell">
        {describePhase(facts)}
        {facts.digestMismatch ? <span className="flag flag--bad">digest differs</span> : null}
      </div>
      <div className="ctable__cell num" role="cell">
        {status.devicesUsed}
      </div>
      <div className="ctable__cell ctable__cell--risk" role="cell">
        {status.isAtRisk ? (
          <span className="risk" title={status.atRiskReason ?? undefined}>
            <strong>At risk</strong> <span className="risk__reason">{status.atRiskReason === null ? null : describeRiskReason(status.atRiskReason)}</span>
          </span>
        ) : (
          <span className="muted">—</span>
        )}
      </div>
    </div>
  );
});

function SortButton({
  label,
  sortKey,
  view,
  onSort,
  ariaLabel,
}: {
  label: string;
  sortKey: SortKey;
  view: TableView;
  onSort: (key: SortKey) => void;
  ariaLabel?: string;
}) {
  const isSorted = view.sort === sortKey;
  return (
    <button type="button" className="sort" onClick={() => onSort(sortKey)} aria-label={ariaLabel}>
      {label}
      <span aria-hidden="true" className="sort__mark">
        {isSorted ? (view.direction === "asc" ? "▲" : "▼") : ""}
      </span>
    </button>
  );
}
