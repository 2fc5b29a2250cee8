import "server-only";

import { Gauge, type Registry } from "prom-client";

import type { ExamHealth } from "@/lib/shared/schemas/proctor";

import { log } from "../log";
import { getRedis } from "../redis/client";
import { examRequestStats, readExamRequestStats } from "../request-stats/exam-request-stats";
import { readExamLoss } from "./read-exam-loss";
import { summariseExamHealth } from "./summarise-exam-health";

/** The exam health of every published exam with traffic in the last hour, as the metrics scrape sees it. */
async function gatherExamHealth(now: number): Promise<ExamHealth[]> {
  try {
    return await gatherOrThrow(now);
  } catch (error) {
    // A scrape while Postgres is away still answers with every other metric; these series are left out.
    log.warn("metrics: exam health gauges left out of this scrape", { error: (error as Error).message });
    return [];
  }
}

async function gatherOrThrow(now: number): Promise<ExamHealth[]> {
  const active = await examRequestStats().activeExamIds(await getRedis(), now);
  const losses = await readExamLoss({ examIds: active, viewer: "operators" });
  const examIds = [...losses.keys()];
  const windows = await readExamRequestStats(examIds, now);
  return examIds.map((examId) =>
    summariseExamHealth({ loss: losses.get(examId)!, minutes: windows.get(examId) ?? [], now }),
  );
}

// The four gauges are collected one after another in one scrape: they share one gathering, so a scrape
// costs one Postgres statement and one Redis pipeline, not four of each. renderMetrics starts every scrape
// afresh; a direct registry.metrics() shares for at most SHARE_FOR_MS.
const SHARE_FOR_MS = 1_000;
let shared: { at: number; health: Promise<ExamHealth[]> } | null = null;

/** Makes the next collect gather anew (called at the start of each scrape). */
export function beginExamHealthScrape(): void {
  shared = null;
}
function gatherShared(): Promise<ExamHealth[]> {
  const now = Date.now();
  if (!shared || now - shared.at > SHARE_FOR_MS) shared = { at: now, health: gatherExamHealth(now) };
  return shared.health;
}

/**
 * Adds the per-exam gauges to the registry, once: values are gathered at scrape time (prom-client's
 * `collect`) from the same numbers as `GET /api/proctor/exams/{examId}/health`. Series of exams that went
 * quiet for an hour disappear. Rates are fractions; a rate or p99 with nothing to divide is left out.
 */
export function registerExamHealthGauges(registry: Registry): void {
  if (registry.getSingleMetric("holdfast_exam_loss_rate")) return;

  const gauge = <L extends string>(
    name: string,
    help: string,
    labelNames: L[],
    fill: (gauge: Gauge<L>, health: ExamHealth) => void,
  ): void => {
    new Gauge<L>({
      name,
      help,
      labelNames,
      registers: [registry],
      async collect() {
        const all = await gatherShared();
        this.reset();
        for (const health of all) fill(this, health);
      },
    });
  };

  gauge(
    "holdfast_exam_loss_rate",
    "Per published exam with traffic in the last hour: (submissions whose client digest differs + attempts with late answers) / submissions.",
    ["exam_id"],
    (g, h) => {
      if (h.lossRate !== null) g.set({ exam_id: h.examId }, h.lossRate);
    },
  );
  gauge(
    "holdfast_exam_duplicate_rate",
    "Per exam, last hour: (idempotent submit replays + ALREADY_SUBMITTED answers) / submit requests.",
    ["exam_id"],
    (g, h) => {
      if (h.duplicateRate !== null) g.set({ exam_id: h.examId }, h.duplicateRate);
    },
  );
  gauge(
    "holdfast_exam_request_p99_seconds",
    "Per exam, last hour: p99 of autosave and submit request durations, from fixed buckets summed over every instance.",
    ["exam_id", "kind"],
    (g, h) => {
      if (h.autosaveP99Ms !== null) g.set({ exam_id: h.examId, kind: "autosave" }, h.autosaveP99Ms / 1000);
      if (h.submitP99Ms !== null) g.set({ exam_id: h.examId, kind: "submit" }, h.submitP99Ms / 1000);
    },
  );
  gauge(
    "holdfast_exam_rate_limited",
    "Per exam, last hour: autosave, submit and heartbeat requests answered 429.",
    ["exam_id"],
    (g, h) => g.set({ exam_id: h.examId }, h.rateLimited),
  );
}
