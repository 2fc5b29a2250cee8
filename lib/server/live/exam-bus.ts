import "server-only";

import { EventEmitter } from "node:events";

import type { Redis } from "ioredis";

import { redisKeys } from "../redis/keys";
import { redisBreaker } from "../redis/breaker";
import { getRedis } from "../redis/client";

/**
 * The live bus of one exam: "something about this candidate changed" for proctor dashboards, and signals for
 * a candidate's own page (a new deadline, a submission made elsewhere). With Redis it fans out through
 * pub/sub, so an event caused on one app instance reaches streams held by every other; without Redis (single
 * instance) it stays in this process. Messages are hints, never data: a subscriber reloads what it shows
 * from Postgres and Redis, so a lost message costs freshness (the dashboard's periodic resync heals it),
 * never correctness.
 */
export type ExamChangeKind =
  | "joined"
  | "started"
  | "heartbeat"
  | "presence"
  | "saved"
  | "submitted"
  | "extended"
  | "late_answer"
  /** A device stored an announcement: dashboards reload their "received by" counts, not the candidate. */
  | "announcement_received"
  | "paused"
  | "resumed"
  | "reopened";

export type ExamMessage =
  | { type: "change"; examId: string; enrollmentId: string; kind: ExamChangeKind }
  | {
      type: "signal";
      examId: string;
      attemptId: string;
      signal: "deadline" | "submitted" | "paused" | "resumed" | "reopened";
    }
  /** Staff sent an announcement: every candidate stream of the exam reads it back and sends it if it is theirs. */
  | { type: "announcement"; examId: string; announcementId: string };

type Listener = (message: ExamMessage) => void;

type BusState = {
  local: EventEmitter;
  subscriber: Redis | null;
  subscriberPromise: Promise<Redis | null> | null;
  /**
   * Channels this process listens to: how many local listeners each, and its `live` (settles once Redis
   * acknowledged the channel's SUBSCRIBE, or at once without Redis).
   */
  channels: Map<string, { listeners: number; live: Promise<void> }>;
};

/**
 * What a subscribe returns: call it to unsubscribe. `live` settles once messages published to Redis from now on
 * reach the listener: when Redis acknowledged the channel's SUBSCRIBE (shared with the channel's other local
 * listeners), at once without Redis (messages then stay in this process, where the listener already is). It
 * never rejects, and it waits while Redis is away or hung: a caller that must not wait bounds it.
 */
export type Subscription = (() => void) & { readonly live: Promise<void> };

/** How long a reader waits for its subscription to go live before reading anyway (Redis hung: see Subscription). */
export const SUBSCRIPTION_WAIT_MS = 2_000;

/**
 * Settles when `live` does, or after SUBSCRIPTION_WAIT_MS. A reader that must hear every change made after
 * its read (a candidate's stream, a dashboard's snapshot) subscribes, waits for this, then reads. At once while
 * the Redis breaker is open (publishes then stay in this process, where the listener already is). A lost
 * subscriber connection needs no case of its own: its queued SUBSCRIBE fails at the first reconnect attempt
 * (maxRetriesPerRequest 1), which settles `live` (lib/server/live/subscription-lost.int.test.ts).
 */
export function whenLive(live: Promise<void>): Promise<void> {
  if (redisBreaker().isOpen()) return Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, SUBSCRIPTION_WAIT_MS)));
  return Promise.race([live, waited]).finally(() => clearTimeout(timer));
}

const globalForBus = globalThis as unknown as { holdfastExamBus?: BusState };

function state(): BusState {
  if (!globalForBus.holdfastExamBus) {
    const local = new EventEmitter();
    local.setMaxListeners(0);
    globalForBus.holdfastExamBus = { local, subscriber: null, subscriberPromise: null, channels: new Map() };
  }
  return globalForBus.holdfastExamBus;
}

/**
 * The one subscriber connection of this process: a connection in subscriber mode can do nothing else, so it
 * is a duplicate of the one client (lib/server/redis/client.ts), made on first use.
 */
function subscriber(): Promise<Redis | null> {
  const bus = state();
  bus.subscriberPromise ??= (async () => {
    const client = await getRedis();
    if (!client) return null;
    // The offline queue holds SUBSCRIBE commands issued while the connection is (re)connecting;
    // ioredis re-subscribes every channel after a reconnect.
    const connection = client.duplicate({
      enableOfflineQueue: true,
      commandTimeout: undefined,
      lazyConnect: false,
      enableAutoPipelining: false,
    });
    connection.on("error", () => undefined);
    connection.on("message", (channel: string, raw: string) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw);
      } catch {
        return;
      }
      // A batch (publishExamMessage) is an array of messages; a heartbeat's own MULTI publishes one.
      if (Array.isArray(parsed)) for (const message of parsed) bus.local.emit(channel, message as ExamMessage);
      else bus.local.emit(channel, parsed as ExamMessage);
    });
    bus.subscriber = connection;
    return connection;
  })();
  return bus.subscriberPromise;
}

