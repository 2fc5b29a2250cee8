import { ExamCandidatesEventSchema, ExamReadyEventSchema, ExamResyncEventSchema } from "@/lib/shared/schemas/proctor";
import type { z } from "@/lib/shared/zod";

import type { CandidateStore } from "./candidate-store";

export type StreamState = "connecting" | "live" | "reconnecting";

/** What the stream needs of EventSource: the browser's, or a fake in tests. */
export type EventSourceLike = {
  readonly readyState: number;
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void;
  close(): void;
};
export type EventSourceFactory = (url: string) => EventSourceLike;

const CLOSED = 2;

/**
 * The dashboard's end of `GET /api/proctor/exams/{examId}/events` (docs/sync-protocol.md, "Proctor
 * dashboard"), kept outside React so its reconnect rules are tested without a browser:
 *
 * 1. `candidates` events merge into the store (newest `observedAt` wins there).
 * 2. `ready {resumed: false}` after the first connection, and every `resync`, mean events were missed:
 *    `onResync` reloads the snapshot. The first `ready` needs no reload: the snapshot is read after it.
 * 3. `announcements` (a device stored one) calls `onAnnouncements`: the counts are reloaded, not streamed.
 * 4. A dropped connection the browser retries itself (readyState CONNECTING) resumes with Last-Event-ID;
 *    one the browser gave up on (CLOSED: a 5xx, a proxy) is opened again here after a pause that grows
 *    to 10 s, and its `ready` tells whether it resumed.
 */
export class ExamEventStream {
  private source: EventSourceLike | null = null;
  private state: StreamState = "connecting";
  private hasBeenReady = false;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private retryDelayMs: number;
  private readonly listeners = new Set<() => void>();
  private isStopped = false;

  constructor(
    private readonly options: {
      url: string;
      store: CandidateStore;
      onResync: () => void;
      /** The first `ready` or the first failure: the snapshot may be read now. */
      onSettled?: () => void;
      /** A candidate's device stored an announcement: the announcements' counts are out of date. */
      onAnnouncements?: () => void;
      createSource?: EventSourceFactory;
      initialRetryMs?: number;
    },
  ) {
    this.retryDelayMs = options.initialRetryMs ?? 1_000;
  }

  start(): void {
    this.isStopped = false;
    this.open();
  }

  stop(): void {
    this.isStopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.source?.close();
    this.source = null;
  }

  getState = (): StreamState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  private setState(state: StreamState): void {
    if (this.state === state) return;
    this.state = state;
    for (const listener of this.listeners) listener();
  }

  private open(): void {
    const create = this.options.createSource ?? ((url: string) => new EventSource(url) as EventSourceLike);
    const source = create(this.options.url);
    this.source = source;

    source.addEventListener("ready", (event) => {
      const data = parse(ExamReadyEventSchema, event.data);
      if (!data) return;
      this.options.store.noteServerTime(data.serverTime);
      this.retryDelayMs = this.options.initialRetryMs ?? 1_000;
      const isFirst = !this.hasBeenReady;
      this.hasBeenReady = true;
      this.setState("live");
      if (isFirst) this.options.onSettled?.();
      else if (!data.resumed) this.options.onResync();
    });

    source.addEventListener("candidates", (event) => {
      const data = parse(ExamCandidatesEventSchema, event.data);
      if (!data) return;
      this.options.store.merge(data.candidates, data.serverTime);
      this.setState("live");
    });

    source.addEventListener("announcements", () => this.options.onAnnouncements?.());

    source.addEventListener("resync", (event) => {
      const data = parse(ExamResyncEventSchema, event.data);
      if (data) this.options.store.noteServerTime(data.serverTime);
      this.options.onResync();
    });

    source.addEventListener("error", () => {
      if (this.source !== source || this.isStopped) return;
      this.setState("reconnecting");
      // Without a first ready the snapshot is still worth reading: the table shows while the stream retries.
      if (!this.hasBeenReady) this.options.onSettled?.();
      if (source.readyState !== CLOSED) return;
      source.close();
      this.source = null;
      const delay = this.retryDelayMs;
      this.retryDelayMs = Math.min(10_000, this.retryDelayMs * 2);
      this.retryTimer = setTimeout(() => {
        this.retryTimer = null;
        if (!this.isStopped) this.open();
      }, delay);
    });
  }
}

/** An event's data read by its schema; null when it is not JSON or not of that shape (the event is ignored). */
function parse<S extends z.ZodType>(schema: S, data: string): z.output<S> | null {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return null;
  }
  const parsed = schema.safeParse(json);
  return parsed.success ? parsed.data : null;
}
