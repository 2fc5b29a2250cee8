import "server-only";

import { randomBytes } from "node:crypto";

import { deriveCandidateStatus } from "@/lib/shared/proctor/live-status";
import type { CandidateFacts } from "@/lib/shared/schemas/proctor";

import { log } from "../log";
import { subscribeExam, whenLive, type Subscription } from "./exam-bus";
import { loadCandidateFacts } from "./load-candidate-facts";

/**
 * The events feed of one exam on this instance (docs/sync-protocol.md, "Proctor dashboard"): one object per
 * exam, shared by every dashboard connected to this instance, so 50 proctors watching 10,000 candidates cost
 * one bus subscription and one reload per batch, not 50.
 *
 * 1. The exam bus says "this candidate changed" (from any instance); the feed marks them dirty.
 * 2. At most every FLUSH_MS it reloads the dirty candidates' facts and sends ONE `candidates` event with all
 *    of them to every connection: 1,000 heartbeats in a second become a handful of events.
 * 3. Events carry ids `<epoch>.<seq>`; the last BUFFER_EVENTS (at most BUFFER_BYTES) are kept, so a dashboard that reconnects with
 *    Last-Event-ID of this epoch gets what it missed. Another epoch (another instance, a restart, a dropped
 *    feed) or an id older than the buffer cannot be resumed: the dashboard reloads the snapshot.
 * 4. Every HEAL_MS it reloads every candidate and sends those whose facts changed unannounced: bus messages
 *    are hints and can be lost (Redis restarting, a publish that failed), and this heals it.
 * 5. A connection whose unsent events pile up beyond MAX_QUEUED_EVENTS is told to `resync` and closed: a
 *    dashboard that cannot keep up reloads the snapshot rather than holding the server's memory.
 * 6. The feed is dropped, with its bus subscription, LINGER_MS after its last connection leaves.
 *
 * What the heal compares to is seeded once: by the snapshot that made or met the feed (a dashboard opens
 * its stream and reads the snapshot within a moment, so the exam is read once, not twice), else by the
 * feed's own full read SEED_MS after it was made.
 */
export const EXAM_FEED_TIMINGS = {
  flushMs: 300,
  /** A first change waits this long for others to join its event. */
  batchMs: 50,
  healMs: 60_000,
  /** Without a snapshot to seed it by then, the feed reads every candidate itself. */
  seedMs: 1_000,
  keepAliveMs: 15_000,
  lingerMs: 30_000,
};
export const BUFFER_EVENTS = 500;
/** A heal after lost messages can name every candidate (megabytes): the buffer also stays under this size. */
export const BUFFER_BYTES = 32 * 1024 * 1024;
export const MAX_QUEUED_EVENTS = 200;

const encoder = new TextEncoder();

