import { LIMITS } from "@/lib/shared/limits";
import type { DeviceStatus } from "@/lib/shared/schemas/device-status";
import { HeartbeatResponseSchema } from "@/lib/shared/schemas/sync-responses";

import { applyHeartbeatFacts } from "../offline/attempts";
import type { AttemptPause } from "../offline/db";
import { clockOffsetMs } from "./clock";
import { classify, type StatusReporter, type SyncKernel } from "./kernel";
import type { SyncSnapshot } from "./sync-state";

/** Time facts from the server: a heartbeat's answer or a presence event (which may tell the pause). */
export type ServerFacts = {
  serverTime: string;
  deadline?: string;
  serverOffsetMs?: number;
  pause?: AttemptPause | null;
};

/** What the heartbeat needs from the engine around it. */
export type HeartbeatHost = {
  /** Running and holding the sync role. */
  active(): boolean;
  snapshot(): SyncSnapshot;
  /** An open breaker: the server is not being asked anything. */
  breakerOpen(): boolean;
  storagePersisted(): Promise<boolean | null>;
  applyServerFacts(facts: ServerFacts, isSubmitted: boolean, receivedAt: number): Promise<void>;
};

/**
 * H3 — stores time facts and the attempt's status from the server in IndexedDB (and the in-memory copy). True when
 * this closed the attempt (submitted elsewhere: a proctor, another device, the deadline).
 */
export async function recordServerFacts(
  kernel: SyncKernel,
  facts: ServerFacts,
  isSubmitted: boolean,
  receivedAt: number,
): Promise<boolean> {
  const wasClosed = kernel.attempt?.closed ?? null;
  await kernel.serial(async () => {
    const attempt = await applyHeartbeatFacts(kernel.db, {
      attemptId: kernel.attemptId,
      facts,
      isSubmitted,
      now: receivedAt,
    });
    if (attempt) kernel.attempt = attempt;
  });
  return !wasClosed && Boolean(kernel.attempt?.closed);
}

/** What a report says that matters at once to a proctor; a report whose key differs from the last one is news. */
type ReportKey = { online: boolean; pending: boolean; failing: boolean; deadline: string | null };

function sameKey(a: ReportKey | null, b: ReportKey): boolean {
  return (
    a !== null &&
    a.online === b.online &&
    a.pending === b.pending &&
    a.failing === b.failing &&
    a.deadline === b.deadline
  );
}

function count(n: number): number {
  return Math.min(LIMITS.maxVersion, Math.max(0, Math.floor(n)));
}

/**
 * Step H — the device's status report (leader only). It reaches the server at least every `heartbeatMs` (15 s)
 * and soon after news, as before; what changed (ADR 022) is that an autosave carries it when one is going anyway
 * (`statusForAutosave`), so a device that saves often sends heartbeats only with news that no autosave is about
 * to carry, or after a quiet spell.
 */
export class Heartbeat implements StatusReporter {
  private timer: unknown = null;
  private inFlight = false;
  private again = false;
  private lastKey: ReportKey | null = null;
  /** The last heartbeat sent (change-triggered heartbeats keep `heartbeatMinGapMs` from it). */
  private lastAt = -Infinity;
  /** The last report that left: a heartbeat sent or an autosave that carried one and was acknowledged. */
  private lastReportAt = -Infinity;
  /** When news (a key other than the last report's) was first seen, and whether the next autosave will carry it. */
  private newsSince: number | null = null;
  private newsWaitsForAutosave = false;
  /** The browser's answer about persistent storage, as last asked (a heartbeat asks). */
  private persisted: boolean | null = null;

  constructor(
    private readonly kernel: SyncKernel,
    private readonly host: HeartbeatHost,
  ) {}

  stop(): void {
    if (this.timer !== null) this.kernel.timers.clearTimeout(this.timer);
    this.timer = null;
  }

  /**
   * H1 — a heartbeat now (the page became leader, or a proctor's extension is to be acknowledged), and the next
   * report `heartbeatMs` after it. Skipped while the breaker is open: the server is not being asked anything then.
   */
  send(): void {
    if (!this.host.active() || !this.kernel.deviceId) return;
    if (this.inFlight) {
      this.again = true;
      return;
    }
    if (this.host.breakerOpen() || !this.kernel.attempt) {
      // Tried again a period later, or with the next news.
      this.lastReportAt = this.kernel.now();
      this.newsSince = null;
      this.schedule();
      return;
    }
    this.inFlight = true;
    this.lastKey = this.key();
    this.newsSince = null;
    this.lastAt = this.lastReportAt = this.kernel.now();
    this.schedule();
    this.kernel.track(
      this.run()
        .catch(() => undefined)
        .finally(() => {
          this.inFlight = false;
          if (this.again) {
            this.again = false;
            this.sendOnChange();
          }
          // A timer that fired while this one flew found it in flight: the next report is due a period after it.
          if (this.timer === null) this.schedule();
        }),
    );
  }

  private key(): ReportKey {
    const snapshot = this.host.snapshot();
    return {
      online: snapshot.online,
      pending: snapshot.pendingCount + snapshot.rejectedCount > 0,
      failing: snapshot.consecutiveFailures > 0,
      deadline: snapshot.deadline,
    };
  }

  /**
   * H1 — news (online/offline, pending 0 ↔ > 0, failures starting or stopping, a new deadline shown) goes out
   * soon, coalesced to one heartbeat per `heartbeatMinGapMs`. Work appearing while the device is online and
   * saving well is news the autosave carries within its debounce: the heartbeat waits a debounce and a gap
   * longer and is not sent at all when that autosave told the server first.
   */
  sendOnChange(): void {
    if (!this.host.active()) return;
    const key = this.key();
    if (sameKey(this.lastKey, key)) {
      this.newsSince = null; // the news went by itself (the autosave was answered)
      return;
    }
    if (this.inFlight) {
      this.again = true;
      return;
    }
    const waits = this.autosaveWillTell(key);
    if (this.newsSince === null || (this.newsWaitsForAutosave && !waits)) {
      this.newsSince ??= this.kernel.now();
      this.newsWaitsForAutosave = waits;
      this.schedule();
    }
  }

