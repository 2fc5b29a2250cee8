import { answerValueProblem } from "@/lib/shared/answers";
import {
  CLOSED_BREAKER,
  backoffDelay,
  breakerBeforeRequest,
  breakerForceProbe,
  breakerOnFailure,
  breakerOnSuccess,
  breakerReadyAt,
  classifySyncResponse,
  type BreakerState,
} from "@/lib/shared/backoff";
import { answersDigest } from "@/lib/shared/digest";
import { LIMITS } from "@/lib/shared/limits";
import type { AnswerValue, AttemptView } from "@/lib/shared/schemas/attempts";
import type { CandidateQuestion } from "@/lib/shared/schemas/exams";
import {
  AttemptViewSchema,
  AutosaveResponseSchema,
  HeartbeatResponseSchema,
  SubmitResponseSchema,
} from "@/lib/shared/schemas/sync-responses";

import {
  applyHeartbeatFacts,
  draftSignature,
  getAttemptRecord,
  recordClosed,
  recordSubmitError,
  recordSubmitted,
  recordSubmittedElsewhere,
  saveServerView,
  storeSubmitBody,
  toggleFlag as toggleFlagRecord,
} from "../offline/attempts";
import { getDb, type AttemptRecord, type DraftRecord, type HoldfastDb, type RecordedError } from "../offline/db";
import { getOrCreateDeviceId } from "../offline/device";
import {
  getDrafts,
  listDirty,
  listDrafts,
  markAcknowledged,
  markDeliveredLate,
  markRejected,
  writeEdit,
} from "../offline/drafts";
import { DEFAULT_SYNC_CONFIG, type SyncConfig } from "./sync-config";
import { browserEnvironment, type ChannelLike, type EventStreamLike, type SyncEnvironment } from "./environment";
import { send, type FetchLike, type HttpOutcome, type Timers } from "./http";
import { PRESENCE_EVENTS, readPresenceEvent, type PresenceEvent } from "./presence-events";
import {
  EDIT_REFUSAL_MESSAGES,
  sameValue,
  type AnswerState,
  type ConnectionState,
  type EditResult,
  type NetStatus,
  type SyncSnapshot,
} from "./sync-state";

/**
 * The candidate's sync engine, one per attempt per tab (docs/sync-protocol.md, "The client"). Framework-free:
 * React reads it through `subscribe`/`getSnapshot`. Numbered steps refer to that section:
 *
 * - L: load and merge (start, leadership, GET /api/attempts/{id});
 * - E: edit (validate, one Dexie transaction, debounce);
 * - F: flush (one autosave in flight, the retry discipline, acknowledgements);
 * - S: submit (the stored body and key, resent until the server answers);
 * - H: heartbeat;
 * - P: presence stream (the server tells the page at once of a proctor's extension or force-submit);
 * - T: tabs (Web Locks leadership, BroadcastChannel).
 */

export { DEFAULT_SYNC_CONFIG, type SyncConfig };

export type SyncEngineOptions = {
  attemptId: string;
  /** The server's view from the page's render: the first paint, and the local record on a device's first visit. */
  initialView?: AttemptView | null;
  db?: HoldfastDb;
  fetch?: FetchLike;
  /** Device clock in epoch milliseconds. */
  now?: () => number;
  timers?: Timers;
  random?: () => number;
  environment?: SyncEnvironment;
  config?: Partial<SyncConfig>;
  /** Prefix of the API paths; "" in the browser (same origin). */
  baseUrl?: string;
};

type Job = "merge" | "autosave" | "submit";

/** An edit's write waiting its turn: it writes the newest `value`, and clears the optimistic value of `token`. */
type WaitingWrite = { value: AnswerValue; token: object; result: Promise<EditResult> };

/** Messages between the tabs of one attempt (step T2). */
type TabMessage =
  /** Dexie changed: re-read these questions (null: everything). */
  | { type: "changed"; questionIds: string[] | null }
  /** To the leader: there is work to send now (a follower's debounce ended, or it stored a submit). */
  | { type: "flush" }
  /** From the leader: its network state, so every tab shows the same banner. */
  | { type: "net"; net: NetStatus }
  /** From a new tab: leader, please send your network state. */
  | { type: "hello" };

/** Error codes of a final 4xx that are about the answers sent, so the drafts are marked rejected (step F6). */
const ANSWER_PROBLEM_STATUSES = new Set([400, 413, 422]);

const ISSUE_PATH = /^answers\.(\d+)(?:\.|$)/;

function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}

function isTabMessage(data: unknown): data is TabMessage {
  if (typeof data !== "object" || data === null) return false;
  const type = (data as { type?: unknown }).type;
  return type === "changed" || type === "flush" || type === "net" || type === "hello";
}

function defaultTimers(): Timers {
  return {
    setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
    clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
  };
}

export class SyncEngine {
  readonly attemptId: string;

  private readonly initialView: AttemptView | null;
  private readonly db: HoldfastDb;
  private readonly fetchFn: FetchLike;
  private readonly now: () => number;
  private readonly timers: Timers;
  private readonly random: () => number;
  private readonly config: SyncConfig;
  private readonly baseUrl: string;
  private env: SyncEnvironment | null;

  private readonly listeners = new Set<() => void>();
  private snapshot: SyncSnapshot;
  private readonly answerCache = new Map<string, AnswerState>();

  // What the device holds (a cache of Dexie, updated only through `serial`).
  private deviceId: string | null = null;
  private attempt: AttemptRecord | null = null;
  private drafts = new Map<string, DraftRecord>();
  /** Edits shown at once, before their transaction commits. */
  private readonly optimistic = new Map<string, { value: AnswerValue; at: number; token: object }>();
  /** Per question, the edit write queued and not started yet: a newer keystroke joins it (step E1). */
  private readonly waitingWrites = new Map<string, WaitingWrite>();
  private ready = false;

  // Lifecycle.
  private running = false;
  private generation = 0;
  private startPromise: Promise<void> | null = null;
  private readonly tasks = new Set<Promise<unknown>>();
  private awaitingNetwork = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private storageError: string | null = null;

  // Tabs.
  private isLeader = false;
  private lockAbort: AbortController | null = null;
  private releaseLeadership: (() => void) | null = null;
  private channel: ChannelLike | null = null;
  private leaderNet: NetStatus | null = null;
  private lastNetKey = "";

  // The network side (meaningful in the leader only).
  private inFlight: Job | null = null;
  private inFlightPromise: Promise<void> | null = null;
  private inFlightSent = new Map<string, number>();
  private needsMerge = true;
  private lastMergeAt = -Infinity;
  private breaker: BreakerState = CLOSED_BREAKER;
  private lastFailure: "network" | "server" | null = null;
  private backoffUntil = 0;
  private notBefore = 0;
  private retryAt: number | null = null;
  private nextAttemptAt: number | null = null;
  private blocked: RecordedError | null = null;
  private submitRequested = false;
  private submitPromise: Promise<SyncSnapshot> | null = null;
  private readonly submitWaiters = new Set<() => void>();

