"use client";

import { useVirtualizer } from "@tanstack/react-virtual";
import { useTranslations } from "next-intl";
import { memo, useRef, type KeyboardEvent } from "react";

import type { ProctorWords } from "@/lib/shared/proctor/describe";
import type { CandidateRow, SortKey, TableView } from "@/lib/client/proctor/table-view";
import { useProctorWords } from "@/lib/client/proctor/use-proctor-words";

import styles from "./candidates-table.module.css";
import { toneClass } from "./tone";

const ROW_HEIGHT = 56;

/** The columns by their message key (`proctor.table.columns`); `devices` does not sort. */
const COLUMNS: { name: string; key: SortKey | null; isNumeric?: boolean }[] = [
  { name: "name", key: "name" },
  { name: "connection", key: "connection" },
  { name: "sync", key: "sync" },
  { name: "lastSave", key: "lastSave" },
  { name: "answered", key: "answered", isNumeric: true },
  { name: "timeLeft", key: "timeLeft", isNumeric: true },
  { name: "status", key: "status" },
  { name: "devices", key: null, isNumeric: true },
  { name: "risk", key: "risk" },
];

const cell = styles.cell;
const numCell = `${styles.cell} ${styles.num}`;
const dash = <span className="muted">—</span>;

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
  const t = useTranslations("proctor.table");
  const words = useProctorWords();
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
    <div className={styles.scroll} ref={scrollRef} data-testid="candidates-scroll">
      {/* `ctable`: the hook e2e/a11y/axe.spec.ts finds the table by (its styles are the module's). */}
      <div className={`${styles.table} ctable`} role="table" aria-label={t("label")} aria-rowcount={rows.length + 1}>
        <div className={styles.head} role="rowgroup">
          <div className={`${styles.row} ${styles.headRow}`} role="row" aria-rowindex={1}>
            <div className={`${cell} ${styles.check}`} role="columnheader">
              <input
                type="checkbox"
                aria-label={t("selectAll", { count: words.number(rows.length) })}
                checked={isAllSelected}
                disabled={rows.length === 0}
                onChange={(event) => onToggleAll(event.target.checked)}
              />
            </div>
            {COLUMNS.map((column) => {
              const isSorted =
                column.key !== null &&
                (view.sort === column.key || (column.key === "sync" && view.sort === "oldestPending"));
              const label = t(`columns.${column.name}`);
              return (
                <div
                  key={column.name}
                  className={column.isNumeric ? numCell : cell}
                  role="columnheader"
                  aria-sort={isSorted ? (view.direction === "asc" ? "ascending" : "descending") : undefined}
                >
                  {column.key === null ? (
                    label
                  ) : column.key === "sync" ? (
                    <>
                      <SortButton label={label} sortKey="sync" view={view} onSort={onSort} />
                      <SortButton
                        label={t("oldest")}
                        sortKey="oldestPending"
                        view={view}
                        onSort={onSort}
                        ariaLabel={t("oldestLabel")}
                      />
                    </>
                  ) : (
                    <SortButton label={label} sortKey={column.key} view={view} onSort={onSort} />
                  )}
                </div>
              );
            })}
          </div>
        </div>
        <div className={styles.body} role="rowgroup" style={{ height: virtualizer.getTotalSize() }}>
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
                words={words}
              />
            );
          })}
        </div>
        {rows.length === 0 ? <p className={styles.empty}>{isLoading ? t("loading") : t("empty")}</p> : null}
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
  /** The dashboard's words, made once per render of the table, so a row re-renders only when it changes. */
  words: ProctorWords;
};

