import "server-only";

import type { Redis } from "ioredis";

import { log } from "../log";
import type { RequestOutcome, SyncEndpoint } from "../metrics/registry";
import { getRedis } from "../redis/client";
import { redisKeys } from "../redis/keys";
import { addBuckets, bucketIndex, BUCKET_COUNT, emptyBuckets } from "./latency-buckets";

/** Minutes of the health window (the endpoint's 60 points, the metrics' "last hour"). */
export const HEALTH_WINDOW_MINUTES = 60;
/** Redis keeps a minute's hash this long after its last increment: the window plus an hour of slack. */
export const HEALTH_MINUTE_TTL_SECONDS = 2 * 3600;
/** How often an instance adds what it counted to Redis. */
export const HEALTH_FLUSH_INTERVAL_MS = 2_000;
/**
 * At most this many exams are remembered in process (each at most HEALTH_WINDOW_MINUTES + 1 minutes, only
 * minutes with traffic): the exam with the oldest traffic is forgotten first. A few hundred exams at once is
 * far beyond a day of Holdfast; the cap only keeps a flood of odd traffic from growing the heap.
 */
export const MAX_EXAMS_IN_PROCESS = 500;

/** One exam's requests in one minute. */
export type MinuteCounts = {
  autosaves: number;
  submits: number;
  /** Submits answered from the stored response (`Idempotent-Replayed: true`). */
  replays: number;
  /** Submits answered 409 ALREADY_SUBMITTED. */
  alreadySubmitted: number;
  /** 429s of autosave, submit and heartbeat. */
  rateLimited: number;
  autosaveBuckets: number[];
  submitBuckets: number[];
};

export type ExamRequestSample = {
  examId: string;
  endpoint: SyncEndpoint;
  durationMs: number;
  outcome: RequestOutcome;
  /** Epoch ms; decides the minute. */
  at: number;
};

export function emptyMinute(): MinuteCounts {
  return {
    autosaves: 0,
    submits: 0,
    replays: 0,
    alreadySubmitted: 0,
    rateLimited: 0,
    autosaveBuckets: emptyBuckets(),
    submitBuckets: emptyBuckets(),
  };
}

export function addMinute(into: MinuteCounts, from: MinuteCounts): void {
  into.autosaves += from.autosaves;
  into.submits += from.submits;
  into.replays += from.replays;
  into.alreadySubmitted += from.alreadySubmitted;
  into.rateLimited += from.rateLimited;
  addBuckets(into.autosaveBuckets, from.autosaveBuckets);
  addBuckets(into.submitBuckets, from.submitBuckets);
}

export function minuteOf(at: number): number {
  return Math.floor(at / 60_000);
}

// The hash fields of a minute in Redis: short, fixed names, one per counter and one per bucket.
const COUNTER_FIELDS = [
  ["autosaves", "n:autosave"],
  ["submits", "n:submit"],
  ["replays", "n:replay"],
  ["alreadySubmitted", "n:already"],
  ["rateLimited", "n:limited"],
] as const;
const bucketField = (kind: "a" | "s", index: number) => `${kind}:${index}`;

/** The HINCRBY arguments for a minute's counts (fields with 0 are left out). */
export function minuteToFields(counts: MinuteCounts): [string, number][] {
  const fields: [string, number][] = [];
  for (const [name, field] of COUNTER_FIELDS) if (counts[name] > 0) fields.push([field, counts[name]]);
  for (let index = 0; index < BUCKET_COUNT; index += 1) {
    const autosave = counts.autosaveBuckets[index] ?? 0;
    const submit = counts.submitBuckets[index] ?? 0;
    if (autosave > 0) fields.push([bucketField("a", index), autosave]);
    if (submit > 0) fields.push([bucketField("s", index), submit]);
  }
  return fields;
}

/** A minute's hash as read back (HGETALL); unknown or malformed fields are ignored. */
export function minuteFromHash(hash: Record<string, string>): MinuteCounts {
  const counts = emptyMinute();
  for (const [name, field] of COUNTER_FIELDS) counts[name] = Number(hash[field] ?? 0) || 0;
  for (let index = 0; index < BUCKET_COUNT; index += 1) {
    counts.autosaveBuckets[index] = Number(hash[bucketField("a", index)] ?? 0) || 0;
    counts.submitBuckets[index] = Number(hash[bucketField("s", index)] ?? 0) || 0;
  }
  return counts;
}

type ExamMinutes = Map<number, MinuteCounts>;

function minuteIn(store: Map<string, ExamMinutes>, examId: string, minute: number): MinuteCounts {
  let minutes = store.get(examId);
  if (!minutes) {
    minutes = new Map();
    store.set(examId, minutes);
    if (store.size > MAX_EXAMS_IN_PROCESS) {
      const oldest = store.keys().next().value;
      if (oldest !== undefined) store.delete(oldest);
    }
  } else {
    // Map order is insertion order: re-inserting keeps the exam with the newest traffic last.
    store.delete(examId);
    store.set(examId, minutes);
  }
  let counts = minutes.get(minute);
  if (!counts) {
    counts = emptyMinute();
    minutes.set(minute, counts);
  }
  return counts;
}