  // Timers.
  private debounceTimer: unknown = null;
  private retryTimer: unknown = null;
  private heartbeatTimer: unknown = null;
  private probeTimer: unknown = null;
  private heartbeatInFlight = false;
  private heartbeatAgain = false;
  private lastBeatKey = "";
  private lastBeatAt = -Infinity;

  // The presence stream (leader only).
  private stream: EventStreamLike | null = null;

  constructor(options: SyncEngineOptions) {
    this.attemptId = options.attemptId;
    this.initialView = options.initialView ?? null;
    this.db = options.db ?? getDb();
    const fetchFn = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.fetchFn = (input, init) => {
      this.awaitingNetwork += 1;
      return fetchFn(input, init).finally(() => {
        this.awaitingNetwork -= 1;
      });
    };
    this.now = options.now ?? Date.now;
    this.timers = options.timers ?? defaultTimers();
    this.random = options.random ?? Math.random;
    this.config = { ...DEFAULT_SYNC_CONFIG, ...options.config };
    this.baseUrl = options.baseUrl ?? "";
    this.env = options.environment ?? null;
    this.snapshot = this.buildSnapshot();
  }

  // ---------------------------------------------------------------------------------------------------------
  // Public API

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  getSnapshot = (): SyncSnapshot => this.snapshot;

  /**
   * Resolves once nothing of this engine runs except requests waiting for the server (timers may be set).
   * For tests and benchmarks.
   */
  async whenIdle(): Promise<void> {
    do {
      await new Promise<void>((resolve) => globalThis.setTimeout(resolve, 0));
    } while (this.tasks.size > this.awaitingNetwork);
  }

  /**
   * Step L1 — open the device's store, read the local state (the page can render from it offline), then ask
   * for the sync role (T1). Resolves when the local state is loaded; the network work continues in the
   * background. Calling it again while running returns the same promise; after `stop()` it starts afresh.
   */
  start(): Promise<void> {
    if (this.running && this.startPromise) return this.startPromise;
    this.running = true;
    const generation = ++this.generation;
    this.env ??= browserEnvironment();
    this.startPromise = this.track(
      this.boot(generation).catch((error: unknown) => {
        // IndexedDB unavailable or broken (some private modes, a full disk): say so; nothing can be kept.
        this.storageError = error instanceof Error ? error.message : String(error);
        this.emit();
      }),
    );
    return this.startPromise;
  }

  /** Leaves the sync role to the next tab, stops timers and listeners. Work in flight finishes; drafts are in Dexie. */
  stop(): void {
    if (!this.running) return;
    this.running = false;
    this.generation += 1;
    for (const handle of [this.debounceTimer, this.retryTimer, this.heartbeatTimer, this.probeTimer]) {
      if (handle !== null) this.timers.clearTimeout(handle);
    }
    this.debounceTimer = this.retryTimer = this.heartbeatTimer = this.probeTimer = null;
    this.detachListeners();
    this.closeStream();
    this.channel?.close();
    this.channel = null;
    this.lockAbort?.abort();
    this.lockAbort = null;
    this.releaseLeadership?.();
    this.releaseLeadership = null;
    this.isLeader = false;
    this.startPromise = null;
    for (const resolve of this.submitWaiters) resolve();
    this.submitWaiters.clear();
  }

  /**
   * Step E1 — an edit: validated like the server does (`answerValueProblem`), shown at once, written to Dexie in
   * one transaction (clock + 1, dirty, this device's id), then sent 1.5 s after the last edit (debounce).
   *
   * Writes run one at a time (`serial`). A keystroke made while its question's write is still waiting for its
   * turn joins that write (the write takes the newest text, and both calls get its result): a burst of typing
   * costs one transaction per turn, not one per key, so the device never falls behind the candidate, and a
   * crash right after typing loses at most the keystrokes of the transaction then committing.
   */
  edit = (questionId: string, value: AnswerValue): Promise<EditResult> => {
    const refusal = this.editRefusal(questionId, value);
    if (refusal) return Promise.resolve(refusal);
    const deviceId = this.deviceId!;
    const token = {};
    this.optimistic.set(questionId, { value, at: this.now(), token });
    this.emit();

    const waiting = this.waitingWrites.get(questionId);
    if (waiting) {
      waiting.value = value;
      waiting.token = token;
      return waiting.result;
    }
    const write: WaitingWrite = { value, token, result: Promise.resolve({ ok: true, version: 0 }) };
    this.waitingWrites.set(questionId, write);

    const run = this.serial(async () => {
      // From here on a new keystroke queues a write of its own.
      if (this.waitingWrites.get(questionId) === write) this.waitingWrites.delete(questionId);
      const outcome = await writeEdit(this.db, {
        attemptId: this.attemptId,
        questionId,
        value: write.value,
        deviceId,
        now: this.now(),
      });
      if (outcome.kind === "written") {
        this.attempt = outcome.attempt;
        this.drafts.set(questionId, outcome.draft);
      }
      return outcome;
    });
    const clearOptimistic = () => {
      if (this.optimistic.get(questionId)?.token === write.token) this.optimistic.delete(questionId);
    };
    write.result = this.track(
      run.then(
        (outcome): EditResult => {
          clearOptimistic();
          if (outcome.kind === "refused") {
            if (outcome.reason !== "no-attempt") void this.reloadAttempt();
            this.emit();
            return { ok: false, reason: outcome.reason, message: EDIT_REFUSAL_MESSAGES[outcome.reason] };
          }
          this.emit();
          this.afterLocalWrite([questionId], true);
          return { ok: true, version: outcome.draft.version };
        },
        (): EditResult => {
          clearOptimistic();
          this.emit();
          return { ok: false, reason: "storage", message: EDIT_REFUSAL_MESSAGES.storage };
        },
      ),
    );
    return write.result;
  };

  /** Flags or unflags a question for review (kept on this device only). */
  toggleFlag = async (questionId: string): Promise<void> => {
    await this.startPromise;
    if (!this.attempt) return;
    await this.serial(async () => {
      this.attempt = await toggleFlagRecord(this.db, { attemptId: this.attemptId, questionId });
    });
    this.emit();
    this.afterLocalWrite([], false);
  };

  /**
   * Step S1 — Submit. The first call stores the final delta and the digest as the exact request body and
   * moves to `submitting` (editing is refused from then on, in every tab); the leader sends it with the stored
   * Idempotency-Key until the server answers (S2). Resolves when the attempt is submitted, or when the server
   * gave a final answer (`submitError`; calling submit again sends the same body again). A second call while
   * one is running returns the same promise.
   */
  submit = (): Promise<SyncSnapshot> => {
    if (this.submitPromise) return this.submitPromise;
    if (this.attempt?.submitState === "unsubmitted") {
      // The button locks on the click itself, before any await.
      this.submitRequested = true;
      this.emit();
    }
    const promise = this.runSubmitClick().finally(() => {
      if (this.submitPromise === promise) this.submitPromise = null;
    });
    this.submitPromise = promise;
    return promise;
  };

