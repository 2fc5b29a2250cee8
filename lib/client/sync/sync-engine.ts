import { answerValueProblem } from "@/lib/shared/answers";
import type { AnswerValue, AttemptView } from "@/lib/shared/schemas/attempts";

import { getAttemptRecord, saveServerView, toggleFlag as toggleFlagRecord } from "../offline/attempts";
import type { HoldfastDb } from "../offline/db";
import { getOrCreateDeviceId } from "../offline/device";
import { writeEdit } from "../offline/drafts";
import { clockOffsetMs } from "./clock";
import { browserEnvironment, type SyncEnvironment } from "./environment";
import { Heartbeat, recordServerFacts, type ServerFacts } from "./heartbeat";
import type { FetchLike, Timers } from "./http";
import { clearSubmitErrorRecord, storeFinalDelta } from "./job-submit";
import { SyncKernel } from "./kernel";
import { PresenceStream } from "./presence";
import { Scheduler } from "./scheduler";
import { buildSnapshot } from "./snapshot";
import { DEFAULT_SYNC_CONFIG, type SyncConfig } from "./sync-config";
import { EDIT_REFUSAL_MESSAGES, type AnswerState, type EditResult, type SyncSnapshot } from "./sync-state";
import { Tabs } from "./tabs";

/**
 * The candidate's sync engine, one per attempt per tab (docs/sync-protocol.md, "The client"). Framework-free:
 * React reads it through `subscribe`/`getSnapshot`. Numbered steps refer to that section:
 *
 * - L: load and merge (start, leadership, GET /api/attempts/{id}; job-merge.ts);
 * - E: edit (validate, one Dexie transaction, debounce; here);
 * - F: flush (one request in flight, the retry discipline: scheduler.ts; the autosave: job-autosave.ts);
 * - S: submit (the stored body and key, resent until the server answers; job-submit.ts);
 * - H: heartbeat (heartbeat.ts);
 * - P: presence stream (the server tells the page at once of a proctor's extension or force-submit; presence.ts);
 * - T: tabs (Web Locks leadership, BroadcastChannel; tabs.ts).
 *
 * This class is the façade that wires them: the kernel (kernel.ts) holds the clock, the requests, the serial
 * queue and the in-memory copy of Dexie; the snapshot the page reads is built by snapshot.ts.
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

/** An edit's write waiting its turn: it writes the newest `value`, and clears the optimistic value of `token`. */
type WaitingWrite = { value: AnswerValue; token: object; result: Promise<EditResult> };

export class SyncEngine {
  readonly attemptId: string;
  private readonly kernel: SyncKernel;
  private readonly scheduler: Scheduler;
  private readonly heartbeat: Heartbeat;
  private readonly presence: PresenceStream;
  private readonly tabs: Tabs;
  private readonly initialView: AttemptView | null;
  private env: SyncEnvironment | null;

  private readonly listeners = new Set<() => void>();
  private snapshot: SyncSnapshot;
  private readonly answerCache = new Map<string, AnswerState>();
  /** Edits shown before their Dexie write finished (the token says which edit put it there). */
  private readonly optimistic = new Map<string, { value: AnswerValue; at: number; token: object }>();
  private readonly waitingWrites = new Map<string, WaitingWrite>();
  private ready = false;
  private running = false;
  private generation = 0;
  private startPromise: Promise<void> | null = null;
  private storageError: string | null = null;
  private isLeader = false;
  private submitRequested = false;
  private submitPromise: Promise<SyncSnapshot> | null = null;
  private readonly submitWaiters = new Set<() => void>();