/** Drops minutes older than the window (plus the minute in progress), and exams left with none. */
function prune(store: Map<string, ExamMinutes>, nowMinute: number): void {
  const oldest = nowMinute - HEALTH_WINDOW_MINUTES;
  for (const [examId, minutes] of store) {
    for (const minute of minutes.keys()) if (minute < oldest) minutes.delete(minute);
    if (minutes.size === 0) store.delete(examId);
  }
}

/**
 * Per-exam, per-minute request statistics of this process, and their sum over every instance in Redis.
 *
 * The hot path only touches memory: `record` adds to two in-process maps. `pending` holds what has not yet
 * reached Redis; `flush` (every HEALTH_FLUSH_INTERVAL_MS, from a timer) sends it in one pipeline of HINCRBY
 * on the minute's hash, so instances add up. `local` keeps this process's own last hour: without Redis
 * (single instance, or Redis away) those are the numbers. Both maps are pruned to the window and capped at
 * MAX_EXAMS_IN_PROCESS exams.
 */
export class ExamRequestStats {
  private pending = new Map<string, ExamMinutes>();
  /** Batches sent to Redis whose reply has not come back yet (a read counts them, see `read`). */
  private inFlight = new Set<Map<string, ExamMinutes>>();
  private local = new Map<string, ExamMinutes>();
  private lastPruneMinute = 0;

  record(sample: ExamRequestSample): void {
    // Of heartbeats only the 429s are counted: an exam whose candidates only beat has no health to show.
    if (sample.endpoint === "heartbeat" && sample.outcome !== "limited") return;
    const minute = minuteOf(sample.at);
    this.pruneIfNewMinute(minute);
    for (const store of [this.pending, this.local]) {
      const counts = minuteIn(store, sample.examId, minute);
      if (sample.outcome === "limited") counts.rateLimited += 1;
      if (sample.endpoint === "autosave") {
        counts.autosaves += 1;
        counts.autosaveBuckets[bucketIndex(sample.durationMs)]! += 1;
      } else if (sample.endpoint === "submit") {
        counts.submits += 1;
        counts.submitBuckets[bucketIndex(sample.durationMs)]! += 1;
        if (sample.outcome === "replayed") counts.replays += 1;
      }
    }
  }

  /** A submit already counted by `record` turned out to be 409 ALREADY_SUBMITTED. */
  recordAlreadySubmitted(examId: string, at: number): void {
    const minute = minuteOf(at);
    for (const store of [this.pending, this.local]) minuteIn(store, examId, minute).alreadySubmitted += 1;
  }

  private pruneIfNewMinute(minute: number): void {
    if (minute === this.lastPruneMinute) return;
    this.lastPruneMinute = minute;
    prune(this.pending, minute);
    prune(this.local, minute);
  }

  /**
   * Adds what this process counted since the last flush to Redis, in one pipeline. With no Redis at all the
   * pending counts are dropped (`local` has them); while Redis is away they wait for the next flush.
   */
  async flush(redis: Redis | null, now = Date.now()): Promise<void> {
    if (this.pending.size === 0) return;
    if (!redis) {
      this.pending.clear();
      return;
    }
    if (redis.status !== "ready") return;
    const batch = this.pending;
    this.pending = new Map();
    this.inFlight.add(batch);
    const pipeline = redis.pipeline();
    for (const [examId, minutes] of batch) {
      let lastMinute = 0;
      for (const [minute, counts] of minutes) {
        const key = redisKeys.examHealthMinute(examId, minute);
        for (const [field, value] of minuteToFields(counts)) pipeline.hincrby(key, field, value);
        pipeline.expire(key, HEALTH_MINUTE_TTL_SECONDS);
        lastMinute = Math.max(lastMinute, minute);
      }
      pipeline.zadd(redisKeys.examHealthActive(), "GT", lastMinute, examId);
    }
    pipeline.zremrangebyscore(redisKeys.examHealthActive(), "-inf", minuteOf(now) - HEALTH_WINDOW_MINUTES - 1);
    pipeline.expire(redisKeys.examHealthActive(), HEALTH_MINUTE_TTL_SECONDS);
    try {
      const results = await pipeline.exec();
      const failed = results?.find(([error]) => error !== null);
      if (failed) throw failed[0] as Error;
    } catch (error) {
      // HINCRBY is not idempotent: a pipeline that failed part-way may have added some of it, so adding it
      // all again could count twice. Losing two seconds of statistics is the smaller harm; local still has them.
      log.warn("exam health: flush to redis failed; this batch stays in process only", {
        error: (error as Error).message,
      });
    } finally {
      this.inFlight.delete(batch);
    }
  }