/** One server-sent event, as the bytes every connection is sent. */
export function sseEvent(event: string, data: unknown, id?: string): Uint8Array {
  return encoder.encode(`${id === undefined ? "" : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

export const SSE_KEEP_ALIVE = encoder.encode(": keep-alive\n\n");

/** What the feed needs of a connection. `send` returns false when the connection is too far behind. */
export type FeedConnection = { send: (bytes: Uint8Array) => boolean; close: () => void };

type BufferedEvent = { seq: number; bytes: Uint8Array };

export class ExamFeed {
  readonly examId: string;
  readonly epoch: string;
  private seq = 0;
  private readonly buffer: BufferedEvent[] = [];
  private bufferBytes = 0;
  private readonly connections = new Set<FeedConnection>();
  private readonly dirty = new Set<string>();
  /** The facts last sent (or first loaded) per candidate, without observedAt: what the heal compares to. */
  private readonly known = new Map<string, { observedAt: number; json: string }>();
  private flushTimer: NodeJS.Timeout | null = null;
  private isFlushing = false;
  private lastFlushAt = 0;
  private readonly intervals: NodeJS.Timeout[];
  private lingerTimer: NodeJS.Timeout | null = null;
  private seedTimer: NodeJS.Timeout | null = null;
  private isSeeded = false;
  private readonly unsubscribe: Subscription;
  private readonly onDrop: (feed: ExamFeed) => void;

  constructor(examId: string, onDrop: (feed: ExamFeed) => void) {
    this.examId = examId;
    this.onDrop = onDrop;
    this.epoch = `${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;
    // 1.
    this.unsubscribe = subscribeExam(examId, (message) => {
      if (message.type !== "change") return;
      if (message.kind === "announcement_received") {
        // Not a fact of the candidate: dashboards reload the announcements' counts themselves.
        this.broadcast(sseEvent("announcements", { serverTime: Date.now() }));
        return;
      }
      this.dirty.add(message.enrollmentId);
      this.scheduleFlush();
    });
    this.intervals = [
      setInterval(() => void this.heal(), EXAM_FEED_TIMINGS.healMs),
      setInterval(() => this.broadcast(SSE_KEEP_ALIVE), EXAM_FEED_TIMINGS.keepAliveMs),
    ];
    for (const interval of this.intervals) interval.unref();
    this.startLinger();
    this.seedTimer = setTimeout(() => {
      this.seedTimer = null;
      if (this.isSeeded) return;
      void this.seedWith(loadCandidateFacts({ examId })).catch((error: unknown) =>
        log.warn("exam feed: first load failed; the next heal retries", { examId, error }),
      );
    }, EXAM_FEED_TIMINGS.seedMs);
    this.seedTimer.unref();
  }

  /**
   * Every candidate's facts as read by a snapshot: what the heal compares to, without reading them again.
   * Only once: later snapshots must not absorb an unannounced change the heal still owes other dashboards.
   */
  seed(facts: CandidateFacts[]): void {
    if (this.isSeeded) return;
    void this.seedWith(Promise.resolve(facts));
  }

  private async seedWith(load: Promise<CandidateFacts[]>): Promise<void> {
    await this.remember(load);
    this.isSeeded = true;
  }

  /** Settles once the feed's bus subscription is live (exam-bus.ts, Subscription): changes from then on reach it. */
  get live(): Promise<void> {
    return this.unsubscribe.live;
  }

  get lastEventId(): string {
    return `${this.epoch}.${this.seq}`;
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  /**
   * Adds a connection: `ready` first, then (when `lastEventId` can be resumed) every buffered event after it.
   * Returns whether it was resumed.
   */
  connect(connection: FeedConnection, lastEventId: string | null): boolean {
    this.stopLinger();
    this.connections.add(connection);
    const missed = this.missedSince(lastEventId);
    connection.send(sseEvent("ready", { serverTime: Date.now(), resumed: missed !== null }, this.lastEventId));
    for (const event of missed ?? []) {
      if (!this.deliver(connection, event.bytes)) break;
    }
    return missed !== null;
  }

  disconnect(connection: FeedConnection): void {
    if (!this.connections.delete(connection)) return;
    if (this.connections.size === 0) this.startLinger();
  }

  /** Marks candidates changed without a bus message (tests, and callers that know better). */
  markDirty(enrollmentIds: readonly string[]): void {
    for (const id of enrollmentIds) this.dirty.add(id);
    this.scheduleFlush();
  }

  /** The buffered events after `lastEventId`, or null when it cannot be resumed (3). */
  private missedSince(lastEventId: string | null): BufferedEvent[] | null {
    const match = lastEventId?.match(/^([0-9a-z]+)\.(\d+)$/);
    if (!match || match[1] !== this.epoch) return null;
    const seq = Number(match[2]);
    if (seq > this.seq) return null;
    const oldest = this.buffer[0]?.seq ?? this.seq + 1;
    if (seq < oldest - 1) return null;
    return this.buffer.filter((event) => event.seq > seq);
  }

  // 2.
  private scheduleFlush(): void {
    if (this.flushTimer || this.isFlushing) return;
    const wait = Math.max(EXAM_FEED_TIMINGS.batchMs, this.lastFlushAt + EXAM_FEED_TIMINGS.flushMs - Date.now());
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      void this.flush();
    }, wait);
  }

  private async flush(): Promise<void> {
    if (this.dirty.size === 0) return;
    const enrollmentIds = [...this.dirty];
    this.dirty.clear();
    this.isFlushing = true;
    this.lastFlushAt = Date.now();
    try {
      const facts = await this.remember(loadCandidateFacts({ examId: this.examId, enrollmentIds }));
      this.publish(facts);
    } catch (error) {
      // Postgres hiccuped: try these candidates again with the next batch.
      for (const id of enrollmentIds) this.dirty.add(id);
      log.warn("exam feed: reload failed; retrying with the next batch", { examId: this.examId, error });
    } finally {
      this.isFlushing = false;
      if (this.dirty.size > 0) this.scheduleFlush();
    }
  }

  // 4.
  private async heal(): Promise<void> {
    if (this.connections.size === 0) return;
    try {
      if (!this.isSeeded) {
        // Nothing to compare with yet (the first read failed, or a heal came first): this read is the seed.
        await this.seedWith(loadCandidateFacts({ examId: this.examId }));
        return;
      }
      const all = await loadCandidateFacts({ examId: this.examId });
      const changed = all.filter((facts) => this.known.get(facts.enrollmentId)?.json !== comparable(facts));
      await this.remember(Promise.resolve(changed));
      this.publish(changed);
    } catch (error) {
      log.warn("exam feed: periodic reload failed", { examId: this.examId, error });
    }
  }

  /** Records what was loaded as known; an older read never replaces a newer one. */
  private async remember(load: Promise<CandidateFacts[]>): Promise<CandidateFacts[]> {
    const facts = await load;
    for (const candidate of facts) {
      const previous = this.known.get(candidate.enrollmentId);
      if (previous && previous.observedAt > candidate.observedAt) continue;
      this.known.set(candidate.enrollmentId, { observedAt: candidate.observedAt, json: comparable(candidate) });
    }
    return facts;
  }

  private publish(candidates: CandidateFacts[]): void {
    if (candidates.length === 0) return;
    this.seq += 1;
    const serverTime = Date.now();
    const live = candidates.map((facts) => ({ ...facts, status: deriveCandidateStatus(facts, serverTime) }));
    const bytes = sseEvent("candidates", { serverTime, candidates: live }, this.lastEventId);
    this.buffer.push({ seq: this.seq, bytes });
    this.bufferBytes += bytes.byteLength;
    while (this.buffer.length > BUFFER_EVENTS || (this.bufferBytes > BUFFER_BYTES && this.buffer.length > 1)) {
      this.bufferBytes -= this.buffer.shift()!.bytes.byteLength;
    }
    this.broadcast(bytes);
  }

  private broadcast(bytes: Uint8Array): void {
    for (const connection of [...this.connections]) this.deliver(connection, bytes);
  }

  // 5.
  private deliver(connection: FeedConnection, bytes: Uint8Array): boolean {
    if (connection.send(bytes)) return true;
    this.connections.delete(connection);
    connection.send(sseEvent("resync", { serverTime: Date.now(), reason: "too far behind" }));
    connection.close();
    if (this.connections.size === 0) this.startLinger();
    return false;
  }

  // 6.
  private startLinger(): void {
    this.stopLinger();
    this.lingerTimer = setTimeout(() => {
      if (this.connections.size === 0) this.drop();
    }, EXAM_FEED_TIMINGS.lingerMs);
    this.lingerTimer.unref();
  }

  private stopLinger(): void {
    if (this.lingerTimer) clearTimeout(this.lingerTimer);
    this.lingerTimer = null;
  }

  private drop(): void {
    this.unsubscribe();
    for (const interval of this.intervals) clearInterval(interval);
    if (this.flushTimer) clearTimeout(this.flushTimer);
    if (this.seedTimer) clearTimeout(this.seedTimer);
    this.stopLinger();
    this.onDrop(this);
  }
}

