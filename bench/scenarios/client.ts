// `npm run bench -- client`: the candidate's exam page in Chromium, measured from outside the app.
//
// 1. A private database, migrated; the app built if needed and started from a private copy of the build.
// 2. Seeding through the real API: one exam of 20 questions, one candidate enrolled (its join link kept).
// 3. In Chromium (Debian's, as the e2e suite runs it): the candidate opens the join link, presses Start,
//    lands on the exam page and waits until it is ready. Then it types N characters, with gaps of 30–80 ms
//    and a pause now and then (long enough for an autosave to go out while typing goes on), into an essay
//    and a short-text field, once online and once with the context offline. Per keystroke: keydown →
//    the `drafts` transaction that holds its text has committed (`complete`), measured by an init script
//    (bench/lib/browser/idb-commit-probe.ts). Afterwards the server must hold exactly the typed text.
//    Then the floor, the same typing in the same browser into a bare page that does only what any client
//    must do per key (bench/lib/browser/floor-page.ts): the exam page's figures are quoted against it.
// 4. First-load JS of the exam page (/attempts/[id]) and, as the baseline, of the start page
//    (/exam/[id]), each in a fresh context: wire, decoded and gzip sizes, and the largest chunks.
// 5. One line per figure, each budget (CLIENT_BUDGETS) against its figure, and the whole run in
//    bench/results/client-<time>.json.
import { randomInt } from "node:crypto";
import { readFileSync, readlinkSync } from "node:fs";
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";

import type { BrowserContext, Locator, Page } from "@playwright/test";

import type { Flags } from "../lib/run/args";
import { currentBuildId, ensureBuild, startApp, type BuildMode } from "../lib/servers/app-server";
import { launchChromium, launchPersistentChromium } from "../lib/browser/browser";
import { allCpus, cpuCount, hasTaskset, pinProcesses, processTree } from "../lib/run/cpu-affinity";
import { createMigratedDatabase } from "../lib/servers/database";
import { kb, measureFirstLoadJs, type FirstLoadJs } from "../lib/browser/first-load-js";
import { FLOOR_PATH, floorPageHtml } from "../lib/browser/floor-page";
import { createAgent } from "../lib/load/http-client";
import {
  clearPending,
  installIdbCommitProbe,
  pendingKeystrokes,
  takeProbe,
  type KeystrokeSample,
  type ProbeTake,
} from "../lib/browser/idb-commit-probe";
import { LatencyRecorder, type LatencySummary } from "../lib/load/latency";
import { say, shout, sleep } from "../lib/run/log";
import { environment, formatRatio, ratio, writeResults } from "../lib/reporting/report";
import type { Scenario } from "../lib/run/scenario";
import { appEnvironment } from "../lib/run/stage";
import { Api, createExam } from "../lib/candidates/seed";
import { LIMITS } from "../../lib/shared/limits";

export type ClientOptions = {
  /** Characters typed per phase (online, offline), half into an essay and half into a short-text field. */
  chars: number;
  minGapMs: number;
  maxGapMs: number;
  /** A pause of `pauseMs` after every this many characters (0: never). */
  pauseEvery: number;
  pauseMs: number;
  /** How long keystrokes may stay uncommitted after the last one before they count as lost. */
  settleTimeoutMs: number;
  /** How long the server may take to hold the typed text (online; and after going back online). */
  syncTimeoutMs: number;
  largest: number;
  /** Each of the 20 prompts is a reading passage of this many characters (0: a one-line label, about 3 KB in all). */
  promptChars: number;
  build: BuildMode;
  /**
   * `on`: the online phase runs twice in the same run, first with everything sharing every core (as always),
   * then with the app server pinned to the last core and Chromium to the others ("online, server apart"):
   * a candidate's laptop never runs the server. Needs ≥ 2 CPUs and `taskset`.
   */
  cpuSplit: boolean;
  /** `fresh`: a new in-memory context (IndexedDB in memory). `persistent`: a profile on disk, as candidates have. */
  profile: "fresh" | "persistent";
  /** Characters typed, not measured, before the first phase (the page's code and IndexedDB warmed up). */
  warmup: number;
  /** A Chrome trace of the first online phase, written beside the results (fresh profile only). */
  trace: boolean;
};

type PhaseName = "online" | "online-split" | "offline";
type Field = { position: number; kind: "essay" | "short_text"; questionId: string; text: string };

type Phase = {
  name: PhaseName;
  fields: Field[];
  typed: number;
  elapsedMs: number;
  loadAverage: number;
  /** Where the CPUs were: "shared" (every process on every core) or "server apart" (see ClientOptions.cpuSplit). */
  cpus: string;
  /** CPU seconds used during the phase's typing by the app server's processes and by Chromium's. */
  cpuSeconds: { server: number; chromium: number };
  total: LatencySummary;
  handled: LatencySummary;
  toTransaction: LatencySummary;
  commit: LatencySummary;
  superseded: number;
  pendingAfterSettle: number;
  probe: Omit<ProbeTake, "samples" | "longTasks">;
  /** Last keystroke (online) or going back online (offline) → the server holds every typed text. */
  toServerMs: number | null;
  longTasks: { count: number; totalMs: number; maxMs: number };
  /** The slowest 1 % of keystrokes (at least 3), split, with the long tasks that overlapped each. */
  slowest: {
    totalMs: number;
    handledMs: number | null;
    toTransactionMs: number;
    commitMs: number;
    longTaskMs: number;
  }[];
  samples: Pick<
    KeystrokeSample,
    "totalMs" | "handledMs" | "toTransactionMs" | "commitMs" | "length" | "isSuperseded"
  >[];
};

