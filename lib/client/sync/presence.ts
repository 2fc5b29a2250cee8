import type { CandidateAnnouncement } from "@/lib/shared/schemas/announcements";

import type { SyncEnvironment, EventStreamLike } from "./environment";
import type { ServerFacts } from "./heartbeat";
import type { SyncKernel } from "./kernel";
import { PRESENCE_EVENTS, readPresenceEvent, type PresenceEvent } from "./presence-events";

/** What the presence stream needs from the engine around it. */
export type PresenceHost = {
  environment(): SyncEnvironment | null;
  running(): boolean;
  isLeader(): boolean;
  /** Changes on stop and start: events of a stream opened before are dropped. */
  generation(): number;
  /** The deadline on the candidate's screen. */
  shownDeadline(): string | null;
  applyServerFacts(facts: ServerFacts, isSubmitted: boolean, receivedAt: number): Promise<void>;
  sendHeartbeat(): void;
  /** Step A2: announcements pushed, or to be read back after the stream (re)opened. */
  receiveAnnouncements(announcements: readonly CandidateAnnouncement[]): void;
  catchUpAnnouncements(): void;
  /** Reads the attempt from the server again (GET, merged: a reopening is taken there). */
  reload(): void;
};

/** Step P — the presence stream (leader only). */
export class PresenceStream {
  private stream: EventStreamLike | null = null;

  constructor(
    private readonly kernel: SyncKernel,
    private readonly host: PresenceHost,
  ) {}

  /**
   * P1 — while this tab holds the sync role, is online and the attempt is open, keep the page's event stream
   * open (`GET /api/attempts/{id}/events?deviceId=…`). The browser reconnects it by itself; the engine closes it
   * on `offline`, `pagehide` and stop, and opens it again on `online` and when the page is shown again.
   * Without it (no EventSource, or no such route yet) the 15 s heartbeat brings the same news, later.
   */
  open(): void {
    const env = this.host.environment();
    const open = env?.openEventStream;
    const deviceId = this.kernel.deviceId;
    if (!open || this.stream || !this.host.running() || !this.host.isLeader() || !deviceId) return;
    const attempt = this.kernel.attempt;
    if (!(env?.isOnline() ?? true) || attempt?.closed || attempt?.submitState === "submitted") return;
    const url = `${this.kernel.url("/events")}?deviceId=${encodeURIComponent(deviceId)}`;
    const generation = this.host.generation();
    this.stream = open(url, PRESENCE_EVENTS, (name, data) => {
      if (generation !== this.host.generation() || !this.host.running()) return;
      for (const event of readPresenceEvent(name, data) ?? []) this.kernel.track(this.onEvent(event));
    });
  }

  close(): void {
    this.stream?.close();
    this.stream = null;
  }

  /**
   * P2 — a deadline other than the one shown (a proctor's extension): show it and send a heartbeat at once,
   * which carries it and so acknowledges it (H4). A pause or a resume (ADR 016): kept with the deadline it
   * comes with, so the page locks or unlocks editing and its clock stops or goes on. A submission (a proctor's
   * force-submit): the same path as a heartbeat saying so; the page ends on its submitted screen.
   * Announcements go to the inbox (announcements.ts). The attempt in progress while this device holds it as
   * submitted (an admin reopened it, ADR 017): the GET that proves it and opens the page again.
   */
  private async onEvent(event: PresenceEvent): Promise<void> {
    if (event.kind === "announcement") {
      this.host.receiveAnnouncements([event.announcement]);
      return;
    }
    if (event.kind === "opened") {
      this.host.catchUpAnnouncements();
      return;
    }
    const receivedAt = this.kernel.now();
    if (event.kind === "open") {
      const attempt = this.kernel.attempt;
      if (attempt?.closed || attempt?.submitState === "submitted") this.host.reload();
      return;
    }
    if (event.kind === "submitted") {
      // The stream stays open while the page does: its closing is what tells the dashboard the device left.
      await this.host.applyServerFacts({ serverTime: event.serverTime }, true, receivedAt);
      return;
    }
    if (event.kind === "paused") {
      await this.host.applyServerFacts({ serverTime: event.serverTime, pause: event.pause }, false, receivedAt);
      return;
    }
    const isNewDeadline = event.deadline !== this.host.shownDeadline();
    if (!isNewDeadline && event.pause === undefined) return;
    await this.host.applyServerFacts(
      {
        serverTime: event.serverTime,
        deadline: event.deadline,
        ...(event.pause !== undefined ? { pause: event.pause } : {}),
      },
      false,
      receivedAt,
    );
    if (isNewDeadline) this.host.sendHeartbeat();
  }
}