  /** Send now: skips the debounce and the backoff wait (never a Retry-After), lets an open breaker probe once. */
  flushNow = async (): Promise<void> => {
    this.trigger("manual");
    if (!this.isLeader) this.post({ type: "flush" });
    await this.inFlightPromise;
  };

  // ---------------------------------------------------------------------------------------------------------
  // L — load, leadership, merge

  private async boot(generation: number): Promise<void> {
    // L1. The device id and whatever the device already holds.
    const deviceId = this.deviceId ?? (await getOrCreateDeviceId(this.db, this.now()));
    this.deviceId = deviceId;
    if (this.initialView) {
      const view = this.initialView;
      // L2. The page's server render is merged like any server view (greater (version, deviceId) wins). Its clock
      // offset is a rough first estimate (render time unknown); the leader's GET replaces it.
      await this.serial(async () => {
        const existing = await getAttemptRecord(this.db, this.attemptId);
        await saveServerView(this.db, {
          view,
          deviceId,
          serverOffsetMs: existing ? null : Date.parse(view.serverTime) - this.now(),
          now: this.now(),
          isSync: false,
        });
      });
    }
    await this.reloadAll();
    if (generation !== this.generation) return;
    this.ready = true;
    this.emit();

    this.attachListeners();
    const env = this.env!;
    this.channel = env.openChannel?.(`holdfast-${this.attemptId}`, (data) => this.onTabMessage(data)) ?? null;
    this.requestLeadership(generation);
  }

  /**
   * T1 — one tab per attempt holds the sync role: a Web Lock held for the engine's lifetime. When the leader
   * closes, the browser grants the lock to the next waiting tab, which reloads Dexie (every edit is there
   * before anything else) and carries on. Without Web Locks this tab is the leader.
   */
  private requestLeadership(generation: number): void {
    const locks = this.env?.locks ?? null;
    if (!locks) {
      this.becomeLeader(generation);
      return;
    }
    const abort = new AbortController();
    this.lockAbort = abort;
    locks
      .request(`holdfast-sync-${this.attemptId}`, { signal: abort.signal }, () => {
        if (generation !== this.generation) return Promise.resolve();
        return new Promise<void>((resolve) => {
          this.releaseLeadership = resolve;
          this.becomeLeader(generation);
        });
      })
      .catch(() => undefined);
    // Ask the current leader for its network state, to show the same banner in every tab.
    this.post({ type: "hello" });
  }

  private becomeLeader(generation: number): void {
    if (generation !== this.generation || !this.running) return;
    this.isLeader = true;
    this.leaderNet = null;
    this.needsMerge = true;
    this.track(
      (async () => {
        await this.reloadAll();
        if (generation !== this.generation) return;
        // S5. A submit that got a final answer before is tried once more by each new page (or new leader).
        if (this.attempt?.submitState === "submitting" && this.attempt.submitError) await this.clearSubmitError();
        this.emit();
        this.scheduleProbe();
        this.sendHeartbeat();
        this.openStream();
        this.pump();
      })(),
    );
  }

  /** L3 — GET the server's state and merge it (step L2 rule) into Dexie. */
  private async runMerge(): Promise<void> {
    const sentAt = this.now();
    const outcome = await this.request("GET", "", undefined);
    const receivedAt = this.now();
    const verdict = this.classify(outcome);
    if (verdict === "ok") {
      const parsed = AttemptViewSchema.safeParse(outcome.kind === "answer" ? outcome.body : null);
      if (!parsed.success) return this.onRetryable({ kind: "network", message: "unreadable attempt" });
      const view = parsed.data;
      await this.serial(async () => {
        const saved = await saveServerView(this.db, {
          view,
          deviceId: this.deviceId!,
          serverOffsetMs: Date.parse(view.serverTime) - (sentAt + receivedAt) / 2,
          now: receivedAt,
          isSync: true,
        });
        this.attempt = saved.attempt;
        this.drafts = new Map(saved.drafts.map((draft) => [draft.questionId, draft]));
      });
      this.needsMerge = false;
      this.lastMergeAt = receivedAt;
      this.onAnswered();
      this.afterLocalWrite(null, false);
      return;
    }
    if (verdict === "retry") return this.onRetryable(outcome);
    this.blocked = this.recordedError(outcome);
    this.onAnswered();
  }

  // ---------------------------------------------------------------------------------------------------------
  // F — flush

  /**
   * F1 — the pump: at most one sync request in flight per attempt. Picks the next job (a stored submit first,
   * then a pending merge, then the dirty drafts), waits out the debounce, the backoff, a Retry-After and an
   * open breaker, then runs it; when it ends, the pump looks again.
   */
  private pump(): void {
    if (!this.running || !this.isLeader || this.inFlight) return;
    const job = this.nextJob();
    if (!job) {
      this.clearRetryTimer();
      return;
    }
    if (job === "autosave" && this.debounceTimer !== null) return;
    const now = this.now();
    const readyAt = Math.max(this.notBefore, this.backoffUntil, breakerReadyAt(this.breaker));
    if (readyAt > now) {
      this.scheduleRetry(readyAt - now);
      return;
    }
    this.clearRetryTimer();
    this.breaker = breakerBeforeRequest(this.breaker, now);
    this.inFlight = job;
    this.nextAttemptAt = null;
    this.inFlightPromise = this.track(this.runJob(job).finally(() => this.afterInFlight()));
  }

  private nextJob(): Job | null {
    const attempt = this.attempt;
    if (attempt?.submitState === "submitting" && attempt.submitBody !== null && attempt.submitError === null)
      return "submit";
    if (this.blocked) return null;
    if (this.needsMerge) return "merge";
    if (!attempt || attempt.closed || attempt.submitState !== "unsubmitted") return null;
    for (const draft of this.drafts.values()) if (draft.dirty === 1 && draft.rejected === null) return "autosave";
    return null;
  }

  private async runJob(job: Job): Promise<void> {
    try {
      if (job === "merge") await this.runMerge();
      else if (job === "submit") await this.runSubmitRequest(false);
      else {
        const dirty = await listDirty(this.db, this.attemptId);
        // The in-memory copy said there was work and Dexie says not: re-read it, so the pump cannot spin.
        if (dirty.length === 0) await this.reloadAll();
        else await this.runAutosave(dirty, false);
      }
    } catch (error) {
      // A storage failure or a bug: back off like a failed request, so it can never spin.
      console.error("holdfast sync:", error);
      this.onRetryable({ kind: "network", message: error instanceof Error ? error.message : String(error) });
    }
  }