/**
 * How long a message waits for others to go out with it: the messages of that time go to Redis as one PUBLISH per
 * channel (a JSON array), through one breaker call and one write, instead of one each (issue 38: a deadline storm
 * publishes two per submit and one per closing page). Short against what a dashboard or a page shows.
 */
export const BUS_BATCH_MS = 10;
/** A batch this large goes out at once. */
const BUS_BATCH_MAX = 500;

type PendingBatch = { byChannel: Map<string, Map<string, ExamMessage>>; count: number; timer: NodeJS.Timeout };

const globalForBatch = globalThis as unknown as { holdfastBusBatch?: PendingBatch | null };

/**
 * Publishes a message about an exam. Never throws and never waits on the caller's path: the hot paths
 * (autosave, heartbeat, submit) call it without await. The message goes out within BUS_BATCH_MS with the others
 * of that time, the same message once (a hint repeated says nothing more); in order per channel. When Redis is
 * away the batch reaches this process's listeners only.
 */
export function publishExamMessage(message: ExamMessage): void {
  let batch = globalForBatch.holdfastBusBatch;
  if (!batch) {
    batch = { byChannel: new Map(), count: 0, timer: setTimeout(flushExamMessages, BUS_BATCH_MS) };
    globalForBatch.holdfastBusBatch = batch;
  }
  const channel = channelOf(message);
  let messages = batch.byChannel.get(channel);
  if (!messages) {
    messages = new Map();
    batch.byChannel.set(channel, messages);
  }
  const payload = JSON.stringify(message);
  if (messages.has(payload)) return;
  messages.set(payload, message);
  batch.count += 1;
  if (batch.count >= BUS_BATCH_MAX) flushExamMessages();
}

/** Sends the pending batch now: one PUBLISH per channel, in one pipeline through the breaker. */
function flushExamMessages(): void {
  const batch = globalForBatch.holdfastBusBatch;
  if (!batch) return;
  globalForBatch.holdfastBusBatch = null;
  clearTimeout(batch.timer);
  void (async () => {
    const client = await getRedis();
    // Through the Redis breaker (lib/server/redis/breaker.ts): a hung Redis is skipped, not waited on.
    const isPublished =
      client !== null &&
      client.status === "ready" &&
      (await redisBreaker().run(
        async () => {
          const pipeline = client.pipeline();
          for (const [channel, messages] of batch.byChannel)
            pipeline.publish(
              channel,
              messages.size === 1 ? [...messages.keys()][0]! : `[${[...messages.keys()].join(",")}]`,
            );
          const results = await pipeline.exec();
          const failed = results?.find(([error]) => error);
          if (failed) throw failed[0];
          return true;
        },
        () => false,
      ));
    if (isPublished) return;
    const { local } = state();
    for (const [channel, messages] of batch.byChannel)
      for (const message of messages.values()) local.emit(channel, message);
  })();
}

/** The channel a message travels on. Announcements travel with the signals: candidate pages listen there, and only there. */
function channelOf(message: ExamMessage): string {
  return message.type === "change"
    ? redisKeys.examChannel(message.examId)
    : redisKeys.examSignalChannel(message.examId);
}

export function publishExamChange(examId: string, enrollmentId: string, kind: ExamChangeKind): void {
  publishExamMessage({ type: "change", examId, enrollmentId, kind });
}

/** A change to publish inside the caller's own Redis transaction: its channel and bytes, and the message itself. */
export type PendingExamChange = { channel: string; payload: string; message: ExamMessage };

/**
 * What publishExamChange would send, for a caller that sends it with its own writes in one MULTI (one round trip
 * fewer; the message then goes out with the state it announces). When that transaction fails, the caller hands
 * `message` to publishExamMessage, which falls back to this process's listeners as it always does.
 */
export function pendingExamChange(examId: string, enrollmentId: string, kind: ExamChangeKind): PendingExamChange {
  const message: ExamMessage = { type: "change", examId, enrollmentId, kind };
  return { channel: channelOf(message), payload: JSON.stringify(message), message };
}

/**
 * An attempt was frozen (by its candidate, a proctor or the deadline): dashboards reload the candidate, and
 * every open page of the attempt (other devices, other tabs' leaders) hears it at once and ends on its
 * submitted screen. Call after the transaction committed.
 */
