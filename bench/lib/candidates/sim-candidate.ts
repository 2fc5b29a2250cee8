// A simulated candidate that speaks the HTTP API as the contract describes, light enough to run ten
// thousand of them in one process: join with the token, start the attempt, edit questions with
// Lamport versions, send debounced deltas with one request in flight, heartbeat, and submit with the key
// and body stored at the first try. Retries follow the browser's sync engine by calling the same
// functions (lib/shared/backoff.ts: which answers are retried, full-jitter backoff honouring
// Retry-After, the circuit breaker) with the engine's timings (DEFAULT_SYNC_CONFIG). What it does not
// have is the browser's storage: its drafts live in memory, as a tab that is never closed.
// bench/lib/candidates/engine-candidate.ts runs the real engine over IndexedDB instead, for fewer candidates.
import { randomUUID } from "node:crypto";

import {
  CLOSED_BREAKER,
  NO_RETRY_AFTER,
  backoffDelay,
  breakerBeforeRequest,
  breakerOnRetryable,
  breakerOnSuccess,
  breakerReadyAt,
  classifySyncResponse,
  retryAfterHold,
  retryAfterReadyAt,
  type BreakerState,
  type RetryAfterHold,
} from "../../../lib/shared/backoff";
import { answersDigest } from "../../../lib/shared/digest";
import type { AnswerValue } from "../../../lib/shared/schemas/attempts";
import {
  APP_PATHS,
  BROWSER_TIMINGS,
  requestKind,
  type ApiPaths,
  type Request,
  type SimTimings,
  type Transport,
} from "./transport";
import { randomValue, type BenchQuestion } from "./exam";
import { errorCode, outcomeKey, retryAfterMs, type HttpResult } from "../load/http-client";
import { newLedger, recordAcknowledged, recordSubmitAnswer, type CandidateLedger } from "./ledger";
import { sleep } from "../run/log";
import type { RunStats } from "../load/op-stats";

type Draft = { value: AnswerValue; version: number };

export class SimCandidate {
  readonly ledger: CandidateLedger;
  readonly deviceId: string;
  private cookie: string | null = null;
  private attemptId: string | null = null;
  private clock = 0;
  private readonly paper = new Map<string, AnswerValue>();
  private readonly dirty = new Map<string, Draft>();
  private inFlight: Promise<void> | null = null;
  /** No request before these (Date.now ms): the last retry-class answer's Retry-After (held against the kind it answered), and its backoff. */
  private retryAfter: RetryAfterHold = NO_RETRY_AFTER;
  private backoffUntil = 0;
  /**
   * Aborted by the Submit click: the autosave loop stops at its next step (a wait between its retries ends at
   * once); the submit carries its drafts.
   */
  private readonly submitPressed = new AbortController();
  private debounceTimer: NodeJS.Timeout | null = null;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private breaker: BreakerState = CLOSED_BREAKER;
  private lastAckRevision = 0;
  private isClosed = false;
  private oldestPendingAt: number | null = null;
  /** The last status report that reached the server: a heartbeat, or an autosave carrying one (ADR 022). */
  private lastReportAt = -Infinity;
  readonly idempotencyKey = randomUUID();

  constructor(
    private readonly options: {
      index: number;
      email: string;
      joinToken: string;
      examId: string;
      questions: readonly BenchQuestion[];
      transport: Transport;
      stats: RunStats;
      paths?: ApiPaths;
      timings?: SimTimings;
      /** The baseline server has no sessions: skip join/start and use this attempt. */
      preparedAttemptId?: string;
      /** Stop retrying at this run time (ms); what is unsent then stays unsent (counted by the checker). */
      giveUpAtMs: number;
      signal: AbortSignal;
      random?: () => number;
    },
  ) {
    this.ledger = newLedger(options.index, options.email);
    this.deviceId = `sim-${options.index}-${randomUUID().slice(0, 8)}`;
    this.ledger.devices.push(this.deviceId);
  }

  private get paths(): ApiPaths {
    return this.options.paths ?? APP_PATHS;
  }

  private get timings(): SimTimings {
    return this.options.timings ?? BROWSER_TIMINGS;
  }

  private get isGivenUp(): boolean {
    return this.options.signal.aborted || this.options.stats.now() >= this.options.giveUpAtMs;
  }

