import type { CandidateAnnouncement } from "@/lib/shared/schemas/announcements";
import { AttemptViewSchema } from "@/lib/shared/schemas/sync-responses";

import { listAnnouncements, storeAnnouncements, updateAnnouncements } from "../offline/announcements";
import type { AnnouncementRecord } from "../offline/db";
import type { SyncKernel } from "./kernel";

/** What the page shows: every announcement of the attempt on this device, oldest first. */
export type AnnouncementsSnapshot = readonly AnnouncementRecord[];

/**
 * Step A — staff's announcements on the candidate's device (docs/sync-protocol.md, "Announcements"):
 *
 * A1. On start, the ones the device already holds (the page shows them offline, after a reload).
 * A2. New ones, pushed by the page's stream (`announcement`) or read back from the attempt when the stream
 *     (re)opens (`catchUp`: a device offline when one was sent), are stored before anything else.
 * A3. Once stored, the device acknowledges them (`POST …/announcements/receipts`), and marks them acknowledged
 *     when the server answered 204; the others are sent again on the next catch-up.
 * A4. Dismissing, or showing again, is this device's own choice, stored and never sent.
 * Every tab of the attempt shows the same: a tab that stored something new, or a dismissal, tells the others.
 */
export class AnnouncementInbox {
  private records: AnnouncementsSnapshot = [];
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly kernel: SyncKernel,
    /** The stored announcements changed here: the other tabs of the attempt re-read them (T2). */
    private readonly onStoreChanged: () => void,
  ) {}

  getSnapshot = (): AnnouncementsSnapshot => this.records;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /** A1. */
  load(): Promise<void> {
    return this.quietly(this.reread());
  }

  /** A2 and A3. */
  receive(announcements: readonly CandidateAnnouncement[]): Promise<void> {
    return this.quietly(
      (async () => {
        const added =
          announcements.length > 0
            ? await storeAnnouncements(this.kernel.db, this.kernel.attemptId, announcements)
            : [];
        await this.reread();
        if (added.length > 0) this.onStoreChanged();
        await this.acknowledge();
      })(),
    );
  }

  /** A2: what the server holds for this candidate, for a stream that was closed when some were sent. */
  catchUp(): Promise<void> {
    return this.quietly(
      (async () => {
        const outcome = await this.kernel.request("GET", "", undefined);
        if (outcome.kind !== "answer" || outcome.status !== 200) return;
        const parsed = AttemptViewSchema.safeParse(outcome.body);
        if (parsed.success) await this.receive(parsed.data.announcements ?? []);
      })(),
    );
  }

  /** A4. */
  dismiss = (id: string): Promise<void> => this.setDismissed(id, 1);
  showAgain = (id: string): Promise<void> => this.setDismissed(id, 0);

  private async setDismissed(id: string, dismissed: 0 | 1): Promise<void> {
    await updateAnnouncements(this.kernel.db, this.kernel.attemptId, [id], { dismissed });
    await this.reread();
    this.onStoreChanged();
  }

  private async acknowledge(): Promise<void> {
    const deviceId = this.kernel.deviceId;
    const ids = this.records.filter((record) => record.acknowledged === 0).map((record) => record.id);
    if (!deviceId || ids.length === 0) return;
    const outcome = await this.kernel.request("POST", "/announcements/receipts", JSON.stringify({ deviceId, ids }));
    if (outcome.kind !== "answer" || outcome.status !== 204) return;
    await updateAnnouncements(this.kernel.db, this.kernel.attemptId, ids, { acknowledged: 1 });
    await this.reread();
  }

  /**
   * Announcements are a courtesy on top of the paper: a failed store read or request leaves them as they
   * were (the next stream opening catches up again), and never becomes the page's error.
   */
  private quietly(work: Promise<void>): Promise<void> {
    return this.kernel.track(work.catch(() => undefined));
  }

  private async reread(): Promise<void> {
    this.records = await listAnnouncements(this.kernel.db, this.kernel.attemptId);
    for (const listener of this.listeners) listener();
  }
}