const CandidateRowView = memo(function CandidateRowView({
  row,
  now,
  index,
  top,
  isSelected,
  onToggle,
  onOpen,
  words,
}: RowProps) {
  const t = useTranslations("proctor.table");
  const { facts, status } = row;
  // After submission the connection says nothing; unsynced work still on a device does.
  const isFinished = facts.phase === "submitted" || facts.phase === "auto_submitted";
  const connection = facts.phase === "in_progress" ? words.connection(status, now) : null;
  const sync = isFinished && status.pending === 0 ? null : words.sync(status);
  const riskReason = status.atRiskReason === null ? "" : words.riskReason(status.atRiskReason);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget) return;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      onOpen(facts.enrollmentId);
    }
  };
  return (
    <div
      className={status.isAtRisk ? `${styles.row} ${styles.riskRow}` : styles.row}
      role="row"
      aria-rowindex={index + 2}
      aria-selected={isSelected}
      data-enrollment-id={facts.enrollmentId}
      tabIndex={0}
      style={{ transform: `translateY(${top}px)`, height: ROW_HEIGHT }}
      onClick={() => onOpen(facts.enrollmentId)}
      onKeyDown={onKeyDown}
    >
      <div className={`${cell} ${styles.check}`} role="cell" onClick={(event) => event.stopPropagation()}>
        <input
          type="checkbox"
          aria-label={t("select", { name: facts.name })}
          checked={isSelected}
          onChange={() => onToggle(facts.enrollmentId)}
        />
      </div>
      <div className={`${cell} ${styles.who}`} role="cell">
        {/* The row opens on a click or Enter too; the button names the way in for assistive technology. */}
        <button
          type="button"
          className={`${styles.name} ${styles.open}`}
          tabIndex={-1}
          onClick={(event) => {
            event.stopPropagation();
            onOpen(facts.enrollmentId);
          }}
        >
          {facts.name}
        </button>
        <span className={`${styles.email} muted`}>{facts.email}</span>
        {status.isAtRisk ? (
          // On a phone the risk column is off screen: the words come under the name instead of the email.
          <span className={styles.riskInline} aria-hidden="true">
            {t("atRiskInline", { reason: riskReason })}
          </span>
        ) : null}
      </div>
      <div className={cell} role="cell">
        {connection ? <span className={toneClass(connection.tone)}>{connection.text}</span> : dash}
      </div>
      <div className={cell} role="cell">
        {sync ? <span className={toneClass(sync.tone)}>{sync.text}</span> : dash}
      </div>
      <div className={cell} role="cell">
        {facts.lastSaveAt !== null ? words.clock(facts.lastSaveAt) : dash}
      </div>
      <div className={numCell} role="cell">
        {words.number(facts.answered)}/{words.number(facts.total)}
      </div>
      <div className={numCell} role="cell">
        {status.timeLeftMs !== null ? words.timeLeft(status.timeLeftMs) : dash}
      </div>
      <div className={`${cell} ${styles.status}`} role="cell">
        {words.phase(facts)}
        {facts.phase === "in_progress" && facts.pausedAt !== null ? (
          // `flag--paused`: the hook e2e/screenshots.spec.ts and e2e/a11y/axe.spec.ts find the flag by.
          <span className={`${styles.flag} ${styles.flagPaused} flag--paused`} title={facts.pauseReason ?? undefined}>
            {t("paused")}
          </span>
        ) : null}
        {facts.digestMismatch ? <span className={`${styles.flag} ${styles.flagBad}`}>{t("digestDiffers")}</span> : null}
      </div>
      <div className={numCell} role="cell">
        {words.number(status.devicesUsed)}
      </div>
      <div className={`${cell} ${styles.riskCell}`} role="cell">
        {status.isAtRisk ? (
          <span className={styles.risk} title={riskReason || undefined}>
            <strong>{t("atRisk")}</strong> <span className={styles.riskReason}>{riskReason}</span>
          </span>
        ) : (
          dash
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
    <button type="button" className={styles.sort} onClick={() => onSort(sortKey)} aria-label={ariaLabel}>
      {label}
      <span aria-hidden="true" className={styles.sortMark}>
        {isSorted ? (view.direction === "asc" ? "▲" : "▼") : ""}
      </span>
    </button>
  );
}