const WORDS =
  "answers stay on this device first then reach the server when the network allows so a candidate never loses a keystroke even on a hotel wifi".split(
    " ",
  );
const EXAM_PAGE = /\/attempts\/([0-9a-f-]{36})(?:[?#].*)?$/;
const OPENING_TEXT = "Opening your answers on this device…";
// Bench exam (bench/lib/candidates/exam.ts): positions 1–8 short text, 9–12 essay.
const FIELDS: Record<PhaseName | "warmup", { essay: number; shortText: number }> = {
  online: { essay: 9, shortText: 1 },
  "online-split": { essay: 11, shortText: 3 },
  offline: { essay: 10, shortText: 2 },
  warmup: { essay: 12, shortText: 4 },
};
const READY_TIMEOUT_MS = 30_000;
const ACTION_TIMEOUT_MS = 15_000;

/**
 * The exam page's budgets (issue 37; docs/benchmarks.md): its first-load JavaScript, and keystroke → committed to
 * IndexedDB at p99 in each phase. The keystroke budget holds on a quiet box: a phase typed while the load average
 * was at or above the CPU count is printed against it but not failed by it.
 */
export const CLIENT_BUDGETS = { examPageFirstLoadGzipBytes: 200 * 1024, keystrokeP99Ms: 30 } as const;

type BudgetCheck = { budget: string; measured: string; isMet: boolean; isCounted: boolean; note: string };

/** Each budget against this run's figures: one line per budget, and whether a miss fails the run. */
function checkBudgets(phases: readonly Phase[], examPage: FirstLoadJs, startPage: FirstLoadJs): BudgetCheck[] {
  const cpus = cpuCount();
  const size = examPage.initial.gzipBytes;
  return [
    {
      budget: `exam page first-load JS ≤ ${kb(CLIENT_BUDGETS.examPageFirstLoadGzipBytes)} gzip`,
      measured: kb(size),
      isMet: size <= CLIENT_BUDGETS.examPageFirstLoadGzipBytes,
      isCounted: true,
      note: `start page ${kb(startPage.initial.gzipBytes)}`,
    },
    ...phases.map((phase): BudgetCheck => {
      const isQuiet = phase.loadAverage < cpus;
      return {
        budget: `keystroke→IndexedDB p99 ≤ ${CLIENT_BUDGETS.keystrokeP99Ms} ms ${phase.name}`,
        measured: `${phase.total.p99.toFixed(1)} ms`,
        isMet: phase.total.p99 <= CLIENT_BUDGETS.keystrokeP99Ms,
        isCounted: isQuiet,
        note: `load ${phase.loadAverage.toFixed(1)} on ${cpus} CPUs${isQuiet ? "" : ": not a quiet box, a miss is not counted"}`,
      };
    }),
  ];
}

function formatBudget(check: BudgetCheck): string {
  const verdict = check.isMet ? "PASS" : check.isCounted ? "FAIL" : "over (not counted)";
  return `budget ${check.budget.padEnd(46)} ${check.measured.padStart(9)}  ${verdict}  (${check.note})`;
}

/** `length` characters of lower-case words and single spaces, never starting or ending with a space. */
function textOf(length: number): string {
  let text = "";
  while (text.length < length) text += `${text ? " " : ""}${WORDS[randomInt(WORDS.length)]}`;
  return text.slice(0, length).replace(/ $/, "x");
}

function question(page: Page, position: number): Locator {
  return page.getByRole("article", { name: `Question ${position}`, exact: true });
}

function answerField(page: Page, position: number): Locator {
  return question(page, position).getByLabel("Your answer", { exact: true });
}

/** The exam page has read this device's store and its fields are editable. */
async function isExamReady(page: Page): Promise<boolean> {
  try {
    if ((await page.getByText(OPENING_TEXT).count()) > 0) return false;
    return await answerField(page, 1).isEditable({ timeout: 500 });
  } catch {
    return false;
  }
}

async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs: number,
  signal: AbortSignal,
  everyMs = 50,
): Promise<number> {
  const startedAt = performance.now();
  const deadline = startedAt + timeoutMs;
  while (!signal.aborted && performance.now() < deadline) {
    if (await check()) return performance.now() - startedAt;
    await sleep(everyMs, signal);
  }
  if (signal.aborted) throw new Error("stopped");
  throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
}

/** Utime + stime of every process in `pids`, in seconds (Linux clock ticks of 1/100 s). */
function cpuSecondsOf(pids: readonly number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone
    }
  }
  return ticks / 100;
}

/** The process ids of the app server and of Chromium (every process this run started whose binary is Chromium's). */
type Parties = { server: () => number[]; chromium: () => number[] };

function partiesOf(serverPid: number): Parties {
  return {
    server: () => processTree(serverPid),
    chromium: () =>
      processTree(process.pid).filter((pid) => {
        try {
          return readlinkSync(`/proc/${pid}/exe`).includes("chromium");
        } catch {
          return false;
        }
      }),
  };
}

function summarise(values: readonly number[]): LatencySummary {
  const recorder = new LatencyRecorder();
  for (const value of values) recorder.record(value);
  return recorder.summary();
}

async function serverAnswers(
  context: BrowserContext,
  baseUrl: string,
  attemptId: string,
): Promise<Map<string, unknown> | null> {
  try {
    const response = await context.request.get(`${baseUrl}/api/attempts/${attemptId}`, { timeout: 5_000 });
    if (response.status() !== 200) return null;
    const body = (await response.json()) as { answers?: { questionId: string; value: unknown }[] };
    return new Map((body.answers ?? []).map((answer) => [answer.questionId, answer.value]));
  } catch {
    return null;
  }
}