  constructor(options: SyncEngineOptions) {
    this.attemptId = options.attemptId;
    this.kernel = new SyncKernel(options);
    this.initialView = options.initialView ?? null;
    this.env = options.environment ?? null;
    const running = () => this.running;
    const isLeader = () => this.isLeader;
    const emit = () => this.emit();
    const snapshot = () => this.snapshot;
    const applyServerFacts = (facts: ServerFacts, isSubmitted: boolean, receivedAt: number) =>
      this.applyServerFacts(facts, isSubmitted, receivedAt);
    this.tabs = new Tabs(options.attemptId, {
      running,
      isLeader,
      emit,
      netStatus: () => this.scheduler.netStatus(),
      // After any re-read already queued, so the leader sends what the follower wrote.
      onFlushRequest: () =>
        this.kernel.track(
          this.kernel
            .serial(async () => undefined)
            .then(() => {
              if (!this.isLeader) return;
              this.scheduler.clearDebounce();
              this.scheduler.pump();
            }),
        ),
      onChanged: (questionIds) =>
        this.kernel.track(
          (async () => {
            await (questionIds === null ? this.kernel.reloadAll() : this.kernel.reload(questionIds));
            this.emit();
          })(),
        ),
    });
    this.scheduler = new Scheduler(this.kernel, {
      running,
      isLeader,
      emit,
      snapshot,
      postChanged: (questionIds) => this.tabs.post({ type: "changed", questionIds }),
      postFlush: () => this.tabs.post({ type: "flush" }),
      navigatorOnline: () => this.env?.isOnline() ?? true,
      clearSubmitError: () => this.clearSubmitError(),
    });
    this.heartbeat = new Heartbeat(this.kernel, {
      active: () => this.running && this.isLeader,
      snapshot,
      breakerOpen: () => this.scheduler.breaker.kind === "open",
      storagePersisted: () => this.env!.storagePersisted(),
      applyServerFacts,
    });
    this.presence = new PresenceStream(this.kernel, {
      environment: () => this.env,
      running,
      isLeader,
      generation: () => this.generation,
      shownDeadline: () => this.snapshot.deadline,
      applyServerFacts,
      sendHeartbeat: () => this.heartbeat.send(),
    });
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
    } while (this.kernel.busy());
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
    this.startPromise = this.kernel.track(
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
    this.scheduler.stopTimers();
    this.heartbeat.stop();
    this.detachListeners();
    this.presence.close();
    this.tabs.close();
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
    const kernel = this.kernel;
    const refusal = this.editRefusal(questionId, value);
    if (refusal) return Promise.resolve(refusal);
    const deviceId = kernel.deviceId!;
    const token = {};
    this.optimistic.set(questionId, { value, at: kernel.now(), token });
    this.emit();

    const waiting = this.waitingWrites.get(questionId);
    if (waiting) {
      waiting.value = value;
      waiting.token = token;
      return waiting.result;
    }
    const write: WaitingWrite = { value, token, result: Promise.resolve({ ok: true, version: 0 }) };
    this.waitingWrites.set(questionId, write);

    const run = kernel.serial(async () => {
      // From here on a new keystroke queues a write of its own.
      if (this.waitingWrites.get(questionId) === write) this.waitingWrites.delete(questionId);
      const outcome = await writeEdit(kernel.db, {
        attemptId: kernel.attemptId,
        questionId,
        value: write.value,
        deviceId,
        now: kernel.now(),
      });
      if (outcome.kind === "written") {
        kernel.attempt = outcome.attempt;
        kernel.drafts.set(questionId, outcome.draft);
      }
      return outcome;
    });
    const clearOptimistic = () => {
      if (this.optimistic.get(questionId)?.token === write.token) this.optimistic.delete(questionId);
    };
    write.result = kernel.track(
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
    const kernel = this.kernel;
    await this.startPromise;
    if (!kernel.attempt) return;
    await kernel.serial(async () => {
      kernel.attempt = await toggleFlagRecord(kernel.db, { attemptId: kernel.attemptId, questionId });
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
    if (this.kernel.attempt?.submitState === "unsubmitted") {
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

  /** Send now: skips the debounce and the backoff wait (never a Retry-After), lets an open breaker probe at once. */
  flushNow = async (): Promise<void> => {
    this.scheduler.trigger("manual");
    if (!this.isLeader) this.tabs.post({ type: "flush" });
    await this.scheduler.inFlightPromise;
  };

  // ---------------------------------------------------------------------------------------------------------
  // L — load, leadership

  private async boot(generation: number): Promise<void> {
    const kernel = this.kernel;
    // L1. The device id and whatever the device already holds.
    const deviceId = kernel.deviceId ?? (await getOrCreateDeviceId(kernel.db, kernel.now()));
    kernel.deviceId = deviceId;
    if (this.initialView) {
      const view = this.initialView;
      // L2. The page's server render is merged like any server view (greater (version, deviceId) wins). Its clock
      // offset is a rough first estimate (render time unknown); the leader's GET replaces it.
      await kernel.serial(async () => {
        const existing = await getAttemptRecord(kernel.db, kernel.attemptId);
        await saveServerView(kernel.db, {
          view,
          deviceId,
          serverOffsetMs: existing ? null : clockOffsetMs(Date.parse(view.serverTime), kernel.now(), kernel.now()),
          now: kernel.now(),
          isSync: false,
        });
      });
    }
    await kernel.reloadAll();
    if (generation !== this.generation) return;
    this.ready = true;
    this.emit();

    this.attachListeners();
    this.tabs.openChannel(this.env!);
    this.tabs.requestLeadership(
      this.env,
      () => generation === this.generation,
      () => this.becomeLeader(generation),
    );
  }

  private becomeLeader(generation: number): void {
    if (generation !== this.generation || !this.running) return;
    this.isLeader = true;
    this.tabs.leaderNet = null;
    this.scheduler.needsMerge = true;
    this.kernel.track(
      (async () => {
        await this.kernel.reloadAll();
        if (generation !== this.generation) return;
        // S5. A submit that got a final answer before is tried once more by each new page (or new leader).
        if (this.kernel.attempt?.submitState === "submitting" && this.kernel.attempt.submitError)
          await this.clearSubmitError();
        this.emit();
        this.scheduler.scheduleProbe();
        this.heartbeat.send();
        this.presence.open();
        this.scheduler.pump();
      })(),
    );
  }

  // ---------------------------------------------------------------------------------------------------------
  // S — the Submit click (the request itself is a job of the scheduler)

  private async runSubmitClick(): Promise<SyncSnapshot> {
    await this.startPromise;
    const current = this.kernel.attempt;
    if (!current || !this.kernel.deviceId || current.submitState === "submitted") {
      this.submitRequested = false;
      this.emit();
      return this.snapshot;
    }

    if (current.submitState === "unsubmitted") {
      // S1. Editing is locked in this tab (submit() set submitRequested); store the body, which locks every tab.
      this.submitRequested = true;
      try {
        await storeFinalDelta(this.kernel);
      } finally {
        this.submitRequested = false;
      }
      this.emit();
      this.afterLocalWrite(null, true);
    } else if (current.submitError) {
      // A click after a final answer: send the same body again, once.
      await this.clearSubmitError();
    }

    if (this.kernel.attempt?.submitState !== "submitting") return this.snapshot;
    this.scheduler.trigger("probe");
    return this.waitForSubmitOutcome();
  }

  private async clearSubmitError(): Promise<void> {
    await clearSubmitErrorRecord(this.kernel);
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

  // ---------------------------------------------------------------------------------------------------------
  // Wiring

  /** H3 — server facts (a heartbeat's answer, or the presence stream); a submission seen elsewhere is fetched. */
  private async applyServerFacts(facts: ServerFacts, isSubmitted: boolean, receivedAt: number): Promise<void> {
    if (await recordServerFacts(this.kernel, facts, isSubmitted, receivedAt)) {
      // Submitted elsewhere (a proctor, another device, the deadline): the GET brings the submission id.
      this.scheduler.needsMerge = true;
      this.scheduler.pump();
    }
    this.emit();
    this.afterLocalWrite(null, false);
  }

  /**
   * T2 — after writing Dexie: tell the other tabs (they re-read). New work is debounced in the tab where the
   * candidate types (a hidden leader's timers may be throttled by the browser); when that debounce ends, a
   * follower asks the leader to flush at once. A stored submit is sent at once.
   */
  private afterLocalWrite(questionIds: string[] | null, work: boolean): void {
    this.tabs.post({ type: "changed", questionIds });
    if (!work) return;
    if (this.kernel.attempt?.submitState === "submitting") {
      if (this.isLeader) this.scheduler.pump();
      else this.tabs.post({ type: "flush" });
    } else {
      this.scheduler.scheduleDebounce();
    }
  }

  private readonly onOnline = () => {
    this.emit();
    this.scheduler.trigger("online");
    this.presence.open();
  };
  private readonly onOffline = () => {
    this.presence.close();
    this.emit();
  };
  private readonly onVisibility = () => {
    if (this.env?.isVisible() ?? true) {
      this.scheduler.trigger("visible");
      // Back from the back/forward cache after a pagehide closed it.
      this.presence.open();
    } else this.scheduler.onHidden();
  };
  private readonly onPageHide = () => {
    this.presence.close();
    this.scheduler.onHidden();
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

  private async reloadAttempt(): Promise<void> {
    await this.kernel.reloadAttempt();
    this.emit();
  }

  private editRefusal(questionId: string, value: AnswerValue): EditResult | null {
    const refuse = (reason: Exclude<EditResult, { ok: true }>["reason"], message?: string): EditResult => ({
      ok: false,
      reason,
      message: message ?? EDIT_REFUSAL_MESSAGES[reason],
    });
    const attempt = this.kernel.attempt;
    if (!this.ready || !this.kernel.deviceId || !attempt) return refuse("not-ready");
    const question = attempt.questions.find((candidate) => candidate.id === questionId);
    if (!question) return refuse("unknown-question");
    const problem = answerValueProblem(question, value);
    if (problem) return refuse("invalid", `This answer ${problem}.`);
    if (this.submitRequested || attempt.submitState === "submitting") return refuse("submitting");
    if (attempt.submitState === "submitted") return refuse("submitted");
    if (attempt.closed) return refuse("closed");
    return null;
  }

  private emit(): void {
    this.snapshot = this.buildSnapshot();
    for (const listener of this.listeners) listener();
    for (const check of [...this.submitWaiters]) check();
    if (this.running && this.isLeader) {
      this.tabs.broadcastNet(this.scheduler.netStatus());
      this.heartbeat.sendOnChange();
    }
  }

  private buildSnapshot(): SyncSnapshot {
    const kernel = this.kernel;
    return buildSnapshot(
      {
        attemptId: kernel.attemptId,
        ready: this.ready,
        storageError: this.storageError,
        deviceId: kernel.deviceId,
        attempt: kernel.attempt,
        initialView: this.initialView,
        drafts: kernel.drafts,
        optimistic: this.optimistic,
        net: this.isLeader || !this.tabs.leaderNet ? this.scheduler.netStatus() : this.tabs.leaderNet,
        now: kernel.now(),
        submitRequested: this.submitRequested,
        isLeader: this.isLeader,
      },
      this.answerCache,
    );
  }
}