export function publishAttemptSubmitted(attempt: { examId: string; enrollmentId: string; attemptId: string }): void {
  publishExamChange(attempt.examId, attempt.enrollmentId, "submitted");
  publishExamMessage({ type: "signal", examId: attempt.examId, attemptId: attempt.attemptId, signal: "submitted" });
}

/** An announcement was sent (call after its transaction committed): the exam's candidate streams read it back. */
export function publishAnnouncement(examId: string, announcementId: string): void {
  publishExamMessage({ type: "announcement", examId, announcementId });
}

/**
 * An admin reopened a submitted attempt (reopen-attempt.ts): dashboards reload the candidate, and every open
 * page of the attempt leaves its submitted screen with the new deadline. Call after the transaction committed.
 */
export function publishAttemptReopened(attempt: { examId: string; enrollmentId: string; attemptId: string }): void {
  publishExamChange(attempt.examId, attempt.enrollmentId, "reopened");
  publishExamMessage({ type: "signal", examId: attempt.examId, attemptId: attempt.attemptId, signal: "reopened" });
}

/** Listens on a channel; the Redis subscription is shared by every local listener of that channel. */
function listen(channel: string, listener: Listener): Subscription {
  const bus = state();
  bus.local.on(channel, listener);
  let entry = bus.channels.get(channel);
  if (entry === undefined) {
    const live = subscriber()
      .then((connection) => connection?.subscribe(channel))
      .then(
        () => undefined,
        () => undefined,
      );
    entry = { listeners: 0, live };
    bus.channels.set(channel, entry);
  }
  entry.listeners += 1;
  const { live } = entry;
  let isSubscribed = true;
  const unlisten = () => {
    if (!isSubscribed) return;
    isSubscribed = false;
    bus.local.off(channel, listener);
    const current = bus.channels.get(channel);
    if (current && current.listeners > 1) {
      current.listeners -= 1;
      return;
    }
    bus.channels.delete(channel);
    void subscriber().then((connection) => connection?.unsubscribe(channel).catch(() => undefined));
  };
  return Object.assign(unlisten, { live });
}

/**
 * Listens to every change about one exam's candidates, from every instance (for proctor dashboards).
 * Returns the unsubscribe function.
 */
export function subscribeExam(examId: string, listener: Listener): Subscription {
  return listen(redisKeys.examChannel(examId), listener);
}

/** What a candidate page's stream hears: its attempt's signals and the exam's announcements. */
export type AttemptSignalMessage = Extract<ExamMessage, { type: "signal" | "announcement" }>;

type SignalListener = (message: AttemptSignalMessage) => void;

const globalForSignals = globalThis as unknown as {
  holdfastAttemptSignals?: Map<string, { listeners: Map<string, Set<SignalListener>>; unlisten: Subscription }>;
};

/**
 * Listens to the signals for one attempt (a new deadline, a submission made elsewhere) and the exam's
 * announcements, for the candidate's
 * own page. Thousands of candidate pages share one subscription per exam and are reached through a map by
 * attempt id, so a signal costs one lookup, not one call per open page; the exam's change traffic
 * (heartbeats, saves) travels on another channel and never reaches them.
 */
export function subscribeAttemptSignals(examId: string, attemptId: string, listener: SignalListener): Subscription {
  const exams = (globalForSignals.holdfastAttemptSignals ??= new Map());
  let exam = exams.get(examId);
  if (!exam) {
    const listeners = new Map<string, Set<SignalListener>>();
    const unlisten = listen(redisKeys.examSignalChannel(examId), (message) => {
      if (message.type === "announcement") {
        // For the whole exam: each stream checks, reading it back, whether its candidate is a recipient.
        for (const each of listeners.values()) for (const listener of each) listener(message);
        return;
      }
      if (message.type !== "signal") return;
      for (const each of listeners.get(message.attemptId) ?? []) each(message);
    });
    exam = { listeners, unlisten };
    exams.set(examId, exam);
  }
  const forAttempt = exam.listeners.get(attemptId) ?? new Set<SignalListener>();
  forAttempt.add(listener);
  exam.listeners.set(attemptId, forAttempt);
  let isSubscribed = true;
  const unsubscribe = () => {
    if (!isSubscribed) return;
    isSubscribed = false;
    const current = exams.get(examId);
    if (!current) return;
    const set = current.listeners.get(attemptId);
    set?.delete(listener);
    if (set && set.size === 0) current.listeners.delete(attemptId);
    if (current.listeners.size === 0) {
      current.unlisten();
      exams.delete(examId);
    }
  };
  return Object.assign(unsubscribe, { live: exam.unlisten.live });
}