  /**
   * F2 — one autosave: the dirty drafts (oldest first, under the body budget) as one delta. F3 — classify the
   * answer per the retry discipline; F4 — acknowledge (200), F5 — closed (409), F6 — final 4xx.
   */
  private async runAutosave(dirty: readonly DraftRecord[], keepalive: boolean): Promise<void> {
    const deviceId = this.deviceId;
    if (!deviceId || dirty.length === 0) return;
    const budget = keepalive ? this.config.keepaliveMaxBytes : this.config.maxDeltaBytes;
    const sent: DraftRecord[] = [];
    const answers: { questionId: string; value: AnswerValue; version: number; editedAt: string }[] = [];
    let size = utf8Length(JSON.stringify({ deviceId, answers: [] }));
    for (const draft of dirty) {
      const item = {
        questionId: draft.questionId,
        value: draft.value,
        version: draft.version,
        editedAt: new Date(draft.editedAt).toISOString(),
      };
      const itemSize = utf8Length(JSON.stringify(item)) + 1;
      if (size + itemSize > budget) {
        if (keepalive) continue; // A keepalive body has a hard cap: send the edits that fit.
        if (sent.length > 0) break; // The rest goes in the next request; one answer alone always fits the server's limit.
      }
      sent.push(draft);
      answers.push(item);
      size += itemSize;
    }
    if (sent.length === 0) return;
    for (const draft of sent) this.inFlightSent.set(draft.questionId, draft.version);

    const sentAt = this.now();
    const outcome = await this.request("POST", "/answers", JSON.stringify({ deviceId, answers }), { keepalive });
    const receivedAt = this.now();
    const verdict = this.classify(outcome);

    if (verdict === "ok") {
      const parsed = AutosaveResponseSchema.safeParse(outcome.kind === "answer" ? outcome.body : null);
      if (!parsed.success) return this.onRetryable({ kind: "network", message: "unreadable autosave answer" });
      const response = parsed.data;
      // F4.
      const changed = await this.serial(async () => {
        const result = await markAcknowledged(this.db, {
          attemptId: this.attemptId,
          deviceId,
          response,
          facts: {
            serverTime: response.serverTime,
            deadline: response.deadline,
            serverOffsetMs: Date.parse(response.serverTime) - (sentAt + receivedAt) / 2,
          },
          now: receivedAt,
        });
        this.attempt = result.attempt;
        for (const draft of result.drafts) this.drafts.set(draft.questionId, draft);
        return result.drafts;
      });
      this.onAnswered();
      // Nothing moved (every sent draft was edited again meanwhile): wait for that edit's debounce, never spin.
      if (changed.length === 0) this.backoffUntil = this.now() + this.config.debounceMs;
      this.afterLocalWrite(
        changed.map((draft) => draft.questionId),
        false,
      );
      return;
    }
    if (verdict === "retry") return this.onRetryable(outcome);
    if (outcome.kind !== "answer") return;

    if (verdict === "closed") {
      // F5. The attempt is frozen and the server kept this delta as late answers: those drafts are delivered
      // (marked late, kept on the device). Stop sending; a read of the attempt brings the submission's facts.
      const details = outcome.details ?? {};
      const serverTime = typeof details.serverTime === "string" ? details.serverTime : null;
      const deadline = typeof details.deadline === "string" ? details.deadline : undefined;
      await this.serial(async () => {
        this.attempt = await recordClosed(this.db, {
          attemptId: this.attemptId,
          closed: {
            reason: outcome.code === "DEADLINE_PASSED" ? "DEADLINE_PASSED" : "ALREADY_SUBMITTED",
            submissionId: typeof details.submissionId === "string" ? details.submissionId : null,
            at: receivedAt,
          },
          facts: serverTime ? { serverTime, deadline } : null,
        });
        const late = await markDeliveredLate(this.db, {
          attemptId: this.attemptId,
          items: sent.map((draft) => ({ questionId: draft.questionId, version: draft.version })),
          at: receivedAt,
        });
        for (const draft of late) this.drafts.set(draft.questionId, draft);
        return late;
      });
      this.needsMerge = true;
      this.onAnswered();
      this.afterLocalWrite([], false);
      return;
    }

    // F6. Final: not retried. About the answers → those drafts are marked rejected (kept, shown, not resent
    // until edited). About the session or the attempt (401, 403, 404 …) → sending stops until a reload or a
    // "retry now"; the drafts stay pending, because nothing is wrong with them.
    const error = this.recordedError(outcome);
    if (ANSWER_PROBLEM_STATUSES.has(outcome.status)) {
      const named = this.issueIndexes(outcome.details);
      const items = (
        named.length > 0 ? named.map((index) => sent[index]).filter((draft) => draft !== undefined) : sent
      ).map((draft) => ({ questionId: draft.questionId, version: draft.version }));
      const changed = await this.serial(async () => {
        const rows = await markRejected(this.db, { attemptId: this.attemptId, items, error });
        for (const draft of rows) this.drafts.set(draft.questionId, draft);
        return rows;
      });
      this.onAnswered();
      this.afterLocalWrite(
        changed.map((draft) => draft.questionId),
        false,
      );
      return;
    }
    this.blocked = error;
    this.onAnswered();
  }

  /** The indexes of `answers.N…` in a 422's `details.issues`. */
  private issueIndexes(details: Record<string, unknown> | null): number[] {
    const issues = details?.issues;
    if (!Array.isArray(issues)) return [];
    const indexes = new Set<number>();
    for (const issue of issues as unknown[]) {
      const path = typeof issue === "object" && issue !== null ? (issue as { path?: unknown }).path : undefined;
      const match = typeof path === "string" ? ISSUE_PATH.exec(path) : null;
      if (match?.[1] !== undefined) indexes.add(Number(match[1]));
    }
    return [...indexes];
  }

  /** F3 — the contract's retry classes (lib/shared/backoff.ts). */
  private classify(outcome: HttpOutcome) {
    return outcome.kind === "network" ? classifySyncResponse(null) : classifySyncResponse(outcome.status, outcome.code);
  }

  /** Any answer that is not a retry class: the server is reachable, the failure streak ends. */
  private onAnswered(): void {
    this.breaker = breakerOnSuccess();
    this.lastFailure = null;
    this.backoffUntil = 0;
    this.notBefore = 0;
    this.retryAt = null;
    this.nextAttemptAt = null;
    this.emit();
  }

  /**
   * F3 — a retry class: full-jitter backoff (0.5 s doubling to 8 s) from the failure streak, never sooner
   * than Retry-After; the breaker counts the failure (5 in a row → open for 20 s).
   */
  private onRetryable(outcome: HttpOutcome): void {
    const now = this.now();
    this.breaker = breakerOnFailure(this.breaker, now, this.config.breaker);
    const retryAfterMs = outcome.kind === "answer" ? outcome.retryAfterMs : null;
    const delay = backoffDelay(this.breaker.failures - 1, this.random, retryAfterMs);
    this.backoffUntil = now + delay;
    this.notBefore = retryAfterMs !== null ? now + retryAfterMs : 0;
    this.retryAt = outcome.kind === "answer" && outcome.status === 429 ? now + delay : null;
    this.lastFailure = outcome.kind === "network" ? "network" : "server";
    this.emit();
  }

  private recordedError(outcome: HttpOutcome): RecordedError {
    if (outcome.kind === "network") return { status: 0, code: null, message: outcome.message };
    return {
      status: outcome.status,
      code: outcome.code,
      message: outcome.message ?? `The server answered ${outcome.status}.`,
    };
  }

