// A simulated candidate that runs the browser's own sync engine (lib/client/sync/sync-engine.ts) in
// Node, over fake-indexeddb: the same IndexedDB store, Lamport versions, debounce, retry discipline,
// breaker, heartbeat, stored submit key and body, and merge on reload that the exam page runs. Each
// device of a candidate has its own IndexedDB database, as two browsers would. It can crash a device
// (stop the engine without a flush, like a killed tab) and reopen it from what IndexedDB kept.
//
// Heavier than bench/lib/candidates/sim-candidate.ts (every edit is an IndexedDB transaction in this process),
// so scenarios use it for hundreds of candidates, not tens of thousands.
import "fake-indexeddb/auto";

import { HoldfastDb } from "../../../lib/client/offline/db";
import { backoffDelay } from "../../../lib/shared/backoff";
import type { SyncEnvironment } from "../../../lib/client/sync/environment";
import type { FetchLike } from "../../../lib/client/sync/http";
import { SyncEngine } from "../../../lib/client/sync/sync-engine";
import type { AttemptView } from "../../../lib/shared/schemas/attempts";
import { randomValue, type BenchQuestion } from "./exam";
import { outcomeKey, retryAfterMs, type HttpResult } from "../load/http-client";
import { newLedger, recordAcknowledged, recordSubmitAnswer, type CandidateLedger } from "./ledger";
import { sleep } from "../run/log";
import type { RunStats } from "../load/op-stats";
import { requestKind, type Transport } from "./transport";

type Device = { db: HoldfastDb; engine: SyncEngine | null; cookie: string; deviceId: string | null; name: string };

let databases = 0;

/** A browser with no other tabs, always visible, never told it is offline (faults come from the network). */
function nodeEnvironment(): SyncEnvironment {
  return {
    window: new EventTarget(),
    document: new EventTarget(),
    isOnline: () => true,
    isVisible: () => true,
    storagePersisted: async () => true,
    locks: null,
    openChannel: null,
  };
}

/** The operation a sync request is counted under, from its path. */
function operationOf(method: string, url: string): string {
  if (url.endsWith("/answers")) return "autosave";
  if (url.endsWith("/submit")) return "submit";
  if (url.endsWith("/heartbeat")) return "heartbeat";
  if (url.endsWith("/export-key")) return "export-key";
  return method === "GET" ? "merge" : "other";
}

function toHeaders(result: HttpResult): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(result.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return headers;
}

export class EngineCandidate {
  readonly ledger: CandidateLedger;
  private readonly devices: Device[] = [];
  private attemptId: string | null = null;

  constructor(
    private readonly options: {
      index: number;
      email: string;
      joinToken: string;
      examId: string;
      questions: readonly BenchQuestion[];
      transport: Transport;
      stats: RunStats;
      giveUpAtMs: number;
      signal: AbortSignal;
    },
  ) {
    this.ledger = newLedger(options.index, options.email);
  }

  get attempt(): string | null {
    return this.attemptId;
  }

  /** The first device's session cookie, to read the attempt back for the checker. */
  get cookie(): string | null {
    return this.devices[0]?.cookie ?? null;
  }

  get deviceCount(): number {
    return this.devices.length;
  }

  private get isGivenUp(): boolean {
    return this.options.signal.aborted || this.options.stats.now() >= this.options.giveUpAtMs;
  }

  /** A request outside the engine (join, start), retried until answered like the page's own calls. */
  private async pageCall(
    operation: string,
    request: { method: "POST"; path: string; body?: string; cookie?: string },
  ): Promise<HttpResult> {
    for (let tries = 0; ; tries += 1) {
      const sentAt = this.options.stats.now();
      const result = await this.options.transport({
        method: request.method,
        path: request.path,
        body: request.body,
        headers: request.cookie ? { cookie: request.cookie } : {},
        timeoutMs: 20_000,
      });
      const kind = requestKind(result);
      this.options.stats.op(operation).record(sentAt, this.options.stats.now() - sentAt, outcomeKey(result), kind);
      if ((kind !== "error" && kind !== "limited") || this.isGivenUp) return result;
      // The page's own calls back off as the sync engine does (lib/shared/backoff.ts).
      await sleep(backoffDelay(tries, Math.random, retryAfterMs(result)), this.options.signal);
    }
  }