async function serverHolds(
  context: BrowserContext,
  baseUrl: string,
  attemptId: string,
  fields: readonly Field[],
): Promise<boolean> {
  const answers = await serverAnswers(context, baseUrl, attemptId);
  return answers !== null && fields.every((field) => answers.get(field.questionId) === field.text);
}

/**
 * Types `text` into `field` one key at a time, with random gaps and pauses (none after the phase's last key);
 * returns the keys typed and when the last one was sent.
 */
async function typeInto(
  page: Page,
  field: Locator,
  text: string,
  options: ClientOptions,
  signal: AbortSignal,
  counts: { before: number; total: number },
): Promise<{ typed: number; lastKeyAt: number }> {
  await field.click({ timeout: ACTION_TIMEOUT_MS });
  await page.keyboard.press("End");
  let typed = 0;
  let lastKeyAt = performance.now();
  for (const character of text) {
    if (signal.aborted) break;
    await page.keyboard.type(character);
    lastKeyAt = performance.now();
    typed += 1;
    const count = counts.before + typed;
    if (count >= counts.total) break;
    const isPause = options.pauseEvery > 0 && count % options.pauseEvery === 0;
    await sleep(
      isPause ? options.pauseMs : options.minGapMs + randomInt(options.maxGapMs - options.minGapMs + 1),
      signal,
    );
  }
  return { typed, lastKeyAt };
}

/** A phase's typing: each field's text in turn, `options.chars` keys in all. */
async function typeFields(
  page: Page,
  fields: readonly { position: number; text: string }[],
  options: ClientOptions,
  signal: AbortSignal,
  startedAt: number,
): Promise<{ typed: number; lastKeyAt: number }> {
  let typed = 0;
  let lastKeyAt = startedAt;
  for (const field of fields) {
    const result = await typeInto(page, answerField(page, field.position), field.text, options, signal, {
      before: typed,
      total: options.chars,
    });
    typed += result.typed;
    lastKeyAt = result.lastKeyAt;
  }
  return { typed, lastKeyAt };
}

/** The four latency figures of a phase's keystrokes (see KeystrokeSample). */
function summariseSamples(
  samples: readonly KeystrokeSample[],
): Pick<Phase, "total" | "handled" | "toTransaction" | "commit"> {
  return {
    total: summarise(samples.map((sample) => sample.totalMs)),
    handled: summarise(samples.flatMap((sample) => (sample.handledMs === null ? [] : [sample.handledMs]))),
    toTransaction: summarise(samples.map((sample) => sample.toTransactionMs)),
    commit: summarise(samples.map((sample) => sample.commitMs)),
  };
}

/**
 * Waits until every keystroke of the phase is committed to IndexedDB; returns how many were not within
 * `timeoutMs` of the last key (0 when all were), and records them as a problem.
 */
async function settleKeystrokes(
  page: Page,
  name: string,
  timeoutMs: number,
  problems: string[],
  signal: AbortSignal,
): Promise<number> {
  try {
    await waitFor(
      `${name}: every keystroke committed to IndexedDB`,
      async () => (await pendingKeystrokes(page)) === 0,
      timeoutMs,
      signal,
    );
    return 0;
  } catch (error) {
    if (signal.aborted) throw error;
    const pending = await pendingKeystrokes(page);
    problems.push(
      `${name}: ${pending} keystrokes were not committed to IndexedDB within ${timeoutMs / 1000} s of the last one`,
    );
    return pending;
  }
}

