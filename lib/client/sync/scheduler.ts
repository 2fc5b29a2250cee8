import {
  CLOSED_BREAKER,
  NO_RETRY_AFTER,
  backoffDelay,
  breakerBeforeRequest,
  breakerForceProbe,
  breakerOnRetryable,
  breakerOnSuccess,
  breakerReadyAt,
  retryAfterHold,
  retryAfterReadyAt,
  type BreakerState,
  type RetryAfterHold,
} from "@/lib/shared/backoff";

import type { RecordedError } from "../offline/db";
import type { HttpOutcome } from "./http";
import { runAutosave, runAutosaveJob } from "./job-autosave";
import { runMerge } from "./job-merge";
import type { Job, JobOutcome } from "./job-outcome";
import { runSubmitRequest } from "./job-submit";
import { utf8Length, type SyncKernel } from "./kernel";
import type { ConnectionState, NetStatus, SyncSnapshot } from "./sync-state";

/** What the scheduler needs from the engine around it. */
export type SchedulerHost = {
  running(): boolean;
  isLeader(): boolean;
  /** Rebuild the snapshot and tell the page. */
  emit(): void;
  /** Tell the other tabs these questions changed in IndexedDB (null: everything). */
  postChanged(questionIds: string[] | null): void;
  /** A follower's debounce ended: ask the leader to send now. */
  postFlush(): void;
  snapshot(): SyncSnapshot;
  /** The browser's own online flag. */
  navigatorOnline(): boolean;
  /** S5 — a "retry now" after a final answer to the submit sends the stored body again. */
  clearSubmitError(): Promise<void>;
};

/**
 * Step F — when to send: one request in flight per attempt, the debounce, the backoff and Retry-After waits,
 * the circuit breaker, the periodic probe and the last-chance keepalive. It runs the jobs and acts on the
 * outcome each returns (answered / retry / blocked).
 */
export class Scheduler {
  breaker: BreakerState = CLOSED_BREAKER;
  /** A GET of the attempt is due (start, a new leader, a submission seen elsewhere, a long absence). */
  needsMerge = true;
  inFlightPromise: Promise<void> | null = null;
  private lastMergeAt = -Infinity;
  private lastFailure: "network" | "server" | null = null;
  private backoffUntil = 0;
  /** The last Retry-After, held against the kind of request it answered (`retryAfterReadyAt`). */
  private retryAfter: RetryAfterHold = NO_RETRY_AFTER;
  private retryAt: number | null = null;
  private nextAttemptAt: number | null = null;
  private blocked: RecordedError | null = null;
  private inFlight: Job | null = null;
  private inFlightSent = new Map<string, number>();
  private debounceTimer: unknown = null;
  private retryTimer: unknown = null;
  private probeTimer: unknown = null;

  constructor(
    private readonly kernel: SyncKernel,
    private readonly host: SchedulerHost,
  ) {}

  get debouncing(): boolean {
    return this.debounceTimer !== null;
  }

  stopTimers(): void {
    for (const handle of [this.debounceTimer, this.retryTimer, this.probeTimer]) {
      if (handle !== null) this.kernel.timers.clearTimeout(handle);
    }
    this.debounceTimer = this.retryTimer = this.probeTimer = null;
  }

  /**
   * F1 — the pump: at most one sync request in flight per attempt. Picks the next job (a stored submit first,
   * then a pending merge, then the dirty drafts), waits out the debounce, the backoff, a Retry-After and an
   * open breaker, then runs it; when it ends, the pump looks again.
   */
  pump(): void {
    if (!this.host.running() || !this.host.isLeader() || this.inFlight) return;
    const job = this.nextJob();
    if (!job) {
      this.clearRetryTimer();
      return;
    }
    if (job === "autosave" && this.debounceTimer !== null) return;
    const now = this.kernel.now();
    const readyAt = Math.max(
      retryAfterReadyAt(this.retryAfter, job === "submit"),
      this.backoffUntil,
      breakerReadyAt(this.breaker),
    );
    if (readyAt > now) {
      this.scheduleRetry(readyAt - now);
      return;
    }
    this.clearRetryTimer();
    this.breaker = breakerBeforeRequest(this.breaker, now);
    this.inFlight = job;
    this.nextAttemptAt = null;
    this.inFlightPromise = this.kernel.track(this.runJob(job).finally(() => this.afterInFlight()));
  }