  /** The engine's fetch: through the transport (the fault proxy), with this device's cookie; it records what it sees. */
  private fetchFor(device: Device): FetchLike {
    return async (url, init) => {
      const path = url.replace(/^https?:\/\/[^/]+/, "");
      const method = (init.method ?? "GET") as "GET" | "POST";
      const body = typeof init.body === "string" ? init.body : undefined;
      const headers: Record<string, string> = { cookie: device.cookie };
      new Headers(init.headers).forEach((value, name) => {
        headers[name] = value;
      });
      const operation = operationOf(method, path);
      const sentAt = this.options.stats.now();
      const result = await this.options.transport({
        method,
        path,
        body,
        headers,
        timeoutMs: 60_000,
        signal: init.signal ?? undefined,
      });
      this.options.stats
        .op(operation)
        .record(sentAt, this.options.stats.now() - sentAt, outcomeKey(result), requestKind(result));
      if (result.status === 0) throw new TypeError(`fetch failed: ${result.error ?? "no answer"}`);
      if (result.status === 200) this.noteAnswer(operation, body, result);
      return new Response(result.body, { status: result.status, headers: toHeaders(result) });
    };
  }

  /** Acknowledgements and submissions, as the server stated them to this candidate. */
  private noteAnswer(operation: string, requestBody: string | undefined, result: HttpResult): void {
    if (operation === "autosave" && requestBody) {
      const sent = JSON.parse(requestBody) as { deviceId: string; answers: { questionId: string; version: number }[] };
      const answered = JSON.parse(result.body) as { results?: { questionId: string; status: string }[] };
      const statuses = new Map((answered.results ?? []).map((item) => [item.questionId, item.status]));
      for (const answer of sent.answers) {
        const status = statuses.get(answer.questionId);
        if (status === "applied" || status === "duplicate")
          recordAcknowledged(this.ledger, answer.questionId, { version: answer.version, deviceId: sent.deviceId });
      }
    } else if (operation === "submit") {
      recordSubmitAnswer(this.ledger, result);
    }
  }

  /**
   * A new device: join with the token (a new session, as on a second laptop), start or resume the attempt,
   * and open an engine on its own IndexedDB. Returns its index, or null if it could not join.
   */
  async addDevice(): Promise<number | null> {
    const joined = await this.pageCall("join", {
      method: "POST",
      path: "/api/session",
      body: JSON.stringify({ joinToken: this.options.joinToken }),
    });
    const cookie = joined.headers["set-cookie"]?.[0]?.split(";")[0];
    if (joined.status !== 200 || !cookie) {
      this.ledger.failure = `join: ${outcomeKey(joined)}`;
      return null;
    }
    const started = await this.pageCall("start", {
      method: "POST",
      path: `/api/exams/${this.options.examId}/attempts`,
      cookie,
    });
    if (started.status !== 200 && started.status !== 201) {
      this.ledger.failure = `start: ${outcomeKey(started)}`;
      return null;
    }
    const view = JSON.parse(started.body) as AttemptView;
    this.attemptId = view.attemptId;
    this.ledger.attemptId = view.attemptId;
    const device: Device = {
      db: new HoldfastDb(`bench-${process.pid}-${++databases}`),
      engine: null,
      cookie,
      deviceId: null,
      name: `device ${this.devices.length + 1}`,
    };
    this.devices.push(device);
    await this.open(device, view);
    return this.devices.length - 1;
  }

  private async open(device: Device, initialView: AttemptView | null): Promise<void> {
    const engine = new SyncEngine({
      attemptId: this.attemptId!,
      initialView,
      db: device.db,
      fetch: this.fetchFor(device),
      environment: nodeEnvironment(),
      baseUrl: "http://127.0.0.1",
    });
    device.engine = engine;
    await engine.start();
    device.deviceId = engine.getSnapshot().deviceId;
    if (device.deviceId && !this.ledger.devices.includes(device.deviceId)) this.ledger.devices.push(device.deviceId);
  }