/** The facts as text without observedAt, which differs on every read. */
function comparable(facts: CandidateFacts): string {
  return JSON.stringify({ ...facts, observedAt: 0 });
}

const globalForFeeds = globalThis as unknown as { holdfastExamFeeds?: Map<string, ExamFeed> };

function feeds(): Map<string, ExamFeed> {
  return (globalForFeeds.holdfastExamFeeds ??= new Map());
}

/** This instance's feed of an exam, made on first use. The caller has checked the exam is visible. */
export function examFeed(examId: string): ExamFeed {
  let feed = feeds().get(examId);
  if (!feed) {
    feed = new ExamFeed(examId, (dropped) => {
      if (feeds().get(examId) === dropped) feeds().delete(examId);
    });
    feeds().set(examId, feed);
  }
  return feed;
}

/** Whether this instance has a live feed for the exam (tests: a feed is dropped after its last connection). */
export function hasExamFeed(examId: string): boolean {
  return feeds().has(examId);
}

/**
 * The events stream's current id for a snapshot, taken once the exam's feed (made if need be) hears the bus:
 * every change committed after the snapshot's read is then buffered for the dashboard that connects with this
 * id a moment later, not left to the next heal.
 */
export async function currentExamEventId(examId: string): Promise<string> {
  const feed = examFeed(examId);
  await whenLive(feed.live);
  return feed.lastEventId;
}

/** Hands a snapshot's full read to the exam's feed on this instance, if it has one, as its seed. */
export function seedExamFeed(examId: string, facts: CandidateFacts[]): void {
  feeds().get(examId)?.seed(facts);
}