  /** The minutes of the window ending at `now`, oldest first, per exam. */
  private windowMinutes(now: number): number[] {
    const last = minuteOf(now);
    return Array.from({ length: HEALTH_WINDOW_MINUTES }, (_, index) => last - HEALTH_WINDOW_MINUTES + 1 + index);
  }

  private localWindow(store: Map<string, ExamMinutes>, examId: string, minutes: number[]): MinuteCounts[] {
    const known = store.get(examId);
    return minutes.map((minute) => {
      const counts = emptyMinute();
      const found = known?.get(minute);
      if (found) addMinute(counts, found);
      return counts;
    });
  }

  /**
   * Each exam's window, one MinuteCounts per minute oldest first. With Redis answering: the sum over every
   * instance (Redis) plus what this process has not flushed yet; otherwise this process's own numbers.
   */
  async read(examIds: readonly string[], redis: Redis | null, now = Date.now()): Promise<Map<string, MinuteCounts[]>> {
    const minutes = this.windowMinutes(now);
    const result = new Map<string, MinuteCounts[]>();
    if (redis && redis.status === "ready" && examIds.length > 0) {
      try {
        const pipeline = redis.pipeline();
        for (const examId of examIds)
          for (const minute of minutes) pipeline.hgetall(redisKeys.examHealthMinute(examId, minute));
        const replies = (await pipeline.exec()) ?? [];
        // What Redis has not got: pending, and batches still in flight. Commands on one connection run in
        // order, so a batch sent before this read is in its replies, and its reply (which takes it out of
        // inFlight) came back first; a batch sent after is not in them and is still in inFlight here.
        examIds.forEach((examId, examIndex) => {
          const unflushed = this.localWindow(this.pending, examId, minutes);
          for (const batch of this.inFlight) {
            this.localWindow(batch, examId, minutes).forEach((counts, index) => addMinute(unflushed[index]!, counts));
          }
          result.set(
            examId,
            minutes.map((_, minuteIndex) => {
              const [error, hash] = replies[examIndex * minutes.length + minuteIndex] ?? [null, {}];
              if (error) throw error;
              const counts = minuteFromHash((hash ?? {}) as Record<string, string>);
              addMinute(counts, unflushed[minuteIndex]!);
              return counts;
            }),
          );
        });
        return result;
      } catch (error) {
        log.warn("exam health: read from redis failed; answering with this instance's numbers", {
          error: (error as Error).message,
        });
        result.clear();
      }
    }
    for (const examId of examIds) result.set(examId, this.localWindow(this.local, examId, minutes));
    return result;
  }

  /** Exams with traffic in the window: from Redis (every instance) and from this process. */
  async activeExamIds(redis: Redis | null, now = Date.now()): Promise<string[]> {
    const oldest = minuteOf(now) - HEALTH_WINDOW_MINUTES + 1;
    const ids = new Set<string>();
    for (const [examId, minutes] of this.local) {
      for (const minute of minutes.keys()) {
        if (minute >= oldest) {
          ids.add(examId);
          break;
        }
      }
    }
    if (redis && redis.status === "ready") {
      try {
        for (const examId of await redis.zrangebyscore(redisKeys.examHealthActive(), oldest, "+inf")) ids.add(examId);
      } catch (error) {
        log.warn("exam health: reading active exams from redis failed", { error: (error as Error).message });
      }
    }
    return [...ids];
  }
}

type StatsState = { stats: ExamRequestStats; timer: ReturnType<typeof setInterval> | null };
const globalForStats = globalThis as unknown as { holdfastExamRequestStats?: StatsState };

/**
 * The one ExamRequestStats of this process, with its flush timer (unref'd: it never keeps the process up).
 * Memoised on globalThis so dev reloads and tests share it.
 */
export function examRequestStats(): ExamRequestStats {
  const state = (globalForStats.holdfastExamRequestStats ??= { stats: new ExamRequestStats(), timer: null });
  if (!state.timer) {
    state.timer = setInterval(() => {
      void flushExamRequestStats();
    }, HEALTH_FLUSH_INTERVAL_MS);
    state.timer.unref();
  }
  return state.stats;
}

/** Flushes this process's statistics to Redis now (the timer does it every HEALTH_FLUSH_INTERVAL_MS). */
export async function flushExamRequestStats(): Promise<void> {
  await examRequestStats().flush(await getRedis());
}

/** Reads exams' windows from the process's statistics with the process's Redis client. */
export async function readExamRequestStats(
  examIds: readonly string[],
  now = Date.now(),
): Promise<Map<string, MinuteCounts[]>> {
  return examRequestStats().read(examIds, await getRedis(), now);
}