  /**
   * F7 — something says "try now": the `online` event, the tab becoming visible, the periodic probe, a
   * "retry now" click. The backoff wait is dropped (never a Retry-After); `online` and a click also let an
   * open breaker probe at once; visible also re-reads the server if the last merge is over 30 s old (another
   * device may have written) and lifts a block (the candidate may have signed in again in another tab).
   */
  private trigger(reason: "online" | "visible" | "probe" | "manual"): void {
    if (!this.running) return;
    this.backoffUntil = 0;
    if (reason === "online" || reason === "manual") this.breaker = breakerForceProbe(this.breaker);
    if (reason === "visible" || reason === "manual") {
      if (this.blocked) this.needsMerge = true;
      this.blocked = null;
    }
    // Coming back to the tab after a while: another device may have written. Not on every glance: a GET carries
    // the whole paper.
    if (reason === "visible" && this.now() - this.lastMergeAt >= this.config.remergeAfterMs) this.needsMerge = true;
    if (reason === "manual" && this.attempt?.submitError) void this.clearSubmitError();
    this.clearDebounce();
    this.pump();
  }

  private scheduleDebounce(): void {
    this.clearDebounce();
    this.debounceTimer = this.timers.setTimeout(() => {
      this.debounceTimer = null;
      if (this.isLeader) this.pump();
      else this.post({ type: "flush" });
    }, this.config.debounceMs);
  }

  private clearDebounce(): void {
    if (this.debounceTimer !== null) this.timers.clearTimeout(this.debounceTimer);
    this.debounceTimer = null;
  }

  private scheduleRetry(ms: number): void {
    this.clearRetryTimer();
    this.nextAttemptAt = this.now() + ms;
    this.retryTimer = this.timers.setTimeout(() => {
      this.retryTimer = null;
      this.pump();
    }, ms);
    this.emit();
  }