  private nextJob(): Job | null {
    const attempt = this.kernel.attempt;
    if (attempt?.submitState === "submitting" && attempt.submitBody !== null && attempt.submitError === null)
      return "submit";
    if (this.blocked) return null;
    if (this.needsMerge) return "merge";
    if (!attempt || attempt.closed || attempt.submitState !== "unsubmitted") return null;
    for (const draft of this.kernel.drafts.values())
      if (draft.dirty === 1 && draft.rejected === null) return "autosave";
    return null;
  }

  private async runJob(job: Job): Promise<void> {
    try {
      if (job === "merge") this.apply(await runMerge(this.kernel));
      else if (job === "submit") this.apply(await runSubmitRequest(this.kernel, false));
      else this.apply(await runAutosaveJob(this.kernel, this.inFlightSent));
    } catch (error) {
      // A storage failure or a bug: back off like a failed request, so it can never spin.
      console.error("holdfast sync:", error);
      this.onRetryable({ kind: "network", message: error instanceof Error ? error.message : String(error) });
    }
  }

  /** Acts on what a job says. */
  private apply(outcome: JobOutcome): void {
    switch (outcome.kind) {
      case "skipped":
        return;
      case "retry":
        this.onRetryable(outcome.outcome);
        return;
      case "blocked":
        this.blocked = outcome.error;
        this.onAnswered();
        return;
      case "answered":
        if (outcome.needsMerge) this.needsMerge = true;
        if (outcome.mergedAt !== undefined) {
          this.needsMerge = false;
          this.lastMergeAt = outcome.mergedAt;
        }
        this.onAnswered();
        if (outcome.pauseMs !== undefined) this.backoffUntil = this.kernel.now() + outcome.pauseMs;
        if (outcome.changed !== undefined) this.host.postChanged(outcome.changed);
    }
  }

  /** Any answer that is not a retry class: the server is reachable, the failure streak ends. */
  private onAnswered(): void {
    this.breaker = breakerOnSuccess();
    this.lastFailure = null;
    this.backoffUntil = 0;
    this.retryAfter = NO_RETRY_AFTER;
    this.retryAt = null;
    this.nextAttemptAt = null;
    this.host.emit();
  }

  /**
   * F3 — a retry class: full-jitter backoff (0.5 s doubling to 8 s) from the failure streak, never sooner
   * than Retry-After; the breaker counts the failure (5 in a row → open for 20 s) unless the answer came with a
   * Retry-After (breakerOnRetryable: the server is pacing, not failing).
   */
  private onRetryable(outcome: HttpOutcome): void {
    const now = this.kernel.now();
    const retryAfterMs = outcome.kind === "answer" ? outcome.retryAfterMs : null;
    this.breaker = breakerOnRetryable(this.breaker, now, retryAfterMs, this.kernel.config.breaker);
    // The backoff and the Retry-After apart: the next request waits for both if it is of the same kind, for the
    // backoff alone if it is a submit after another kind's Retry-After (retryAfterReadyAt).
    this.backoffUntil = now + backoffDelay(this.breaker.failures - 1, this.kernel.random);
    this.retryAfter = retryAfterHold(retryAfterMs, now, this.inFlight === "submit");
    this.retryAt =
      outcome.kind === "answer" && outcome.status === 429 ? Math.max(this.backoffUntil, this.retryAfter.until) : null;
    this.lastFailure = outcome.kind === "network" ? "network" : "server";
    this.host.emit();
  }

  /**
   * F7 — something says "try now": the `online` event, the tab becoming visible, the periodic probe, a
   * "retry now" click. The backoff wait is dropped (never a Retry-After); `online` and a click also let an
   * open breaker probe at once; visible also re-reads the server if the last merge is over 30 s old (another
   * device may have written) and lifts a block (the candidate may have signed in again in another tab).
   */
  trigger(reason: "online" | "visible" | "probe" | "manual"): void {
    if (!this.host.running()) return;
    this.backoffUntil = 0;
    if (reason === "online" || reason === "manual") this.breaker = breakerForceProbe(this.breaker);
    if (reason === "visible" || reason === "manual") {
      if (this.blocked) this.needsMerge = true;
      this.blocked = null;
    }
    // Coming back to the tab after a while: another device may have written. Not on every glance: a GET carries
    // the whole paper.
    if (reason === "visible" && this.kernel.now() - this.lastMergeAt >= this.kernel.config.remergeAfterMs)
      this.needsMerge = true;
    if (reason === "manual" && this.kernel.attempt?.submitError) void this.host.clearSubmitError();
    this.clearDebounce();
    this.pump();
  }

  scheduleDebounce(): void {
    this.clearDebounce();
    this.debounceTimer = this.kernel.timers.setTimeout(() => {
      this.debounceTimer = null;
      if (this.host.isLeader()) this.pump();
      else this.host.postFlush();
    }, this.kernel.config.debounceMs);
  }