  /** One edit on device `index`: a new value for a random question. Refused edits (submitting, closed) are not edits. */
  async edit(index: number): Promise<void> {
    const device = this.devices[index];
    if (!device?.engine || !device.deviceId) return;
    const question = this.options.questions[Math.floor(Math.random() * this.options.questions.length)];
    if (!question) return;
    const value = randomValue(question);
    const atMs = this.options.stats.now();
    const result = await device.engine.edit(question.id, value);
    if (result.ok)
      this.ledger.edits.push({
        questionId: question.id,
        value,
        version: result.version,
        deviceId: device.deviceId,
        atMs,
      });
  }

  /**
   * One edit on a tab that is still open on device `index` after the attempt was submitted from another
   * device, before the tab has heard of it. Recorded apart (`lateEdits`): the server must keep it as a
   * late answer and leave the frozen paper alone. True when the engine took it.
   */
  async lateEdit(index: number): Promise<boolean> {
    const device = this.devices[index];
    if (!device?.engine || !device.deviceId) return false;
    const question = this.options.questions[Math.floor(Math.random() * this.options.questions.length)];
    if (!question) return false;
    const value = randomValue(question);
    const atMs = this.options.stats.now();
    const result = await device.engine.edit(question.id, value);
    if (result.ok)
      this.ledger.lateEdits.push({
        questionId: question.id,
        value,
        version: result.version,
        deviceId: device.deviceId,
        atMs,
      });
    return result.ok;
  }

  /** The tab is killed: no flush, no goodbye. What it wrote to IndexedDB stays. */
  crash(index: number): void {
    const device = this.devices[index];
    device?.engine?.stop();
    if (device) device.engine = null;
  }

  /** The tab is opened again on the same device: the engine starts from IndexedDB and merges with the server. */
  async reopen(index: number): Promise<void> {
    const device = this.devices[index];
    if (!device || device.engine) return;
    await this.open(device, null);
  }

  /** Waits (bounded) until device `index` has nothing pending. True when it got there. */
  async drain(index: number, timeoutMs: number): Promise<boolean> {
    const engine = this.devices[index]?.engine;
    if (!engine) return false;
    const until = Date.now() + timeoutMs;
    while (Date.now() < until && !this.options.signal.aborted) {
      const snapshot = engine.getSnapshot();
      if (snapshot.pendingCount === 0 && snapshot.ready) return true;
      await engine.flushNow();
      await sleep(250, this.options.signal);
    }
    return engine.getSnapshot().pendingCount === 0;
  }

  /**
   * The Submit click on device `index`, then waiting (bounded by the give-up time) until the engine says
   * submitted. The engine retries on its own, with its stored key and body.
   */
  async submit(index: number): Promise<void> {
    const engine = this.devices[index]?.engine;
    if (!engine) return;
    for (;;) {
      const snapshot = await Promise.race([
        engine.submit(),
        sleep(5_000, this.options.signal).then(() => engine.getSnapshot()),
      ]);
      if (snapshot.submitState === "submitted" || snapshot.submittedElsewhere) {
        if (snapshot.submittedElsewhere && this.ledger.submitAnswers.length === 0)
          this.ledger.submittedElsewhere = snapshot.submittedElsewhere.submissionId ?? "unknown";
        return;
      }
      if (snapshot.submitError && snapshot.submitError.status !== 0) {
        this.ledger.failure = `submit: ${snapshot.submitError.status} ${snapshot.submitError.code ?? ""} ${snapshot.submitError.message}`;
        return;
      }
      if (this.isGivenUp) {
        this.ledger.failure = `submit: not answered before the run's end (${snapshot.submitState})`;
        return;
      }
    }
  }

  /** Stops every engine (the end of the run). */
  close(): void {
    for (const device of this.devices) {
      device.engine?.stop();
      device.engine = null;
    }
  }

  /** Deletes this candidate's IndexedDB databases, to free memory. */
  async dispose(): Promise<void> {
    this.close();
    for (const device of this.devices) {
      device.db.close();
      await device.db.delete().catch(() => undefined);
    }
  }
}