  private autosaveWillTell(key: ReportKey): boolean {
    const last = this.lastKey;
    return (
      last !== null &&
      key.online &&
      last.online &&
      !key.failing &&
      !last.failing &&
      key.deadline === last.deadline &&
      key.pending &&
      !last.pending
    );
  }

  /** One timer: at the next periodic report, or sooner for news (step H1). */
  private schedule(): void {
    if (this.timer !== null) this.kernel.timers.clearTimeout(this.timer);
    this.timer = null;
    if (!this.host.active()) return;
    const config = this.kernel.config;
    let due = this.lastReportAt + config.heartbeatMs;
    // News seen while a heartbeat is in flight is looked at again when it ends (`again`).
    if (this.newsSince !== null && !this.inFlight) {
      const delay = this.newsWaitsForAutosave ? config.debounceMs + config.heartbeatMinGapMs : 0;
      due = Math.min(due, Math.max(this.lastAt + config.heartbeatMinGapMs, this.newsSince + delay));
    }
    this.timer = this.kernel.timers.setTimeout(
      () => {
        this.timer = null;
        this.onTimer();
      },
      Math.max(0, due - this.kernel.now()),
    );
  }

  private onTimer(): void {
    if (this.kernel.now() >= this.lastReportAt + this.kernel.config.heartbeatMs) {
      this.send();
      return;
    }
    if (this.newsSince !== null && !sameKey(this.lastKey, this.key())) {
      this.send();
      return;
    }
    this.newsSince = null;
    this.schedule();
  }

  /**
   * The report for an autosave about to send `sentCount` of the pending drafts, as it will stand once that
   * autosave is acknowledged (online, no failures, the other drafts still pending) — or undefined when no report
   * is due: the last one left less than half a period ago and this one would say nothing new.
   */
  statusForAutosave(sentCount: number): DeviceStatus | undefined {
    if (!this.host.active()) return undefined;
    const snapshot = this.host.snapshot();
    const now = this.kernel.now();
    const pending = count(Math.max(0, snapshot.pendingCount - sentCount) + snapshot.rejectedCount);
    const status: DeviceStatus = {
      online: true,
      pending,
      oldestPendingMs: count(pending > 0 && snapshot.oldestPendingAt !== null ? now - snapshot.oldestPendingAt : 0),
      lastAckRevision: count(snapshot.lastAckRevision),
      clock: count(snapshot.clock),
      consecutiveFailures: 0,
      storagePersisted: this.persisted,
      ...(snapshot.deadline !== null ? { deadline: snapshot.deadline } : {}),
    };
    const isDue =
      now - this.lastReportAt >= this.kernel.config.heartbeatMs / 2 || !sameKey(this.lastKey, statusKey(status));
    return isDue ? status : undefined;
  }

  /** The autosave that carried `status` was acknowledged: the server keeps it as this device's latest report. */
  delivered(status: DeviceStatus): void {
    this.lastKey = statusKey(status);
    this.lastReportAt = this.kernel.now();
    // The page's next emit looks for news again, against this report.
    this.newsSince = null;
    this.schedule();
  }

  /** H2 — the body: the device's own view of its sync health. H3 — the answer corrects time and notices a submission. */
  private async run(): Promise<void> {
    const kernel = this.kernel;
    const snapshot = this.host.snapshot();
    const storagePersisted = await this.host.storagePersisted();
    this.persisted = storagePersisted;
    const body = {
      deviceId: kernel.deviceId!,
      online: snapshot.online,
      // Unacknowledged work on the device: waiting edits and edits the server refused.
      pending: count(snapshot.pendingCount + snapshot.rejectedCount),
      oldestPendingMs: count(snapshot.oldestPendingAt === null ? 0 : kernel.now() - snapshot.oldestPendingAt),
      lastAckRevision: count(snapshot.lastAckRevision),
      clock: count(snapshot.clock),
      consecutiveFailures: count(snapshot.consecutiveFailures),
      storagePersisted,
      // The deadline on the candidate's screen: showing a proctor's extension acknowledges it (H4).
      ...(snapshot.deadline !== null ? { deadline: snapshot.deadline } : {}),
    };
    const sentAt = kernel.now();
    const outcome = await kernel.request("POST", "/heartbeat", JSON.stringify(body));
    const receivedAt = kernel.now();
    if (classify(outcome) !== "ok" || outcome.kind !== "answer") return;
    const parsed = HeartbeatResponseSchema.safeParse(outcome.body);
    if (!parsed.success) return;
    const response = parsed.data;
    await this.host.applyServerFacts(
      {
        serverTime: response.serverTime,
        deadline: response.deadline,
        serverOffsetMs: clockOffsetMs(Date.parse(response.serverTime), sentAt, receivedAt),
        // A pause or resume the event stream missed (a hint published before its subscription was live).
        ...(response.pausedAt === undefined
          ? {}
          : {
              pause:
                response.pausedAt === null ? null : { pausedAt: response.pausedAt, reason: response.pauseReason ?? "" },
            }),
      },
      response.status === "submitted",
      receivedAt,
    );
  }
}

function statusKey(status: DeviceStatus): ReportKey {
  return {
    online: status.online,
    pending: status.pending > 0,
    failing: status.consecutiveFailures > 0,
    deadline: status.deadline ?? null,
  };
}
