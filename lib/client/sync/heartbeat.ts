import { LIMITS } from "@/lib/shared/limits";
import { HeartbeatResponseSchema } from "@/lib/shared/schemas/sync-responses";

import { applyHeartbeatFacts } from "../offline/attempts";
import type { AttemptPause } from "../offline/db";
import { clockOffsetMs } from "./clock";
import { classify, type SyncKernel } from "./kernel";
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

/** Step H — the heartbeat (leader only). */
export class Heartbeat {
  private timer: unknown = null;
  private inFlight = false;
  private again = false;
  private lastKey = "";
  private lastAt = -Infinity;

  constructor(
    private readonly kernel: SyncKernel,
    private readonly host: HeartbeatHost,
  ) {}

  stop(): void {
    if (this.timer !== null) this.kernel.timers.clearTimeout(this.timer);
    this.timer = null;
  }

  /**
   * H1 — every 15 s while the page is open, and soon after a change of state (online/offline, pending 0 ↔ > 0,
   * failures starting or stopping; coalesced to one per 5 s). Skipped while the breaker is open: the server
   * is not being asked anything then.
   */
  send(): void {
    if (!this.host.active() || !this.kernel.deviceId) return;
    if (this.timer !== null) this.kernel.timers.clearTimeout(this.timer);
    this.timer = this.kernel.timers.setTimeout(() => {
      this.timer = null;
      this.send();
    }, this.kernel.config.heartbeatMs);
    if (this.inFlight) {
      this.again = true;
      return;
    }
    if (this.host.breakerOpen() || !this.kernel.attempt) return;
    this.inFlight = true;
    this.lastKey = this.key();
    this.lastAt = this.kernel.now();
    this.kernel.track(
      this.run()
        .catch(() => undefined)
        .finally(() => {
          this.inFlight = false;
          if (this.again) {
            this.again = false;
            this.sendOnChange();
          }
        }),
    );
  }

  /** What a heartbeat reports at once when it changes; a newly learnt deadline is its acknowledgement (H4). */
  private key(): string {
    const snapshot = this.host.snapshot();
    return `${snapshot.online}|${snapshot.pendingCount + snapshot.rejectedCount > 0}|${snapshot.consecutiveFailures > 0}|${snapshot.deadline}`;
  }

  sendOnChange(): void {
    if (!this.host.active() || this.key() === this.lastKey) return;
    if (this.inFlight) {
      this.again = true;
      return;
    }
    const wait = this.lastAt + this.kernel.config.heartbeatMinGapMs - this.kernel.now();
    if (wait <= 0) {
      this.send();
      return;
    }
    if (this.timer !== null) this.kernel.timers.clearTimeout(this.timer);
    this.timer = this.kernel.timers.setTimeout(() => {
      this.timer = null;
      this.send();
    }, wait);
  }

  /** H2 — the body: the device's own view of its sync health. H3 — the answer corrects time and notices a submission. */
  private async run(): Promise<void> {
    const kernel = this.kernel;
    const snapshot = this.host.snapshot();
    const storagePersisted = await this.host.storagePersisted();
    const count = (n: number) => Math.min(LIMITS.maxVersion, Math.max(0, Math.floor(n)));
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