async function runPhase(options: {
  name: PhaseName;
  cpus: string;
  parties: Parties;
  page: Page;
  context: BrowserContext;
  baseUrl: string;
  attemptId: string;
  questionIds: readonly string[];
  clientOptions: ClientOptions;
  problems: string[];
  signal: AbortSignal;
}): Promise<Phase> {
  const { page, context, name, clientOptions, signal, problems } = options;
  const positions = FIELDS[name];
  const essayChars = Math.ceil(clientOptions.chars / 2);
  const fields: Field[] = [
    {
      position: positions.essay,
      kind: "essay",
      questionId: options.questionIds[positions.essay - 1] ?? "",
      text: textOf(essayChars),
    },
    {
      position: positions.shortText,
      kind: "short_text",
      questionId: options.questionIds[positions.shortText - 1] ?? "",
      text: textOf(clientOptions.chars - essayChars),
    },
  ];

  if (name === "offline") {
    await context.setOffline(true);
    // Let the page see it (navigator.onLine, the `offline` event) before the first key.
    await sleep(500, signal);
  }
  const leftOver = await clearPending(page);
  if (leftOver > 0) say(`${name}: ${leftOver} keystrokes from before were still pending; forgotten`);
  await takeProbe(page);

  const loadAverage = Math.round((loadavg()[0] ?? 0) * 100) / 100;
  say(
    `${name}: typing ${clientOptions.chars} characters (${fields.map((field) => `${field.text.length} into question ${field.position}, ${field.kind.replace("_", " ")}`).join("; ")}), load ${loadAverage}`,
  );
  const cpuBefore = {
    server: cpuSecondsOf(options.parties.server()),
    chromium: cpuSecondsOf(options.parties.chromium()),
  };
  const startedAt = performance.now();
  const { typed, lastKeyAt } = await typeFields(page, fields, clientOptions, signal, startedAt);
  const elapsedMs = lastKeyAt - startedAt;
  const cpuSeconds = {
    server: Math.round((cpuSecondsOf(options.parties.server()) - cpuBefore.server) * 100) / 100,
    chromium: Math.round((cpuSecondsOf(options.parties.chromium()) - cpuBefore.chromium) * 100) / 100,
  };
  if (signal.aborted) throw new Error("stopped");

  const pendingAfterSettle = await settleKeystrokes(page, name, clientOptions.settleTimeoutMs, problems, signal);
  const take = await takeProbe(page);
  const { samples, longTasks, ...probe } = take;

  for (const field of fields) {
    const shown = await answerField(page, field.position).inputValue({ timeout: ACTION_TIMEOUT_MS });
    if (shown !== field.text)
      problems.push(
        `${name}: question ${field.position} shows ${JSON.stringify(shown.slice(-40))}… (${shown.length} chars), not the ${field.text.length} typed`,
      );
  }
  if (samples.length !== typed)
    problems.push(
      `${name}: ${typed} keys typed, ${samples.length} keystroke commits seen (pending ${probe.pending}, dropped ${probe.dropped})`,
    );
  if (probe.aborted > 0) problems.push(`${name}: ${probe.aborted} drafts transactions aborted`);
  // What the candidate typed is committed strictly (on disk); only what the server repeats (an
  // acknowledgement) may commit relaxed (docs/sync-protocol.md, "On the device").
  const notStrict = samples.filter((sample) => sample.durability !== "strict").length;
  if (notStrict > 0)
    problems.push(
      `${name}: ${notStrict} keystrokes committed with durability other than strict (all drafts transactions: ${JSON.stringify(probe.durability)})`,
    );

  let toServerMs: number | null = null;
  if (name === "offline") {
    const banner = await page
      .getByText("Every answer is saved on this device")
      .first()
      .isVisible()
      .catch(() => false);
    if (!banner) say("offline: the connection banner was not visible at the end of typing (information only)");
    const onServer = await serverAnswers(context, options.baseUrl, options.attemptId);
    if (onServer && fields.some((field) => onServer.get(field.questionId) === field.text))
      problems.push("offline: the server already held text typed while offline");
    await context.setOffline(false);
  }
  try {
    const since = name === "offline" ? performance.now() : lastKeyAt;
    await waitFor(
      `${name}: the server holds the typed text`,
      () => serverHolds(context, options.baseUrl, options.attemptId, fields),
      clientOptions.syncTimeoutMs,
      signal,
      100,
    );
    toServerMs = Math.round(performance.now() - since);
  } catch (error) {
    if (signal.aborted) throw error;
    problems.push(
      `${name}: the server did not hold the typed text within ${clientOptions.syncTimeoutMs / 1000} s${name === "offline" ? " of going back online" : ""}`,
    );
  }

  const round = (value: number): number => Math.round(value * 100) / 100;
  const slowest = [...samples]
    .sort((a, b) => b.totalMs - a.totalMs)
    .slice(0, Math.max(3, Math.ceil(samples.length / 100)))
    .map((sample) => ({
      totalMs: round(sample.totalMs),
      handledMs: sample.handledMs === null ? null : round(sample.handledMs),
      toTransactionMs: round(sample.toTransactionMs),
      commitMs: round(sample.commitMs),
      // Long-task time inside keydown → complete.
      longTaskMs: round(
        longTasks.reduce((sum, task) => {
          const from = Math.max(task.startMs, sample.keydownAt);
          const to = Math.min(task.startMs + task.durationMs, sample.keydownAt + sample.totalMs);
          return sum + Math.max(0, to - from);
        }, 0),
      ),
    }));
  return {
    name,
    fields,
    typed,
    elapsedMs: Math.round(elapsedMs),
    loadAverage,
    cpus: options.cpus,
    cpuSeconds,
    ...summariseSamples(samples),
    superseded: samples.filter((sample) => sample.isSuperseded).length,
    pendingAfterSettle,
    probe,
    toServerMs,
    longTasks: {
      count: longTasks.length,
      totalMs: round(longTasks.reduce((sum, task) => sum + task.durationMs, 0)),
      maxMs: round(longTasks.reduce((max, task) => Math.max(max, task.durationMs), 0)),
    },
    slowest,
    samples: samples.map(({ totalMs, handledMs, toTransactionMs, commitMs, length, isSuperseded }) => ({
      totalMs: Math.round(totalMs * 100) / 100,
      handledMs: handledMs === null ? null : Math.round(handledMs * 100) / 100,
      toTransactionMs: Math.round(toTransactionMs * 100) / 100,
      commitMs: Math.round(commitMs * 100) / 100,
      length,
      isSuperseded,
    })),
  };
}

/** The same typing into the bare floor page (bench/lib/browser/floor-page.ts), in a context of its own. */
type FloorPhase = {
  typed: number;
  elapsedMs: number;
  loadAverage: number;
  cpuSeconds: { chromium: number };
  total: LatencySummary;
  handled: LatencySummary;
  toTransaction: LatencySummary;
  commit: LatencySummary;
  pendingAfterSettle: number;
};