  /** One request, timed and counted under `operation`. */
  private async call(
    operation: string,
    request: Omit<Request, "timeoutMs"> & { timeoutMs?: number },
  ): Promise<HttpResult> {
    const headers = { ...request.headers };
    if (this.cookie) headers.cookie = this.cookie;
    const sentAt = this.options.stats.now();
    const result = await this.options.transport({
      ...request,
      headers,
      timeoutMs: request.timeoutMs ?? this.timings.requestTimeoutMs,
    });
    this.options.stats
      .op(operation)
      .record(sentAt, this.options.stats.now() - sentAt, outcomeKey(result), requestKind(result));
    return result;
  }

  /**
   * A retry-class answer, as the engine counts it (lib/client/sync/scheduler.ts, F3): the failure streak, the
   * breaker (not opened by an answer with a Retry-After), the backoff, and the Retry-After apart with the kind of
   * request it answered.
   */
  private recordFailure(result: HttpResult, operation: string): void {
    const now = Date.now();
    const retryAfter = retryAfterMs(result, now);
    this.breaker = breakerOnRetryable(this.breaker, now, retryAfter);
    this.retryAfter = retryAfterHold(retryAfter, now, operation === "submit");
    this.backoffUntil = now + backoffDelay(this.breaker.failures - 1, this.options.random ?? Math.random);
  }

  /**
   * Waits until the next request of `operation` may go: the backoff, an open breaker, and a Retry-After as the page
   * holds it (`retryAfterReadyAt`: a submit does not wait out an autosave's), or until `signal`.
   */
  private async waitForTurn(operation: string, signal: AbortSignal = this.options.signal): Promise<void> {
    const readyAt = Math.max(
      retryAfterReadyAt(this.retryAfter, operation === "submit"),
      this.backoffUntil,
      breakerReadyAt(this.breaker),
    );
    if (readyAt > Date.now()) await sleep(readyAt - Date.now(), signal);
    this.breaker = breakerBeforeRequest(this.breaker, Date.now());
  }

  private succeeded(): void {
    this.breaker = breakerOnSuccess();
    this.retryAfter = NO_RETRY_AFTER;
    this.backoffUntil = 0;
  }

  /** An autosave's retries end when Submit is pressed: the submit carries what they would have sent. */
  private isCutShort(operation: string): boolean {
    return operation === "autosave" && this.submitPressed.signal.aborted;
  }

  /**
   * Sends until an answer that is not a retry class, or until the candidate gives up. Returns the last
   * result and its class.
   */
  private async untilAnswered(
    operation: string,
    request: () => Omit<Request, "timeoutMs"> & { timeoutMs?: number },
  ): Promise<{ result: HttpResult; kind: ReturnType<typeof classifySyncResponse> }> {
    for (;;) {
      const result = await this.call(operation, request());
      const kind = classifySyncResponse(result.status, result.status === 0 ? null : (errorCode(result.body) ?? null));
      if (kind !== "retry") this.succeeded();
      else this.recordFailure(result, operation);
      if (kind !== "retry" || this.isGivenUp || this.isCutShort(operation)) return { result, kind };
      await this.waitForTurn(
        operation,
        operation === "autosave"
          ? AbortSignal.any([this.options.signal, this.submitPressed.signal])
          : this.options.signal,
      );
      if (this.isGivenUp || this.isCutShort(operation)) return { result, kind };
    }
  }

  /** POST /api/session with the join token, then start (or resume) the attempt. False if it could not. */
  async joinAndStart(): Promise<boolean> {
    if (this.options.preparedAttemptId) {
      this.attemptId = this.options.preparedAttemptId;
      this.ledger.attemptId = this.attemptId;
      return true;
    }
    const joined = await this.untilAnswered("join", () => ({
      method: "POST",
      path: "/api/session",
      body: JSON.stringify({ joinToken: this.options.joinToken }),
    }));
    const setCookie = joined.result.headers["set-cookie"]?.[0];
    if (joined.kind !== "ok" || !setCookie) {
      this.ledger.failure = `join: ${outcomeKey(joined.result)}`;
      return false;
    }
    this.cookie = setCookie.split(";")[0] ?? null;
    const started = await this.untilAnswered("start", () => ({
      method: "POST",
      path: `/api/exams/${this.options.examId}/attempts`,
    }));
    if (started.kind !== "ok") {
      this.ledger.failure = `start: ${outcomeKey(started.result)}`;
      return false;
    }
    const view = JSON.parse(started.result.body) as {
      attemptId: string;
      revision: number;
      answers: { questionId: string; value: AnswerValue; version: number }[];
    };
    this.attemptId = view.attemptId;
    this.ledger.attemptId = view.attemptId;
    this.lastAckRevision = view.revision;
    for (const answer of view.answers) {
      this.paper.set(answer.questionId, answer.value);
      this.clock = Math.max(this.clock, answer.version);
    }
    if (this.timings.heartbeatMs > 0) this.scheduleHeartbeat(0);
    return true;
  }