  clearDebounce(): void {
    if (this.debounceTimer !== null) this.kernel.timers.clearTimeout(this.debounceTimer);
    this.debounceTimer = null;
  }

  private scheduleRetry(ms: number): void {
    this.clearRetryTimer();
    this.nextAttemptAt = this.kernel.now() + ms;
    this.retryTimer = this.kernel.timers.setTimeout(() => {
      this.retryTimer = null;
      this.pump();
    }, ms);
    this.host.emit();
  }

  private clearRetryTimer(): void {
    if (this.retryTimer !== null) this.kernel.timers.clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  /** F7 — the periodic probe: while anything is pending or failing, flush every 10 s whatever the events said. */
  scheduleProbe(): void {
    if (this.probeTimer !== null) this.kernel.timers.clearTimeout(this.probeTimer);
    this.probeTimer = this.kernel.timers.setTimeout(() => {
      this.probeTimer = null;
      if (!this.host.running() || !this.host.isLeader()) return;
      const snapshot = this.host.snapshot();
      if (
        snapshot.consecutiveFailures > 0 ||
        snapshot.pendingCount > 0 ||
        snapshot.submitState === "submitting" ||
        this.needsMerge
      ) {
        this.trigger("probe");
      }
      this.scheduleProbe();
    }, this.kernel.config.probeMs);
  }

  /**
   * F8 — the page is being hidden or unloaded: send what is dirty now, with `keepalive` so the request survives
   * the page (best effort; browsers cap keepalive bodies at 64 KiB, so only what fits). The body is built from
   * memory, synchronously: an unloading page may not live through another IndexedDB read. If a request is
   * already in flight, only drafts it does not carry are sent; what does not get through is in IndexedDB for the
   * next load. A Retry-After and an open breaker are respected even here.
   */
  onHidden(): void {
    if (!this.host.running() || !this.host.isLeader()) return;
    this.clearDebounce();
    // The backoff wait is skipped (this may be the last chance), but never a Retry-After or an open breaker.
    const now = this.kernel.now();
    const attempt = this.kernel.attempt;
    const isSubmit = attempt?.submitState === "submitting";
    if (retryAfterReadyAt(this.retryAfter, isSubmit) > now || breakerReadyAt(this.breaker) > now) return;
    this.breaker = breakerBeforeRequest(this.breaker, now);
    const keepalive = (job: Promise<JobOutcome>) => job.then((outcome) => this.apply(outcome)).catch(() => undefined);
    if (attempt?.submitState === "submitting" && attempt.submitBody !== null && attempt.submitError === null) {
      if (this.inFlight === null && utf8Length(attempt.submitBody) <= this.kernel.config.keepaliveMaxBytes) {
        this.inFlight = "submit";
        this.inFlightPromise = this.kernel.track(
          keepalive(runSubmitRequest(this.kernel, true)).finally(() => this.afterInFlight()),
        );
      }
      return;
    }
    if (!attempt || attempt.closed || attempt.submitState !== "unsubmitted" || this.blocked) return;
    const dirty = [...this.kernel.drafts.values()]
      .filter(
        (draft) =>
          draft.dirty === 1 && draft.rejected === null && this.inFlightSent.get(draft.questionId) !== draft.version,
      )
      .sort((a, b) => a.editedAt - b.editedAt);
    if (dirty.length === 0) return;
    if (this.inFlight === null) {
      this.inFlight = "autosave";
      this.inFlightPromise = this.kernel.track(
        keepalive(runAutosave(this.kernel, dirty, true, this.inFlightSent)).finally(() => this.afterInFlight()),
      );
    } else {
      // The documented exception to "one in flight": the page is going away and the running request may die with it.
      this.kernel.track(keepalive(runAutosave(this.kernel, dirty, true, this.inFlightSent)));
    }
  }

  private afterInFlight(): void {
    this.inFlight = null;
    this.inFlightPromise = null;
    this.inFlightSent = new Map();
    this.host.emit();
    this.pump();
  }

  /** The network view this tab shows (and, as the leader, broadcasts). */
  netStatus(): NetStatus {
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
    return this.host.navigatorOnline() && !(this.lastFailure === "network" && this.breaker.failures >= 2);
  }

  private connection(online: boolean): ConnectionState {
    if (!online) return "offline";
    if (this.breaker.failures > 0 || this.breaker.kind !== "closed" || this.retryAt !== null) return "unstable";
    return "ok";
  }
}