  private clearRetryTimer(): void {
    if (this.retryTimer !== null) this.timers.clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  /** F7 — the periodic probe: while anything is pending or failing, flush every 10 s whatever the events said. */
  private scheduleProbe(): void {
    if (this.probeTimer !== null) this.timers.clearTimeout(this.probeTimer);
    this.probeTimer = this.timers.setTimeout(() => {
      this.probeTimer = null;
      if (!this.running || !this.isLeader) return;
      const snapshot = this.snapshot;
      if (
        snapshot.consecutiveFailures > 0 ||
        snapshot.pendingCount > 0 ||
        snapshot.submitState === "submitting" ||
        this.needsMerge
      ) {
        this.trigger("probe");
      }
      this.scheduleProbe();
    }, this.config.probeMs);
  }

  /**
   * F8 — the page is being hidden or unloaded: send what is dirty now, with `keepalive` so the request survives
   * the page (best effort; browsers cap keepalive bodies at 64 KiB, so only what fits). The body is built from
   * memory, synchronously: an unloading page may not live through another IndexedDB read. If a request is
   * already in flight, only drafts it does not carry are sent; what does not get through is in Dexie for the
   * next load. A Retry-After and an open breaker are respected even here.
   */
  private onHidden(): void {
    if (!this.running || !this.isLeader) return;
    this.clearDebounce();
    // The backoff wait is skipped (this may be the last chance), but never a Retry-After or an open breaker.
    const now = this.now();
    if (this.notBefore > now || breakerReadyAt(this.breaker) > now) return;
    this.breaker = breakerBeforeRequest(this.breaker, now);
    const attempt = this.attempt;
    if (attempt?.submitState === "submitting" && attempt.submitBody !== null && attempt.submitError === null) {
      if (this.inFlight === null && utf8Length(attempt.submitBody) <= this.config.keepaliveMaxBytes) {
        this.inFlight = "submit";
        this.inFlightPromise = this.track(
          this.runSubmitRequest(true)
            .catch(() => undefined)
            .finally(() => this.afterInFlight()),
        );
      }
      return;
    }
    if (!attempt || attempt.closed || attempt.submitState !== "unsubmitted" || this.blocked) return;
    const dirty = [...this.drafts.values()]
      .filter(
        (draft) =>
          draft.dirty === 1 && draft.rejected === null && this.inFlightSent.get(draft.questionId) !== draft.version,
      )
      .sort((a, b) => a.editedAt - b.editedAt);
    if (dirty.length === 0) return;
    if (this.inFlight === null) {
      this.inFlight = "autosave";
      this.inFlightPromise = this.track(
        this.runAutosave(dirty, true)
          .catch(() => undefined)
          .finally(() => this.afterInFlight()),
      );
    } else {
      // The documented exception to "one in flight": the page is going away and the running request may die with it.
      this.track(this.runAutosave(dirty, true).catch(() => undefined));
    }
  }

  private afterInFlight(): void {
    this.inFlight = null;
    this.inFlightPromise = null;
    this.inFlightSent = new Map();
    this.emit();
    this.pump();
  }

  // ---------------------------------------------------------------------------------------------------------
  // S — submit

  private async runSubmitClick(): Promise<SyncSnapshot> {
    await this.startPromise;
    const current = this.attempt;
    if (!current || !this.deviceId || current.submitState === "submitted") {
      this.submitRequested = false;
      this.emit();
      return this.snapshot;
    }

    if (current.submitState === "unsubmitted") {
      // S1. Editing is locked in this tab (submit() set submitRequested); take the final delta and store the
      // body in one transaction, which locks editing in every tab.
      this.submitRequested = true;
      try {
        await this.serial(async () => {
          for (;;) {
            const drafts = await listDrafts(this.db, this.attemptId);
            // The digest of the full local answer map, computed outside the transaction (Web Crypto is not Dexie).
            const digest = await answersDigest(drafts);
            const expected = new Map(drafts.map((draft) => [draft.questionId, draftSignature(draft)]));
            const outcome = await storeSubmitBody(this.db, {
              attemptId: this.attemptId,
              deviceId: this.deviceId!,
              digest,
              expected,
              now: this.now(),
            });
            if (outcome.kind === "changed") continue; // Another tab wrote meanwhile: digest again.
            if (outcome.kind === "stored" || outcome.kind === "already") this.attempt = outcome.attempt;
            return;
          }
        });
      } finally {
        this.submitRequested = false;
      }
      this.emit();
      this.afterLocalWrite(null, true);
    } else if (current.submitError) {
      // A click after a final answer: send the same body again, once.
      await this.clearSubmitError();
    }

    if (this.attempt?.submitState !== "submitting") return this.snapshot;
    this.trigger("probe");
    return this.waitForSubmitOutcome();
  }

  private async clearSubmitError(): Promise<void> {
    await this.serial(async () => {
      this.attempt = await recordSubmitError(this.db, { attemptId: this.attemptId, error: null });
    });
    this.emit();
    this.afterLocalWrite(null, true);
  }

  private waitForSubmitOutcome(): Promise<SyncSnapshot> {
    return new Promise((resolve) => {
      const check = () => {
        const snapshot = this.snapshot;
        if (!this.running || snapshot.submitState === "submitted" || snapshot.submitError !== null) {
          this.submitWaiters.delete(check);
          resolve(snapshot);
        }
      };
      this.submitWaiters.add(check);
      check();
    });
  }

  /**
   * S2 — send the stored body with the stored Idempotency-Key, byte for byte, however often. S3 — 200: keep
   * the response (the receipt). S4 — 409 ALREADY_SUBMITTED (or DEADLINE_PASSED): done elsewhere; fetch the
   * submission's facts. S5 — any other final answer: shown, the body kept, sent again on reload or a click.
   */
  private async runSubmitRequest(keepalive: boolean): Promise<void> {
    const attempt = this.attempt;
    if (!attempt?.submitBody || !this.deviceId) return;
    const outcome = await this.request("POST", "/submit", attempt.submitBody, {
      keepalive,
      headers: { "Idempotency-Key": attempt.idempotencyKey },
      timeoutMs: this.config.submitTimeoutMs,
    });
    const receivedAt = this.now();
    const verdict = this.classify(outcome);
    if (verdict === "ok") {
      const parsed = SubmitResponseSchema.safeParse(outcome.kind === "answer" ? outcome.body : null);
      if (!parsed.success) return this.onRetryable({ kind: "network", message: "unreadable submit answer" });
      const response = parsed.data;
      await this.serial(async () => {
        const result = await recordSubmitted(this.db, {
          attemptId: this.attemptId,
          deviceId: this.deviceId!,
          response,
          // `submittedAt` is not the server's current time (a replay carries the first answer's): no clock facts.
          facts: null,
          now: receivedAt,
        });
        this.attempt = result.attempt;
        for (const draft of result.drafts) this.drafts.set(draft.questionId, draft);
      });
      this.onAnswered();
      this.afterLocalWrite(null, false);
      return;
    }
    if (verdict === "retry") return this.onRetryable(outcome);
    if (outcome.kind !== "answer") return;
    if (verdict === "closed") {
      const submissionId = typeof outcome.details?.submissionId === "string" ? outcome.details.submissionId : null;
      await this.serial(async () => {
        this.attempt = await recordSubmittedElsewhere(this.db, {
          attemptId: this.attemptId,
          info: { submissionId, submittedAt: null, digest: null },
          now: receivedAt,
        });
      });
      this.needsMerge = true; // S4: the GET brings the submission's time and digest.
      this.onAnswered();
      this.afterLocalWrite(null, false);
      return;
    }
    const error = this.recordedError(outcome);
    await this.serial(async () => {
      this.attempt = await recordSubmitError(this.db, { attemptId: this.attemptId, error });
    });
    this.onAnswered();
    this.afterLocalWrite(null, false);
  }

  // ---------------------------------------------------------------------------------------------------------
  // H — heartbeat

  /**
   * H1 — every 15 s while the page is open, and soon after a change of state (online/offline, pending 0 ↔ > 0,
   * failures starting or stopping; coalesced to one per 5 s). Skipped while the breaker is open: the server
   * is not being asked anything then.
   */
  private sendHeartbeat(): void {
    if (!this.running || !this.isLeader || !this.deviceId) return;
    if (this.heartbeatTimer !== null) this.timers.clearTimeout(this.heartbeatTimer);
    this.heartbeatTimer = this.timers.setTimeout(() => {
      this.heartbeatTimer = null;
      this.sendHeartbeat();
    }, this.config.heartbeatMs);
    if (this.heartbeatInFlight) {
      this.heartbeatAgain = true;
      return;
    }
    if (this.breaker.kind === "open" || !this.attempt) return;
    this.heartbeatInFlight = true;
    this.lastBeatKey = this.beatKey();
    this.lastBeatAt = this.now();
    this.track(
      this.runHeartbeat()
        .catch(() => undefined)
        .finally(() => {
          this.heartbeatInFlight = false;
          if (this.heartbeatAgain) {
            this.heartbeatAgain = false;
            this.maybeHeartbeatOnChange();
          }
        }),
    );
  }

  /** What a heartbeat reports at once when it changes; a newly learnt deadline is its acknowledgement (H4). */
  private beatKey(): string {
    const snapshot = this.snapshot;
    return `${snapshot.online}|${snapshot.pendingCount + snapshot.rejectedCount > 0}|${snapshot.consecutiveFailures > 0}|${snapshot.deadline}`;
  }

  private maybeHeartbeatOnChange(): void {
    if (!this.running || !this.isLeader || this.beatKey() === this.lastBeatKey) return;
    if (this.heartbeatInFlight) {
      this.heartbeatAgain = true;
      return;
    }
    const wait = this.lastBeatAt + this.config.heartbeatMinGapMs - this.now();
    if (wait <= 0) {
      this.sendHeartbeat();
      return;
    }
    if (this.heartbeatTimer !== null) this.timers.clearTimeout(this.heartbeatTimer);
    this.heartbeatTimer = this.timers.setTimeout(() => {
      this.heartbeatTimer = null;
      this.sendHeartbeat();
    }, wait);
  }

  /** H2 — the body: the device's own view of its sync health. H3 — the answer corrects time and notices a submission. */
  private async runHeartbeat(): Promise<void> {
    const snapshot = this.snapshot;
    const storagePersisted = await this.env!.storagePersisted();
    const count = (n: number) => Math.min(LIMITS.maxVersion, Math.max(0, Math.floor(n)));
    const body = {
      deviceId: this.deviceId!,
      online: snapshot.online,
      // Unacknowledged work on the device: waiting edits and edits the server refused.
      pending: count(snapshot.pendingCount + snapshot.rejectedCount),
      oldestPendingMs: count(snapshot.oldestPendingAt === null ? 0 : this.now() - snapshot.oldestPendingAt),
      lastAckRevision: count(snapshot.lastAckRevision),
      clock: count(snapshot.clock),
      consecutiveFailures: count(snapshot.consecutiveFailures),
      storagePersisted,
      // The deadline on the candidate's screen: showing a proctor's extension acknowledges it (H4).
      ...(snapshot.deadline !== null ? { deadline: snapshot.deadline } : {}),
    };
    const sentAt = this.now();
    const outcome = await this.request("POST", "/heartbeat", JSON.stringify(body));
    const receivedAt = this.now();
    if (this.classify(outcome) !== "ok" || outcome.kind !== "answer") return;
    const parsed = HeartbeatResponseSchema.safeParse(outcome.body);
    if (!parsed.success) return;
    const response = parsed.data;
    await this.applyServerFacts(
      {
        serverTime: response.serverTime,
        deadline: response.deadline,
        serverOffsetMs: Date.parse(response.serverTime) - (sentAt + receivedAt) / 2,
      },
      response.status === "submitted",
      receivedAt,
    );
  }

  /**
   * H3 — time facts and the attempt's status from the server (a heartbeat's answer, or the presence stream):
   * a new deadline is shown at once; a submission made elsewhere closes the attempt and fetches its facts.
   */
  private async applyServerFacts(
    facts: { serverTime: string; deadline?: string; serverOffsetMs?: number },
    isSubmitted: boolean,
    receivedAt: number,
  ): Promise<void> {
    const wasClosed = this.attempt?.closed ?? null;
    await this.serial(async () => {
      const attempt = await applyHeartbeatFacts(this.db, {
        attemptId: this.attemptId,
        facts,
        isSubmitted,
        now: receivedAt,
      });
      if (attempt) this.attempt = attempt;
    });
    if (!wasClosed && this.attempt?.closed) {
      // Submitted elsewhere (a proctor, another device, the deadline): the GET brings the submission id.
      this.needsMerge = true;
      this.pump();
    }
    this.emit();
    this.afterLocalWrite(null, false);
  }

  // ---------------------------------------------------------------------------------------------------------
  // P — presence stream

  /**
   * P1 — while this tab holds the sync role, is online and the attempt is open, keep the page's event stream
   * open (`GET /api/attempts/{id}/events?deviceId=…`). The browser reconnects it by itself; the engine closes it
   * on `offline`, `pagehide` and stop, and opens it again on `online` and when the page is shown again.
   * Without it (no EventSource, or no such route yet) the 15 s heartbeat brings the same news, later.
   */
  private openStream(): void {
    const open = this.env?.openEventStream;
    if (!open || this.stream || !this.running || !this.isLeader || !this.deviceId) return;
    if (!(this.env?.isOnline() ?? true) || this.attempt?.closed || this.attempt?.submitState === "submitted") return;
    const url = `${this.baseUrl}/api/attempts/${encodeURIComponent(this.attemptId)}/events?deviceId=${encodeURIComponent(this.deviceId)}`;
    const generation = this.generation;
    this.stream = open(url, PRESENCE_EVENTS, (name, data) => {
      if (generation !== this.generation || !this.running) return;
      for (const event of readPresenceEvent(name, data) ?? []) this.track(this.onPresenceEvent(event));
    });
  }

  private closeStream(): void {
    this.stream?.close();
    this.stream = null;
  }

  /**
   * P2 — a deadline other than the one shown (a proctor's extension): show it and send a heartbeat at once,
   * which carries it and so acknowledges it (H4). A submission (a proctor's force-submit): the same path as a
   * heartbeat saying so; the page ends on its submitted screen.
   */
  private async onPresenceEvent(event: PresenceEvent): Promise<void> {
    const receivedAt = this.now();
    if (event.kind === "submitted") {
      // The stream stays open while the page does: its closing is what tells the dashboard the device left.
      await this.applyServerFacts({ serverTime: event.serverTime }, true, receivedAt);
      return;
    }
    if (event.deadline === this.snapshot.deadline) return;
    await this.applyServerFacts({ serverTime: event.serverTime, deadline: event.deadline }, false, receivedAt);
    this.sendHeartbeat();
  }

  // ---------------------------------------------------------------------------------------------------------
  // T — tabs

  /**
   * T2 — after writing Dexie: tell the other tabs (they re-read). New work is debounced in the tab where the
   * candidate types (a hidden leader's timers may be throttled by the browser); when that debounce ends, a
   * follower asks the leader to flush at once. A stored submit is sent at once.
   */
  private afterLocalWrite(questionIds: string[] | null, work: boolean): void {
    this.post({ type: "changed", questionIds });
    if (!work) return;
    if (this.attempt?.submitState === "submitting") {
      if (this.isLeader) this.pump();
      else this.post({ type: "flush" });
    } else {
      this.scheduleDebounce();
    }
  }

  private post(message: TabMessage): void {
    try {
      this.channel?.post(message);
    } catch {
      // A closed channel (the page is unloading): the other tabs re-read Dexie when they next take the role.
    }
  }

  private onTabMessage(data: unknown): void {
    if (!this.running || !isTabMessage(data)) return;
    if (data.type === "hello") {
      if (this.isLeader) this.post({ type: "net", net: this.netStatus() });
      return;
    }
    if (data.type === "net") {
      if (!this.isLeader) {
        this.leaderNet = data.net;
        this.emit();
      }
      return;
    }
    if (data.type === "flush") {
      // After any re-read already queued, so the leader sends what the follower wrote.
      this.track(
        this.serial(async () => undefined).then(() => {
          if (!this.isLeader) return;
          this.clearDebounce();
          this.pump();
        }),
      );
      return;
    }
    this.track(
      (async () => {
        await (data.questionIds === null ? this.reloadAll() : this.reload(data.questionIds));
        this.emit();
      })(),
    );
  }

  private netStatus(): NetStatus {
    const online = this.isOnline();
    return {
      online,
      connection: this.connection(online),
      consecutiveFailures: this.breaker.failures,
      retryAt: this.retryAt,
      nextAttemptAt: this.nextAttemptAt,
      breaker: this.breaker.kind,
      blocked: this.blocked,
    };
  }

  private isOnline(): boolean {
    const navigatorOnline = this.env?.isOnline() ?? true;
    return navigatorOnline && !(this.lastFailure === "network" && this.breaker.failures >= 2);
  }

  private connection(online: boolean): ConnectionState {
    if (!online) return "offline";
    if (this.breaker.failures > 0 || this.breaker.kind !== "closed" || this.retryAt !== null) return "unstable";
    return "ok";
  }

  // ---------------------------------------------------------------------------------------------------------
  // Plumbing

  private readonly onOnline = () => {
    this.emit();
    this.trigger("online");
    this.openStream();
  };
  private readonly onOffline = () => {
    this.closeStream();
    this.emit();
  };
  private readonly onVisibility = () => {
    if (this.env?.isVisible() ?? true) {
      this.trigger("visible");
      // Back from the back/forward cache after a pagehide closed it.
      this.openStream();
    } else this.onHidden();
  };
  private readonly onPageHide = () => {
    this.closeStream();
    this.onHidden();
  };

  private attachListeners(): void {
    const env = this.env!;
    env.window?.addEventListener("online", this.onOnline);
    env.window?.addEventListener("offline", this.onOffline);
    env.window?.addEventListener("pagehide", this.onPageHide);
    env.document?.addEventListener("visibilitychange", this.onVisibility);
  }

  private detachListeners(): void {
    const env = this.env;
    env?.window?.removeEventListener("online", this.onOnline);
    env?.window?.removeEventListener("offline", this.onOffline);
    env?.window?.removeEventListener("pagehide", this.onPageHide);
    env?.document?.removeEventListener("visibilitychange", this.onVisibility);
  }

  private request(
    method: "GET" | "POST",
    suffix: string,
    body: string | undefined,
    extra: { keepalive?: boolean; headers?: Record<string, string>; timeoutMs?: number } = {},
  ): Promise<HttpOutcome> {
    return send({
      fetch: this.fetchFn,
      timers: this.timers,
      now: this.now,
      method,
      url: `${this.baseUrl}/api/attempts/${encodeURIComponent(this.attemptId)}${suffix}`,
      body,
      headers: extra.headers,
      keepalive: extra.keepalive,
      timeoutMs: extra.timeoutMs ?? this.config.requestTimeoutMs,
    });
  }

  /**
   * Every Dexie operation whose result updates the in-memory copy runs through this queue, one after another,
   * so the copy always reflects transactions in the order they ran (a slow re-read can never overwrite a newer
   * edit). Network requests never run inside it.
   */
  private serial<T>(operation: () => Promise<T>): Promise<T> {
    const run = this.queue.then(operation, operation);
    this.queue = run.catch(() => undefined);
    return this.track(run);
  }

  private track<T>(promise: Promise<T>): Promise<T> {
    this.tasks.add(promise);
    const remove = () => this.tasks.delete(promise);
    promise.then(remove, remove);
    return promise;
  }

  private reloadAll(): Promise<void> {
    return this.serial(async () => {
      const attempt = await getAttemptRecord(this.db, this.attemptId);
      const drafts = await listDrafts(this.db, this.attemptId);
      this.attempt = attempt ?? this.attempt;
      this.drafts = new Map(drafts.map((draft) => [draft.questionId, draft]));
    });
  }

  private reload(questionIds: readonly string[]): Promise<void> {
    return this.serial(async () => {
      const attempt = await getAttemptRecord(this.db, this.attemptId);
      const drafts = await getDrafts(this.db, this.attemptId, questionIds);
      this.attempt = attempt ?? this.attempt;
      for (const draft of drafts) this.drafts.set(draft.questionId, draft);
    });
  }

  private async reloadAttempt(): Promise<void> {
    await this.serial(async () => {
      this.attempt = (await getAttemptRecord(this.db, this.attemptId)) ?? this.attempt;
    });
    this.emit();
  }

  private editRefusal(questionId: string, value: AnswerValue): EditResult | null {
    const refuse = (reason: Exclude<EditResult, { ok: true }>["reason"], message?: string): EditResult => ({
      ok: false,
      reason,
      message: message ?? EDIT_REFUSAL_MESSAGES[reason],
    });
    if (!this.ready || !this.deviceId || !this.attempt) return refuse("not-ready");
    const question = this.attempt.questions.find((candidate) => candidate.id === questionId);
    if (!question) return refuse("unknown-question");
    const problem = answerValueProblem(question, value);
    if (problem) return refuse("invalid", `This answer ${problem}.`);
    if (this.submitRequested || this.attempt.submitState === "submitting") return refuse("submitting");
    if (this.attempt.submitState === "submitted") return refuse("submitted");
    if (this.attempt.closed) return refuse("closed");
    return null;
  }

  private emit(): void {
    this.snapshot = this.buildSnapshot();
    for (const listener of this.listeners) listener();
    for (const check of [...this.submitWaiters]) check();
    if (this.running && this.isLeader) {
      const net = this.netStatus();
      const key = JSON.stringify(net);
      if (key !== this.lastNetKey) {
        this.lastNetKey = key;
        this.post({ type: "net", net });
      }
      this.maybeHeartbeatOnChange();
    }
  }

  private buildSnapshot(): SyncSnapshot {
    const attempt = this.attempt;
    const view = this.initialView;
    const answers: Record<string, AnswerState> = {};
    let pendingCount = 0;
    let rejectedCount = 0;
    let oldestPendingAt: number | null = null;

    const put = (questionId: string, next: AnswerState) => {
      const cached = this.answerCache.get(questionId);
      const same =
        cached !== undefined &&
        cached.version === next.version &&
        cached.status === next.status &&
        cached.message === next.message &&
        cached.deviceId === next.deviceId &&
        cached.editedAt === next.editedAt &&
        sameValue(cached.value, next.value);
      const state = same ? cached : next;
      this.answerCache.set(questionId, state);
      answers[questionId] = state;
    };

    if (!this.ready && this.drafts.size === 0 && view) {
      for (const answer of view.answers) {
        put(answer.questionId, {
          value: answer.value,
          version: answer.version,
          status: "saved",
          editedAt: 0,
          deviceId: answer.deviceId,
        });
      }
    }
    for (const draft of this.drafts.values()) {
      const status = draft.rejected ? "rejected" : draft.dirty === 1 ? "pending" : draft.lateAt ? "late" : "saved";
      put(draft.questionId, {
        value: draft.value,
        version: draft.version,
        status,
        ...(draft.rejected ? { message: draft.rejected.message } : {}),
        editedAt: draft.editedAt,
        deviceId: draft.deviceId,
      });
    }
    for (const [questionId, shown] of this.optimistic) {
      const underlying = this.drafts.get(questionId);
      put(questionId, {
        value: shown.value,
        version: underlying?.version ?? 0,
        status: "pending",
        editedAt: shown.at,
        deviceId: this.deviceId ?? "",
      });
    }
    for (const state of Object.values(answers)) {
      if (state.status === "pending") {
        pendingCount += 1;
        if (oldestPendingAt === null || state.editedAt < oldestPendingAt) oldestPendingAt = state.editedAt;
      } else if (state.status === "rejected") {
        rejectedCount += 1;
      }
    }

    const net = this.isLeader || !this.leaderNet ? this.netStatus() : this.leaderNet;
    const now = this.now();
    const submitState =
      this.submitRequested && attempt?.submitState === "unsubmitted"
        ? "submitting"
        : (attempt?.submitState ?? "unsubmitted");
    const serverDigest = attempt?.submitResponse?.digest ?? attempt?.submittedElsewhere?.digest ?? null;
    const submitDigest = attempt?.submitDigest ?? null;
    const questions: readonly CandidateQuestion[] = attempt?.questions ?? view?.questions ?? [];

    return {
      attemptId: this.attemptId,
      ready: this.ready,
      storageError: this.storageError,
      deviceId: this.deviceId,
      examTitle: attempt?.examTitle ?? view?.examTitle ?? null,
      questions,
      answers,
      pendingCount,
      rejectedCount,
      oldestPendingAt,
      oldestPendingMs: oldestPendingAt === null ? 0 : Math.max(0, now - oldestPendingAt),
      online: net.online,
      connection: net.connection,
      consecutiveFailures: net.consecutiveFailures,
      lastSyncAt: attempt?.lastSyncAt ?? null,
      retryAt: net.retryAt,
      nextAttemptAt: net.nextAttemptAt,
      breaker: net.breaker,
      blocked: net.blocked,
      submitState,
      submitResponse: attempt?.submitResponse ?? null,
      submitError: attempt?.submitError ?? null,
      submittedElsewhere: attempt?.submittedElsewhere ?? null,
      digestMismatch:
        attempt?.submitResponse?.digestMatches === false ||
        (serverDigest !== null && submitDigest !== null && serverDigest !== submitDigest),
      submitDigest,
      closed:
        attempt?.closed ??
        (!attempt && view?.submission
          ? { reason: "ALREADY_SUBMITTED", submissionId: view.submission.submissionId, at: 0 }
          : null),
      deadline: attempt?.deadline ?? view?.deadline ?? null,
      acceptsUntil: attempt?.acceptsUntil ?? view?.acceptsUntil ?? null,
      serverOffsetMs: attempt?.serverOffsetMs ?? 0,
      flagged: attempt?.flagged ?? [],
      clock: attempt?.clock ?? 0,
      lastAckRevision: attempt?.lastAckRevision ?? 0,
      isLeader: this.isLeader,
    };
  }
}