  /** One edit: a new value for a random question at version clock + 1, then the debounce. */
  edit(): void {
    if (this.isClosed || !this.attemptId) return;
    const question =
      this.options.questions[Math.floor((this.options.random ?? Math.random)() * this.options.questions.length)];
    if (!question) return;
    const value = randomValue(question);
    this.clock += 1;
    this.paper.set(question.id, value);
    this.dirty.set(question.id, { value, version: this.clock });
    this.oldestPendingAt ??= Date.now();
    this.ledger.edits.push({
      questionId: question.id,
      value,
      version: this.clock,
      deviceId: this.deviceId,
      atMs: this.options.stats.now(),
    });
    if (this.debounceTimer) clearTimeout(this.debounceTimer);
    this.debounceTimer = setTimeout(() => {
      this.debounceTimer = null;
      void this.flush();
    }, this.timings.debounceMs);
  }

  /** Sends the dirty answers (one request in flight), retrying until they are acknowledged. */
  flush(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    if (this.dirty.size === 0 || this.isClosed || !this.attemptId) return Promise.resolve();
    this.inFlight = this.sendDirty().finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  private async sendDirty(): Promise<void> {
    const attemptId = this.attemptId!;
    while (this.dirty.size > 0 && !this.isClosed && !this.submitPressed.signal.aborted) {
      const sent = [...this.dirty].map(([questionId, draft]) => ({
        questionId,
        value: draft.value,
        version: draft.version,
      }));
      const device = this.statusForAutosave(sent.length);
      const { result, kind } = await this.untilAnswered("autosave", () => ({
        method: "POST",
        path: this.paths.answers(attemptId),
        body: JSON.stringify({ deviceId: this.deviceId, answers: sent, device }),
      }));
      if (kind === "ok" && device) this.lastReportAt = Date.now();
      if (kind === "retry") return; // given up: the drafts stay dirty
      if (kind === "closed") {
        this.isClosed = true;
        return;
      }
      if (kind === "final") {
        this.ledger.failure = `autosave: ${outcomeKey(result)} ${result.body.slice(0, 200)}`;
        this.isClosed = true;
        return;
      }
      const body = JSON.parse(result.body) as {
        revision?: number;
        results?: { questionId: string; status: string; version: number }[];
        applied?: string[];
      };
      if (typeof body.revision === "number") this.lastAckRevision = Math.max(this.lastAckRevision, body.revision);
      const statuses = new Map((body.results ?? []).map((item) => [item.questionId, item]));
      for (const answer of sent) {
        // The baseline server answers `applied: [ids]` without per-answer results.
        const status =
          statuses.get(answer.questionId)?.status ?? (body.applied?.includes(answer.questionId) ? "applied" : "stale");
        if (status === "applied" || status === "duplicate")
          recordAcknowledged(this.ledger, answer.questionId, { version: answer.version, deviceId: this.deviceId });
        this.clock = Math.max(this.clock, statuses.get(answer.questionId)?.version ?? 0);
        if (this.dirty.get(answer.questionId)?.version === answer.version) this.dirty.delete(answer.questionId);
      }
      if (this.dirty.size === 0) this.oldestPendingAt = null;
    }
  }

  /** The status an autosave carries when a report is due (the browser's rule, lib/client/sync/heartbeat.ts). */
  private statusForAutosave(sentCount: number) {
    const timings = this.timings;
    if (!timings.statusOnAutosave || timings.heartbeatMs <= 0) return undefined;
    if (Date.now() - this.lastReportAt < timings.heartbeatMs / 2) return undefined;
    const pending = Math.max(0, this.dirty.size - sentCount);
    return {
      online: true,
      pending,
      oldestPendingMs: pending > 0 && this.oldestPendingAt !== null ? Date.now() - this.oldestPendingAt : 0,
      lastAckRevision: this.lastAckRevision,
      clock: this.clock,
      consecutiveFailures: 0,
      storagePersisted: null,
    };
  }

  private scheduleHeartbeat(delayMs: number): void {
    this.heartbeatTimer = setTimeout(() => {
      // A report an autosave carried since moves the next heartbeat a period after it.
      const sinceReport = Date.now() - this.lastReportAt;
      if (this.timings.statusOnAutosave && sinceReport < this.timings.heartbeatMs) {
        this.scheduleHeartbeat(this.timings.heartbeatMs - sinceReport);
        return;
      }
      this.lastReportAt = Date.now();
      void this.beat().finally(() => {
        if (!this.isClosed && !this.options.signal.aborted && this.heartbeatTimer)
          this.scheduleHeartbeat(this.timings.heartbeatMs);
      });
    }, delayMs);
  }

  /** One heartbeat with the contract's fields; never retried (the next one carries the news). */
  private async beat(): Promise<void> {
    if (!this.attemptId || this.isClosed) return;
    await this.call("heartbeat", {
      method: "POST",
      path: this.paths.heartbeat(this.attemptId),
      body: JSON.stringify({
        deviceId: this.deviceId,
        online: true,
        pending: this.dirty.size,
        oldestPendingMs: this.oldestPendingAt === null ? 0 : Date.now() - this.oldestPendingAt,
        lastAckRevision: this.lastAckRevision,
        clock: this.clock,
        consecutiveFailures: this.breaker.failures,
        storagePersisted: null,
      }),
    });
  }

  /**
   * Submit, as the page's engine does it (lib/client/sync/submit-click.ts and scheduler.ts): the click ends the
   * autosave loop and drops its backoff wait (never an open breaker; an autosave's Retry-After is for autosaves);
   * the request in flight ends first (one at a time), its answer handled, and a failure of it sets a new backoff;
   * then the final delta (every draft still dirty) and the digest go, with the key and body fixed at this first
   * try, until the server answers.
   */
  async submit(): Promise<void> {
    if (!this.attemptId || this.isClosed) return;
    // The click: what the candidate waits for starts here, also while an autosave is still in flight.
    const pressedAt = this.options.stats.now();
    this.submitPressed.abort();
    this.backoffUntil = 0;
    if (this.debounceTimer) clearTimeout(this.debounceTimer);
    this.debounceTimer = null;
    // The loop ends once its request in flight is answered and handled, or at once if it was waiting to retry.
    await this.inFlight;
    await this.waitForTurn("submit");
    const attemptId = this.attemptId;
    const answers = [...this.dirty].map(([questionId, draft]) => ({
      questionId,
      value: draft.value,
      version: draft.version,
    }));
    const digest = await answersDigest([...this.paper].map(([questionId, value]) => ({ questionId, value })));
    const body = JSON.stringify({ deviceId: this.deviceId, answers, digest });
    this.isClosed = true;
    this.stopTimers();
    const { result, kind } = await this.untilAnswered("submit", () => ({
      method: "POST",
      path: this.paths.submit(attemptId),
      headers: { "idempotency-key": this.idempotencyKey },
      body,
      timeoutMs: this.timings.submitTimeoutMs,
    }));
    // From the click to the answer that ends it, retries included: what the candidate waits for.
    this.options.stats
      .op("submit (click to done)")
      .record(pressedAt, this.options.stats.now() - pressedAt, outcomeKey(result), requestKind(result));
    if (kind === "ok") {
      recordSubmitAnswer(this.ledger, result);
      this.dirty.clear();
    } else if (kind === "closed" && errorCode(result.body) === "ALREADY_SUBMITTED") {
      const details = (JSON.parse(result.body) as { error?: { details?: { submissionId?: string } } }).error?.details;
      this.ledger.submittedElsewhere = details?.submissionId ?? "unknown";
    } else {
      this.ledger.failure = `submit: ${outcomeKey(result)} ${result.status !== 0 ? result.body.slice(0, 200) : ""}`;
    }
  }

  get attempt(): string | null {
    return this.attemptId;
  }

  get sessionCookie(): string | null {
    return this.cookie;
  }

  stopTimers(): void {
    if (this.debounceTimer) clearTimeout(this.debounceTimer);
    if (this.heartbeatTimer) clearTimeout(this.heartbeatTimer);
    this.debounceTimer = this.heartbeatTimer = null;
  }
}

/** Simulated candidates for enrolled join tokens, in order, sharing one transport and one run's statistics. */
export function simCandidatesFor(
  tokens: readonly { email: string; joinToken: string }[],
  options: Omit<ConstructorParameters<typeof SimCandidate>[0], "index" | "email" | "joinToken">,
): SimCandidate[] {
  return tokens.map(
    (token, index) => new SimCandidate({ ...options, index, email: token.email, joinToken: token.joinToken }),
  );
}