async function runFloor(options: {
  context: BrowserContext;
  baseUrl: string;
  parties: Parties;
  clientOptions: ClientOptions;
  problems: string[];
  signal: AbortSignal;
}): Promise<FloorPhase> {
  const { context, clientOptions, signal, problems } = options;
  await context.route(`${options.baseUrl}${FLOOR_PATH}`, (route) =>
    route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: floorPageHtml() }),
  );
  const page = await context.newPage();
  await installIdbCommitProbe(page);
  await page.goto(`${options.baseUrl}${FLOOR_PATH}`, { waitUntil: "load" });
  await waitFor(
    "the floor page is ready",
    async () => (await page.locator("body[data-ready=true]").count()) === 1,
    READY_TIMEOUT_MS,
    signal,
  );
  const positions = FIELDS.online;
  const essayChars = Math.ceil(clientOptions.chars / 2);
  const fields = [
    { position: positions.essay, text: textOf(essayChars) },
    { position: positions.shortText, text: textOf(clientOptions.chars - essayChars) },
  ];
  if (clientOptions.warmup > 0) {
    await typeInto(
      page,
      answerField(page, FIELDS.warmup.shortText),
      textOf(clientOptions.warmup),
      clientOptions,
      signal,
      {
        before: 0,
        total: clientOptions.warmup,
      },
    );
    await sleep(clientOptions.pauseMs, signal);
  }
  await clearPending(page);
  await takeProbe(page);
  const loadAverage = Math.round((loadavg()[0] ?? 0) * 100) / 100;
  say(
    `floor: typing ${clientOptions.chars} characters into the bare page (questions ${positions.essay} and ${positions.shortText}), load ${loadAverage}`,
  );
  const cpuBefore = cpuSecondsOf(options.parties.chromium());
  const startedAt = performance.now();
  const { typed, lastKeyAt } = await typeFields(page, fields, clientOptions, signal, startedAt);
  const chromium = Math.round((cpuSecondsOf(options.parties.chromium()) - cpuBefore) * 100) / 100;
  const pendingAfterSettle = await settleKeystrokes(page, "floor", clientOptions.settleTimeoutMs, problems, signal);
  const { samples } = await takeProbe(page);
  if (samples.length !== typed) problems.push(`floor: ${typed} keys typed, ${samples.length} keystroke commits seen`);
  await page.close();
  return {
    typed,
    elapsedMs: Math.round(lastKeyAt - startedAt),
    loadAverage,
    cpuSeconds: { chromium },
    ...summariseSamples(samples),
    pendingAfterSettle,
  };
}

function formatFloor(floor: FloorPhase, phases: readonly Phase[]): string {
  const { total, handled, toTransaction, commit } = floor;
  const ms = (value: number): string => value.toFixed(1).padStart(6);
  const against = phases
    .map(
      (phase) =>
        `${phase.name} / floor p50 ${formatRatio(ratio(phase.total.p50, total.p50))} p99 ${formatRatio(ratio(phase.total.p99, total.p99))}`,
    )
    .join("; ");
  return (
    `keystroke→IndexedDB ${"floor".padEnd(12)}  p50 ${ms(total.p50)} ms  p95 ${ms(total.p95)} ms  p99 ${ms(total.p99)} ms  max ${ms(total.max)} ms  n=${total.count}` +
    `  [keydown→input handled p50 ${handled.p50.toFixed(1)} / p99 ${handled.p99.toFixed(1)} ms;` +
    ` keydown→transaction opened p50 ${toTransaction.p50.toFixed(1)} / p99 ${toTransaction.p99.toFixed(1)} ms;` +
    ` opened→complete p50 ${commit.p50.toFixed(1)} / p99 ${commit.p99.toFixed(1)} ms]` +
    `  pending ${floor.pendingAfterSettle}  ${(floor.elapsedMs / 1000).toFixed(1)} s of typing  load ${floor.loadAverage.toFixed(1)}  Chromium CPU ${floor.cpuSeconds.chromium.toFixed(2)} s` +
    `\n    the bare page of bench/lib/browser/floor-page.ts, same browser and typing; ${against}`
  );
}

function formatPhase(phase: Phase): string {
  const { total, toTransaction, commit, handled } = phase;
  const ms = (value: number): string => value.toFixed(1).padStart(6);
  const slow = (value: number | null): string => (value === null ? "?" : value.toFixed(0));
  return (
    `keystroke→IndexedDB ${phase.name.padEnd(12)}  p50 ${ms(total.p50)} ms  p95 ${ms(total.p95)} ms  p99 ${ms(total.p99)} ms  max ${ms(total.max)} ms  n=${total.count}` +
    `  [keydown→input handled (React) p50 ${handled.p50.toFixed(1)} / p99 ${handled.p99.toFixed(1)} ms;` +
    ` keydown→transaction opened p50 ${toTransaction.p50.toFixed(1)} / p99 ${toTransaction.p99.toFixed(1)} ms;` +
    ` opened→complete p50 ${commit.p50.toFixed(1)} / p99 ${commit.p99.toFixed(1)} ms]` +
    `  durability ${
      Object.entries(phase.probe.durability)
        .map(([key, count]) => `${key}×${count}`)
        .join(" ") || "none"
    }` +
    ` (${phase.probe.unpairedTransactions} without a keystroke: merges, acknowledgements)` +
    `  pending ${phase.pendingAfterSettle}  superseded ${phase.superseded}  ${(phase.elapsedMs / 1000).toFixed(1)} s of typing  load ${phase.loadAverage.toFixed(1)}` +
    `  server holds it ${phase.toServerMs === null ? "NEVER" : `${(phase.toServerMs / 1000).toFixed(1)} s`} after ${phase.name === "offline" ? "going online" : "the last key"}` +
    `\n    cpus: ${phase.cpus}; CPU during typing: server ${phase.cpuSeconds.server.toFixed(2)} s, Chromium ${phase.cpuSeconds.chromium.toFixed(2)} s;` +
    ` long tasks ${phase.longTasks.count} (${phase.longTasks.totalMs.toFixed(0)} ms, longest ${phase.longTasks.maxMs.toFixed(0)} ms)` +
    `\n    slowest (total = handled…opened + opened→complete; long-task ms inside): ${phase.slowest
      .map(
        (item) =>
          `${slow(item.totalMs)} = ${slow(item.handledMs)}…${slow(item.toTransactionMs)} + ${slow(item.commitMs)}${item.longTaskMs > 0 ? ` (lt ${slow(item.longTaskMs)})` : ""}`,
      )
      .join(", ")}`
  );
}

