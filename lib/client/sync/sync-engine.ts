import type { AnswerValue, AttemptView } from "@/lib/shared/schemas/attempts";

import { toggleFlag as toggleFlagRecord } from "../offline/attempts";
import type { HoldfastDb } from "../offline/db";
import { AnnouncementInbox } from "./announcements";
import { Editor } from "./editor";
import { browserEnvironment, type SyncEnvironment } from "./environment";
import { Heartbeat, recordServerFacts, type ServerFacts } from "./heartbeat";
import type { FetchLike, Timers } from "./http";
import { SyncKernel } from "./kernel";
import { loadDeviceState, startLeading } from "./load";
import { attachPageEvents } from "./page-events";
import { PresenceStream } from "./presence";
import { Scheduler } from "./scheduler";
import { buildSnapshot } from "./snapshot";
import { SubmitClick } from "./submit-click";
import { DEFAULT_SYNC_CONFIG, type SyncConfig } from "./sync-config";
import type { AnswerState, EditResult, SyncSnapshot } from "./sync-state";
import { Tabs } from "./tabs";

/**
 * The candidate's sync engine, one per attempt per tab (docs/sync-protocol.md, "The client"). Framework-free:
 * React reads it through `subscribe`/`getSnapshot`. Numbered steps refer to that section:
 *
 * - L: load and merge (start, leadership: load.ts; GET /api/attempts/{id}: job-merge.ts);
 * - E: edit (validate, one IndexedDB transaction, debounce; here);
 * - F: flush (one request in flight, the retry discipline: scheduler.ts; the autosave: job-autosave.ts);
 * - S: submit (the stored body and key, resent until the server answers; job-submit.ts);
 * - H: heartbeat (heartbeat.ts);
 * - P: presence stream (the server tells the page at once of a proctor's extension or force-submit; presence.ts);
 * - A: announcements from staff (stored, shown, acknowledged; announcements.ts);
 * - T: tabs (Web Locks leadership, BroadcastChannel; tabs.ts).
 *
 * This class is the façade that wires them: the kernel (kernel.ts) holds the clock, the requests, the serial
 * queue and the in-memory copy of IndexedDB; the snapshot the page reads is built by snapshot.ts.
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

export class SyncEngine {
  readonly attemptId: string;
  /** Step A: staff's announcements on this device, for the page to show (its own external store). */
  readonly announcements: AnnouncementInbox;
  private readonly kernel: SyncKernel;
  private readonly scheduler: Scheduler;
  private readonly heartbeat: Heartbeat;
  private readonly presence: PresenceStream;
  private readonly tabs: Tabs;
  private readonly editor: Editor;
  private readonly submitClick: SubmitClick;
  private detachListeners: (() => void) | null = null;
  private detachSuperseded: (() => void) | null = null;
  private readonly initialView: AttemptView | null;
  private env: SyncEnvironment | null;

  private readonly listeners = new Set<() => void>();
  private snapshot: SyncSnapshot;
  private readonly answerCache = new Map<string, AnswerState>();
  private ready = false;
  private running = false;
  private generation = 0;
  private startPromise: Promise<void> | null = null;
  private storageError: string | null = null;
  private isLeader = false;

  constructor(options: SyncEngineOptions) {
    this.attemptId = options.attemptId;
    this.kernel = new SyncKernel(options);
    this.announcements = new AnnouncementInbox(this.kernel, () => this.tabs.post({ type: "announcements" }));
    this.initialView = options.initialView ?? null;
    this.env = options.environment ?? null;
    const running = () => this.running;
    const isLeader = () => this.isLeader;
    const emit = () => this.emit();
    const snapshot = () => this.snapshot;
    const applyServerFacts = (facts: ServerFacts, isSubmitted: boolean, receivedAt: number) =>
      this.applyServerFacts(facts, isSubmitted, receivedAt);
    this.tabs = new Tabs(this.kernel, {
      running,
      isLeader,
      emit,
      netStatus: () => this.scheduler.netStatus(),
      sendNow: () => {
        this.scheduler.clearDebounce();
        this.scheduler.pump();
      },
      reloadAnnouncements: () => void this.announcements.load(),
    });
    this.scheduler = new Scheduler(this.kernel, {
      running,
      isLeader,
      emit,
      snapshot,
      postChanged: (questionIds) => this.tabs.post({ type: "changed", questionIds }),
      postFlush: () => this.tabs.post({ type: "flush" }),
      navigatorOnline: () => this.env?.isOnline() ?? true,
      clearSubmitError: () => this.submitClick.clearError(),
    });
    this.heartbeat = new Heartbeat(this.kernel, {
      active: () => this.running && this.isLeader,
      snapshot,
      breakerOpen: () => this.scheduler.breaker.kind === "open",
      storagePersisted: () => this.env!.storagePersisted(),
      applyServerFacts,
    });
    this.kernel.statusReporter = this.heartbeat;
    this.presence = new PresenceStream(this.kernel, {
      environment: () => this.env,
      running,
      isLeader,
      generation: () => this.generation,
      shownDeadline: () => this.snapshot.deadline,
      applyServerFacts,
      sendHeartbeat: () => this.heartbeat.send(),
      receiveAnnouncements: (announcements) => void this.announcements.receive(announcements),
      catchUpAnnouncements: () => void this.announcements.catchUp(),
      reload: () => {
        this.scheduler.needsMerge = true;
        this.scheduler.pump();
      },
    });
    this.submitClick = new SubmitClick(this.kernel, {
      started: () => this.startPromise,
      running,
      snapshot,
      emit,
      afterLocalWrite: (questionIds, work) => this.afterLocalWrite(questionIds, work),
      sendNow: () => this.scheduler.trigger("probe"),
    });
    this.editor = new Editor(this.kernel, {
      ready: () => this.ready,
      submitRequested: () => this.submitClick.requested,
      emit,
      afterLocalWrite: (questionIds, work) => this.afterLocalWrite(questionIds, work),
      reloadAttempt: () => void this.kernel.reloadAttempt().then(emit),
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
    const started = this.kernel.track(
      this.boot(generation).catch((error: unknown) => {
        if (this.kernel.db.isSuperseded) return;
        // IndexedDB unavailable or broken (some private modes, a full disk): say so; nothing can be kept.
        this.storageError = error instanceof Error ? error.message : String(error);
        this.emit();
      }),
    );
    this.startPromise = started;
    // After the boot's first step: a store superseded already is heard at once, and stops this start.
    this.detachSuperseded = this.kernel.db.onSuperseded(() => this.supersede());
    return started;
  }

  /** Leaves the sync role to the next tab, stops timers and listeners. Work in flight finishes; drafts are in IndexedDB. */
  stop(): void {
    if (!this.running) return;
    this.running = false;
    this.generation += 1;
    this.scheduler.stopTimers();
    this.heartbeat.stop();
    this.detachListeners?.();
    this.detachListeners = null;
    this.detachSuperseded?.();
    this.detachSuperseded = null;
    this.presence.close();
    this.tabs.close();
    this.isLeader = false;
    this.startPromise = null;
    this.submitClick.release();
  }

  /**
   * A newer release of the page upgraded the device's store (another tab, or a window opened since): this page
   * can neither read nor write it any more. It stops — handing the sync role to a tab of the new release, which
   * sends every draft this one stored — and the page asks the candidate to reload, with the editor locked so
   * nothing typed here is dropped unseen. Drafts already stored are kept by the upgrade.
   */
  private supersede(): void {
    this.stop();
    this.emit();
  }

  /** Step E1 — an edit (editor.ts): validated, shown at once, written to IndexedDB, then sent after the debounce. */
  edit = (questionId: string, value: AnswerValue): Promise<EditResult> => this.editor.edit(questionId, value);

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
   * Step S1 — Submit (submit-click.ts): stores the final delta and the digest as the exact request body, then the
   * leader sends it with the stored Idempotency-Key until the server answers (S2). Resolves when the attempt is
   * submitted, or when the server gave a final answer (`submitError`; calling submit again sends the same body
   * again). A second call while one is running returns the same promise.
   */
  submit = (): Promise<SyncSnapshot> => this.submitClick.submit();

  /** Send now: skips the debounce and the backoff wait (never a Retry-After), lets an open breaker probe at once. */
  flushNow = async (): Promise<void> => {
    this.scheduler.trigger("manual");
    if (!this.isLeader) this.tabs.post({ type: "flush" });
    await this.scheduler.inFlightPromise;
  };

  // ---------------------------------------------------------------------------------------------------------
  // L — load, leadership

  private async boot(generation: number): Promise<void> {
    // L1–L2 (load.ts).
    await loadDeviceState(this.kernel, this.initialView);
    if (generation !== this.generation) return;
    this.ready = true;
    this.emit();
    // A1 and A2: those the device holds, with those of the server render (acknowledged if new).
    void this.announcements.receive(this.initialView?.announcements ?? []);

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
    // L3 (load.ts).
    this.kernel.track(
      startLeading(this.kernel, {
        isCurrent: () => generation === this.generation,
        clearSubmitError: () => this.submitClick.clearError(),
        emit: () => this.emit(),
        scheduleProbe: () => this.scheduler.scheduleProbe(),
        sendHeartbeat: () => this.heartbeat.send(),
        openPresence: () => this.presence.open(),
        pump: () => this.scheduler.pump(),
      }),
    );
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
   * T2 — after writing IndexedDB: tell the other tabs (they re-read). New work is debounced in the tab where the
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

  /** The page's own events: `online`, `offline`, `visibilitychange`, `pagehide`. */
  private attachListeners(): void {
    this.detachListeners = attachPageEvents(this.env!, {
      online: () => {
        this.emit();
        this.scheduler.trigger("online");
        this.presence.open();
      },
      offline: () => {
        this.presence.close();
        this.emit();
      },
      visibility: (visible) => {
        if (visible) {
          this.scheduler.trigger("visible");
          // Back from the back/forward cache after a pagehide closed it.
          this.presence.open();
        } else this.scheduler.onHidden();
      },
      pageHide: () => {
        this.presence.close();
        this.scheduler.onHidden();
      },
    });
  }

  private emit(): void {
    const wasFinished = isFinished(this.snapshot);
    this.snapshot = this.buildSnapshot();
    // Reopened by an admin (ADR 017; saveServerView): the page's stream, closed or never opened for a
    // submitted attempt, opens again, and drafts kept as late answers are sent.
    if (wasFinished && !isFinished(this.snapshot) && this.running && this.isLeader) {
      this.presence.open();
      this.scheduler.pump();
    }
    for (const listener of this.listeners) listener();
    this.submitClick.notify();
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
        storeSuperseded: kernel.db.isSuperseded,
        deviceId: kernel.deviceId,
        attempt: kernel.attempt,
        initialView: this.initialView,
        drafts: kernel.drafts,
        optimistic: this.editor.optimistic,
        net: this.isLeader || !this.tabs.leaderNet ? this.scheduler.netStatus() : this.tabs.leaderNet,
        now: kernel.now(),
        submitRequested: this.submitClick.requested,
        isLeader: this.isLeader,
      },
      this.answerCache,
    );
  }
}

function isFinished(snapshot: SyncSnapshot): boolean {
  return snapshot.submitState === "submitted" || snapshot.closed !== null;
}
