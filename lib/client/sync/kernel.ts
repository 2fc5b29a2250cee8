import { classifySyncResponse } from "@/lib/shared/backoff";
import type { DeviceStatus } from "@/lib/shared/schemas/device-status";

import { getAttemptRecord, getStoredAttempt } from "../offline/attempts";
import {
  getDb,
  type AttemptRecord,
  type DraftRecord,
  type HoldfastDb,
  type RecordedError,
  type StoredAttempt,
} from "../offline/db";
import { getDrafts, listDrafts } from "../offline/drafts";
import { send, type FetchLike, type HttpOutcome, type Timers } from "./http";
import { keepUnchangedParts } from "./stable-attempt";
import { DEFAULT_SYNC_CONFIG, type SyncConfig } from "./sync-config";

/** What the kernel is built from: the engine's options less the page's view and the browser environment. */
export type KernelOptions = {
  attemptId: string;
  db?: HoldfastDb;
  fetch?: FetchLike;
  /** Device clock in epoch milliseconds. */
  now?: () => number;
  timers?: Timers;
  random?: () => number;
  config?: Partial<SyncConfig>;
  /** Prefix of the API paths; "" in the browser (same origin). */
  baseUrl?: string;
};

export type RequestExtra = { keepalive?: boolean; headers?: Record<string, string>; timeoutMs?: number };

function defaultTimers(): Timers {
  return {
    setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
    clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
  };
}

export function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** F3 — the contract's retry classes (lib/shared/backoff.ts). */
export function classify(outcome: HttpOutcome) {
  return outcome.kind === "network" ? classifySyncResponse(null) : classifySyncResponse(outcome.status, outcome.code);
}

/** A final answer as the device keeps it (shown, and kept with the drafts or the submit it concerns). */
export function recordedError(outcome: HttpOutcome): RecordedError {
  if (outcome.kind === "network") return { status: 0, code: null, message: outcome.message };
  return {
    status: outcome.status,
    code: outcome.code,
    message: outcome.message ?? `The server answered ${outcome.status}.`,
  };
}

/** The device's status report, which an autosave carries when one is due (heartbeat.ts, ADR 022). */
export type StatusReporter = {
  /** The report to carry on an autosave of `sentCount` pending drafts, or undefined when none is due. */
  statusForAutosave(sentCount: number): DeviceStatus | undefined;
  /** The autosave that carried it was acknowledged. */
  delivered(status: DeviceStatus): void;
};

/**
 * The engine's kernel, shared by every part: the injected clock, timers and fetch, the requests to the attempt's
 * routes, the serial queue of IndexedDB operations and the in-memory copy of IndexedDB they keep up to date, and the
 * tasks `whenIdle` waits for. It knows nothing of leadership, timers' meaning or the page.
 */
export class SyncKernel {
  readonly attemptId: string;
  readonly db: HoldfastDb;
  readonly now: () => number;
  readonly timers: Timers;
  readonly random: () => number;
  readonly config: SyncConfig;
  readonly baseUrl: string;
  private readonly fetchFn: FetchLike;
  private awaitingNetwork = 0;
  private readonly tasks = new Set<Promise<unknown>>();
  private queue: Promise<unknown> = Promise.resolve();

  // The in-memory copy of IndexedDB, only written by operations run through `serial`.
  deviceId: string | null = null;
  private record: AttemptRecord | null = null;
  drafts = new Map<string, DraftRecord>();
  /** Set by the engine: the heartbeat, whose report rides on autosaves. */
  statusReporter: StatusReporter | null = null;

  /** The attempt as the page shows it; a new record keeps the previous one's unchanged questions and flags. */
  get attempt(): AttemptRecord | null {
    return this.record;
  }

  /**
   * A row of `attempts` without its question set (what every write after the load returns) keeps the paper
   * already read: an attempt's questions do not change once it has begun. Before the paper was read there is
   * nothing to show, and such a row is left for the load, which reads both.
   */
  set attempt(next: AttemptRecord | StoredAttempt | null) {
    const record =
      next === null || "questions" in next ? next : this.record && { ...next, questions: this.record.questions };
    this.record = keepUnchangedParts(this.record, record);
  }

  constructor(options: KernelOptions) {
    this.attemptId = options.attemptId;
    this.db = options.db ?? getDb();
    const fetchFn = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.fetchFn = (input, init) => {
      this.awaitingNetwork += 1;
      return fetchFn(input, init).finally(() => {
        this.awaitingNetwork -= 1;
      });
    };
    this.now = options.now ?? Date.now;
    this.timers = options.timers ?? defaultTimers();
    this.random = options.random ?? Math.random;
    this.config = { ...DEFAULT_SYNC_CONFIG, ...options.config };
    this.baseUrl = options.baseUrl ?? "";
  }

  /** The attempt's API path plus `suffix`. */
  url(suffix: string): string {
    return `${this.baseUrl}/api/attempts/${encodeURIComponent(this.attemptId)}${suffix}`;
  }

  request(
    method: "GET" | "POST",
    suffix: string,
    body: string | undefined,
    extra: RequestExtra = {},
  ): Promise<HttpOutcome> {
    return send({
      fetch: this.fetchFn,
      timers: this.timers,
      now: this.now,
      method,
      url: this.url(suffix),
      body,
      headers: extra.headers,
      keepalive: extra.keepalive,
      timeoutMs: extra.timeoutMs ?? this.config.requestTimeoutMs,
    });
  }

  /**
   * Every IndexedDB operation whose result updates the in-memory copy runs through this queue, one after another,
   * so the copy always reflects transactions in the order they ran (a slow re-read can never overwrite a newer
   * edit). Network requests never run inside it.
   */
  serial<T>(operation: () => Promise<T>): Promise<T> {
    const run = this.queue.then(operation, operation);
    this.queue = run.catch(() => undefined);
    return this.track(run);
  }

  track<T>(promise: Promise<T>): Promise<T> {
    this.tasks.add(promise);
    const remove = () => this.tasks.delete(promise);
    promise.then(remove, remove);
    return promise;
  }

  /** True while anything runs except requests waiting for the server. */
  busy(): boolean {
    return this.tasks.size > this.awaitingNetwork;
  }

  reloadAll(): Promise<void> {
    return this.serial(async () => {
      const attempt = await getAttemptRecord(this.db, this.attemptId);
      const drafts = await listDrafts(this.db, this.attemptId);
      this.attempt = attempt ?? this.attempt;
      this.drafts = new Map(drafts.map((draft) => [draft.questionId, draft]));
    });
  }

  reload(questionIds: readonly string[]): Promise<void> {
    return this.serial(async () => {
      const attempt = await getStoredAttempt(this.db, this.attemptId);
      const drafts = await getDrafts(this.db, this.attemptId, questionIds);
      this.attempt = attempt ?? this.attempt;
      for (const draft of drafts) this.drafts.set(draft.questionId, draft);
    });
  }

  reloadAttempt(): Promise<void> {
    return this.serial(async () => {
      this.attempt = (await getStoredAttempt(this.db, this.attemptId)) ?? this.attempt;
    });
  }
}