function formatSize(size: FirstLoadJs, pathLabel: string): string {
  const { initial, later } = size;
  return (
    `first-load JS ${size.label.padEnd(10)} ${pathLabel.padEnd(16)} ${String(initial.files).padStart(3)} files` +
    `  wire ${kb(initial.transferBytes).padStart(9)}  decoded ${kb(initial.decodedBytes).padStart(9)}  gzip ${kb(initial.gzipBytes).padStart(9)}` +
    `  (after load: ${later.files} more files, decoded ${kb(later.decodedBytes)}, gzip ${kb(later.gzipBytes)}` +
    `${
      later.files > 0 && later.files <= 3
        ? `: ${size.files
            .filter((file) => !file.isInitial)
            .map((file) => file.path.replace("/_next/static/chunks/", ""))
            .join(", ")}`
        : ""
    })` +
    `  DOMContentLoaded ${size.timing.domContentLoadedMs ?? "?"} ms, load ${size.timing.loadMs ?? "?"} ms${size.timing.readyMs !== null ? `, ready ${size.timing.readyMs} ms` : ""}`
  );
}

export const clientScenario: Scenario<ClientOptions> = {
  name: "client",
  summary: "the exam page in Chromium: keystroke → committed-to-IndexedDB latency (online, offline) and first-load JS",
  usage: [
    "  --chars N                characters typed per phase (online, offline)            300",
    "  --min-gap-ms MS          least time between two keys                              30",
    "  --max-gap-ms MS          most time between two keys                               80",
    "  --pause-every N          a pause after every N characters (0: none)               60",
    "  --pause-ms MS            that pause (above the 1.5 s debounce: autosaves go out)  2000",
    "  --settle-timeout-ms MS   keystrokes not committed by then count as lost           10000",
    "  --sync-timeout-ms MS     the server must hold the typed text by then              60000",
    "  --largest N              largest chunks printed per page                          5",
    "  --prompt-chars N         each of the 20 prompts a passage of N characters (0: a label) 0",
    "  --build auto|always|never  next build: when sources are newer than .next/BUILD_ID   auto",
    "  --cpu-split on|off       online typed twice: all sharing every core, then the server on a",
    "                           core of its own and Chromium on the rest (taskset; ≥ 2 CPUs)     off",
    "  --profile fresh|persistent  Chromium's profile: in memory, or on disk as candidates have  fresh",
    "  --warmup N               characters typed, not measured, before the first phase          40",
    "  --trace                  a Chrome trace of the online phase: results/client-trace-<time>.json",
  ].join("\n"),

  options(flags: Flags): ClientOptions {
    const minGapMs = flags.number("min-gap-ms", 30, { min: 0, max: 5_000, isInteger: true });
    return {
      chars: flags.number("chars", 300, { min: 2, max: 5_000, isInteger: true }),
      minGapMs,
      maxGapMs: flags.number("max-gap-ms", Math.max(80, minGapMs), { min: minGapMs, max: 10_000, isInteger: true }),
      pauseEvery: flags.number("pause-every", 60, { min: 0, max: 5_000, isInteger: true }),
      pauseMs: flags.number("pause-ms", 2_000, { min: 0, max: 60_000, isInteger: true }),
      settleTimeoutMs: flags.number("settle-timeout-ms", 10_000, { min: 100, max: 300_000, isInteger: true }),
      syncTimeoutMs: flags.number("sync-timeout-ms", 60_000, { min: 1_000, max: 600_000, isInteger: true }),
      largest: flags.number("largest", 5, { min: 0, max: 100, isInteger: true }),
      promptChars: flags.number("prompt-chars", 0, { min: 0, max: LIMITS.maxPromptChars, isInteger: true }),
      build: flags.choice("build", ["auto", "always", "never"] as const, "auto"),
      cpuSplit: flags.choice("cpu-split", ["on", "off"] as const, "off") === "on",
      profile: flags.choice("profile", ["fresh", "persistent"] as const, "fresh"),
      warmup: flags.number("warmup", 40, { min: 0, max: 5_000, isInteger: true }),
      trace: flags.boolean("trace"),
    };
  },

  async run(options, signal) {
    const problems: string[] = [];
    const startedAt = new Date();
    const env0 = environment();

    // 1.
    const database = await createMigratedDatabase("client");
    const appEnv = appEnvironment({ databaseUrl: database.url, redisUrl: "redis://127.0.0.1:6379" });
    const build = await ensureBuild({ mode: options.build, env: appEnv, signal });
    if (signal.aborted) return { isOk: false };
    const app = await startApp({ buildId: build.buildId, env: appEnv, signal });
    const baseUrl = `http://127.0.0.1:${app.port}`;
    const health: unknown = await (await fetch(`${baseUrl}/api/health`)).json();
    say(`app health: ${JSON.stringify(health)}`);

    // 2.
    const seedAgent = createAgent(2);
    const api = new Api({ port: app.port, agent: seedAgent, adminToken: appEnv.ADMIN_API_TOKEN, signal });
    const exam = await createExam(api, `Client benchmark ${startedAt.toISOString()}`, {
      promptChars: options.promptChars,
    });
    const enrolled = JSON.parse(
      (
        await api.call("POST", `/api/admin/exams/${exam.examId}/candidates`, {
          body: { candidates: [{ name: "Bench Browser Candidate", email: "bench-browser-1@holdfast.test" }] },
          isAdmin: true,
          expect: [201],
        })
      ).body,
    ) as { candidates: { joinToken: string }[] };
    seedAgent.destroy();
    const joinToken = enrolled.candidates[0]?.joinToken;
    if (!joinToken) throw new Error("seeding: enrolling the candidate returned no join token");
    const questionIds = exam.questions.map((item) => item.id);
    say(`seeded exam ${exam.examId} (${questionIds.length} questions) and one candidate`);

    // 3.
    const viewport = { width: 1280, height: 900 };
    let context: BrowserContext;
    let chromium: Awaited<ReturnType<typeof launchChromium>>;
    let closePersistent: (() => Promise<void>) | null = null;
    if (options.profile === "persistent") {
      const persistent = await launchPersistentChromium({ viewport });
      context = persistent.context;
      closePersistent = persistent.close;
      chromium = await launchChromium(); // for the first-load JS, in fresh contexts as always
    } else {
      chromium = await launchChromium();
      context = await chromium.browser.newContext({ viewport });
    }
    context.setDefaultTimeout(ACTION_TIMEOUT_MS);
    const parties = partiesOf(app.child.pid);
    const cpus = cpuCount();
    const canSplit = options.cpuSplit && cpus >= 2 && hasTaskset();
    if (options.cpuSplit && !canSplit)
      say(
        `--cpu-split: not possible here (${cpus} CPU(s), taskset ${hasTaskset() ? "found" : "missing"}); online runs once`,
      );
    const page = context.pages()[0] ?? (await context.newPage());
    await installIdbCommitProbe(page);
    await page.goto(`${baseUrl}/join/${joinToken}`, { waitUntil: "load", timeout: 60_000 });
    await page.getByRole("button", { name: /^(Start|Resume)$/ }).click();
    await page.waitForURL(EXAM_PAGE, { timeout: 30_000 });
    const attemptId = EXAM_PAGE.exec(page.url())?.[1];
    if (!attemptId) throw new Error(`not an exam page: ${page.url()}`);
    const readyMs = await waitFor("the exam page is ready", () => isExamReady(page), READY_TIMEOUT_MS, signal);
    say(`exam page ready ${Math.round(readyMs)} ms after the URL changed (attempt ${attemptId})`);

    if (options.warmup > 0) {
      say(`warm-up: typing ${options.warmup} characters (not measured)`);
      const half = Math.ceil(options.warmup / 2);
      let typed = 0;
      for (const [position, length] of [
        [FIELDS.warmup.shortText, options.warmup - half],
        [FIELDS.warmup.essay, half],
      ] as const) {
        const result = await typeInto(page, answerField(page, position), textOf(length), options, signal, {
          before: typed,
          total: options.warmup,
        });
        typed += result.typed;
      }
      await waitFor("warm-up committed", async () => (await pendingKeystrokes(page)) === 0, 10_000, signal).catch(
        () => undefined,
      );
      await sleep(options.pauseMs, signal);
      await clearPending(page);
      await takeProbe(page);
    }

    const phases: Phase[] = [];
    const lines: string[] = [];
    const everyCpu = allCpus();
    const serverCpu = String(cpus - 1);
    const browserCpus = cpus > 2 ? `0-${cpus - 2}` : "0";
    const names: PhaseName[] = canSplit ? ["online", "online-split", "offline"] : ["online", "offline"];
    for (const name of names) {
      if (signal.aborted) return { isOk: false };
      let phaseCpus = `shared (every process on CPUs ${everyCpu})`;
      if (name === "online-split") {
        const server = pinProcesses(parties.server(), serverCpu);
        const browser = pinProcesses(parties.chromium(), browserCpus);
        phaseCpus = `server apart (app server on CPU ${serverCpu}: ${server.pinned} processes; Chromium on CPU ${browserCpus}: ${browser.pinned} processes; PostgreSQL, Redis and this harness unpinned)`;
        if (server.failed + browser.failed > 0)
          problems.push(`${name}: taskset failed for ${server.failed + browser.failed} processes`);
      }
      const tracePath =
        options.trace && name === "online" && options.profile === "fresh"
          ? `bench/results/client-trace-${startedAt.toISOString().replace(/[:.]/g, "-")}.json`
          : null;
      if (tracePath)
        await chromium.browser.startTracing(page, {
          path: tracePath,
          categories: [
            "toplevel",
            "devtools.timeline",
            "disabled-by-default-devtools.timeline",
            "v8",
            "v8.execute",
            "blink",
            "cc",
            "IndexedDB",
            "blink.user_timing",
          ],
        });
      const phase = await runPhase({
        name,
        cpus: phaseCpus,
        parties,
        page,
        context,
        baseUrl,
        attemptId,
        questionIds,
        clientOptions: options,
        problems,
        signal,
      });
      if (tracePath) {
        await chromium.browser.stopTracing();
        say(`trace of the ${name} phase: ${tracePath}`);
      }
      if (name === "online-split") {
        pinProcesses(parties.server(), everyCpu);
        pinProcesses(parties.chromium(), everyCpu);
      }
      phases.push(phase);
      const line = formatPhase(phase);
      lines.push(line);
      console.log(line);
    }
    const cookies = await context.cookies();
    if (closePersistent) await closePersistent();
    else await context.close();

    // The floor, in a fresh context of the same browser (in memory, as the fresh profile is).
    if (signal.aborted) return { isOk: false };
    const floorContext = await chromium.browser.newContext({ viewport });
    floorContext.setDefaultTimeout(ACTION_TIMEOUT_MS);
    const floor = await runFloor({ context: floorContext, baseUrl, parties, clientOptions: options, problems, signal });
    await floorContext.close();
    const floorLine = formatFloor(floor, phases);
    lines.push(floorLine);
    console.log(floorLine);

    // 4.
    const contextOptions = { viewport: { width: 1280, height: 900 }, storageState: { cookies, origins: [] } };
    const startPage = await measureFirstLoadJs({
      browser: chromium.browser,
      label: "start page",
      url: `${baseUrl}/exam/${exam.examId}`,
      contextOptions,
      isReady: async (target) =>
        target
          .getByRole("button", { name: /^(Start|Resume)$/ })
          .isEnabled({ timeout: 500 })
          .catch(() => false),
      signal,
    });
    const examPage = await measureFirstLoadJs({
      browser: chromium.browser,
      label: "exam page",
      url: `${baseUrl}/attempts/${attemptId}`,
      contextOptions,
      isReady: isExamReady,
      readyTimeoutMs: READY_TIMEOUT_MS,
      signal,
    });
    await chromium.close();
    for (const size of [startPage, examPage]) {
      if (size.status !== 200) problems.push(`${size.label}: ${size.url} answered ${size.status ?? "nothing"}`);
      if (size.initial.files === 0)
        problems.push(`${size.label}: no first-load script found (did the HTML change shape?)`);
      if (size.missingTiming > 0)
        say(
          `${size.label}: ${size.missingTiming} scripts had no Resource Timing entry; their wire size is missing from the total`,
        );
    }
    const sizeRatios = {
      transfer: ratio(examPage.initial.transferBytes, startPage.initial.transferBytes),
      decoded: ratio(examPage.initial.decodedBytes, startPage.initial.decodedBytes),
      gzip: ratio(examPage.initial.gzipBytes, startPage.initial.gzipBytes),
    };
    for (const line of [
      formatSize(examPage, "/attempts/[id]"),
      formatSize(startPage, "/exam/[id]"),
      `first-load JS exam page / start page  wire ${formatRatio(sizeRatios.transfer)}  decoded ${formatRatio(sizeRatios.decoded)}  gzip ${formatRatio(sizeRatios.gzip)}` +
        `  (exam page only: +${kb(examPage.initial.decodedBytes - startPage.initial.decodedBytes)} decoded, +${kb(examPage.initial.gzipBytes - startPage.initial.gzipBytes)} gzip)`,
    ]) {
      lines.push(line);
      console.log(line);
    }
    const startPaths = new Set(startPage.files.filter((file) => file.isInitial).map((file) => file.path));
    for (const file of examPage.files.filter((item) => item.isInitial).slice(0, options.largest)) {
      const line =
        `  exam page chunk ${file.path.padEnd(60)} decoded ${kb(file.decodedBytes).padStart(9)}  gzip ${kb(file.gzipBytes).padStart(8)}` +
        `  wire ${file.transferBytes === null ? "?" : kb(file.transferBytes)}${file.contentEncoding ? ` (${file.contentEncoding})` : " (uncompressed)"}${startPaths.has(file.path) ? "  shared with the start page" : "  exam page only"}`;
      lines.push(line);
      console.log(line);
    }
    const budgets = checkBudgets(phases, examPage, startPage);
    for (const check of budgets) {
      const line = formatBudget(check);
      lines.push(line);
      console.log(line);
      if (!check.isMet && check.isCounted) problems.push(`over budget: ${check.budget} (measured ${check.measured})`);
    }
    if (currentBuildId() !== build.buildId)
      say(
        `note: .next was rebuilt by someone else during the run; this run measured build ${build.buildId} (from its private copy)`,
      );
    for (const problem of problems) shout(problem);

    console.log(
      `chromium ${chromium.version}; build ${build.buildId} (${build.isBuilt ? "built" : "reused"}: ${build.reason}); typing: ${options.chars} chars per phase,` +
        ` gaps ${options.minGapMs}–${options.maxGapMs} ms, a ${options.pauseMs} ms pause every ${options.pauseEvery || "∞"} chars;` +
        ` profile ${options.profile}, warm-up ${options.warmup} chars, prompts ${options.promptChars ? `of ${options.promptChars} chars` : "one line each"}, ${cpus} CPUs`,
    );
    console.log(
      `checks: ${problems.length === 0 ? "all passed (every keystroke committed, fields show the typed text, strict durability, the server holds the text, every budget counted met)" : `${problems.length} FAILED (see above)`}`,
    );

    const file = writeResults("client", {
      scenario: "client",
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      options,
      environment: env0,
      build,
      chromium: { version: chromium.version },
      appHealth: health,
      method: {
        keystroke:
          "keydown event time stamp (capture listener on window) → `complete` of the readwrite IndexedDB transaction that put the field's text into `drafts` (init script wrapping IDBDatabase.transaction and IDBObjectStore.put; the app is unchanged)",
        firstLoadJs:
          "fresh context, service workers blocked, one navigation; first load = scripts the HTML names; wire = Resource Timing transferSize; decoded = body bytes; gzip = node:zlib level 6 of the body",
      },
      attemptId,
      examReadyMs: Math.round(readyMs),
      phases,
      floor,
      firstLoadJs: { examPage, startPage, ratios: sizeRatios },
      budgets,
      problems,
      lines,
    });
    console.log(`results: ${file}`);
    return { isOk: problems.length === 0 };
  },
};
