import type { ChannelLike, SyncEnvironment } from "./environment";
import type { SyncKernel } from "./kernel";
import type { NetStatus } from "./sync-state";

/** Messages between the tabs of one attempt (step T2). */
export type TabMessage =
  /** IndexedDB changed: re-read these questions (null: everything). */
  | { type: "changed"; questionIds: string[] | null }
  /** To the leader: there is work to send now (a follower's debounce ended, or it stored a submit). */
  | { type: "flush" }
  /** From the leader: its network state, so every tab shows the same banner. */
  | { type: "net"; net: NetStatus }
  /** From a new tab: leader, please send your network state. */
  | { type: "hello" }
  /** The announcements in IndexedDB changed (a new one, a dismissal): re-read them (step A). */
  | { type: "announcements" };

export function isTabMessage(data: unknown): data is TabMessage {
  if (typeof data !== "object" || data === null) return false;
  const type = (data as { type?: unknown }).type;
  return type === "changed" || type === "flush" || type === "net" || type === "hello" || type === "announcements";
}

/** What the tabs part needs from the engine around it. */
export type TabsHost = {
  running(): boolean;
  isLeader(): boolean;
  netStatus(): NetStatus;
  emit(): void;
  /** The leader sends now, skipping the debounce (a follower asked). */
  sendNow(): void;
  /** Another tab changed the stored announcements. */
  reloadAnnouncements(): void;
};

/**
 * Step T — the tabs of one attempt: the Web Lock that gives one of them the sync role (T1) and the
 * BroadcastChannel between them (T2). A follower shows the leader's network state.
 */
export class Tabs {
  /** The leader's network state, as it last broadcast it (followers only). */
  leaderNet: NetStatus | null = null;
  private channel: ChannelLike | null = null;
  private lockAbort: AbortController | null = null;
  private releaseLeadership: (() => void) | null = null;
  private lastNetKey = "";

  private readonly attemptId: string;

  constructor(
    private readonly kernel: SyncKernel,
    private readonly host: TabsHost,
  ) {
    this.attemptId = kernel.attemptId;
  }

  openChannel(env: SyncEnvironment): void {
    this.channel = env.openChannel?.(`holdfast-${this.attemptId}`, (data) => this.onMessage(data)) ?? null;
  }

  /**
   * T1 — one tab per attempt holds the sync role: a Web Lock held for the engine's lifetime. When the leader
   * closes, the browser grants the lock to the next waiting tab, which reloads IndexedDB (every edit is there
   * before anything else) and carries on. Without Web Locks this tab is the leader. `granted` is called with
   * the lock held, unless `stillWanted` says the engine stopped meanwhile.
   */
  requestLeadership(env: SyncEnvironment | null, stillWanted: () => boolean, granted: () => void): void {
    const locks = env?.locks ?? null;
    if (!locks) {
      granted();
      return;
    }
    const abort = new AbortController();
    this.lockAbort = abort;
    locks
      .request(`holdfast-sync-${this.attemptId}`, { signal: abort.signal }, () => {
        if (!stillWanted()) return Promise.resolve();
        return new Promise<void>((resolve) => {
          this.releaseLeadership = resolve;
          granted();
        });
      })
      .catch(() => undefined);
    // Ask the current leader for its network state, to show the same banner in every tab.
    this.post({ type: "hello" });
  }

  /** Leaves the sync role to the next tab and closes the channel. */
  close(): void {
    this.channel?.close();
    this.channel = null;
    this.lockAbort?.abort();
    this.lockAbort = null;
    this.releaseLeadership?.();
    this.releaseLeadership = null;
  }

  post(message: TabMessage): void {
    try {
      this.channel?.post(message);
    } catch {
      // A closed channel (the page is unloading): the other tabs re-read IndexedDB when they next take the role.
    }
  }

  /** The leader's network state, sent to the followers when it changes. */
  broadcastNet(net: NetStatus): void {
    const key = JSON.stringify(net);
    if (key === this.lastNetKey) return;
    this.lastNetKey = key;
    this.post({ type: "net", net });
  }

  private onMessage(data: unknown): void {
    if (!this.host.running() || !isTabMessage(data)) return;
    if (data.type === "hello") {
      if (this.host.isLeader()) this.post({ type: "net", net: this.host.netStatus() });
      return;
    }
    if (data.type === "net") {
      if (!this.host.isLeader()) {
        this.leaderNet = data.net;
        this.host.emit();
      }
      return;
    }
    if (data.type === "announcements") {
      this.host.reloadAnnouncements();
      return;
    }
    const kernel = this.kernel;
    if (data.type === "flush") {
      // After any re-read already queued, so the leader sends what the follower wrote.
      kernel.track(
        kernel
          .serial(async () => undefined)
          .then(() => {
            if (this.host.isLeader()) this.host.sendNow();
          }),
      );
      return;
    }
    // Another tab wrote IndexedDB: re-read these questions (null: everything).
    const questionIds = data.questionIds;
    kernel.track(
      (async () => {
        await (questionIds === null ? kernel.reloadAll() : kernel.reload(questionIds));
        this.host.emit();
      })(),
    );
  }
}
