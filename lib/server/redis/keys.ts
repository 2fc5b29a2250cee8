import "server-only";

// Every Redis key Holdfast uses comes from here: one prefix, one version segment, typed parts.
// TTLs are chosen where a key is written, not here.
const PREFIX = "holdfast:v1";

export const redisKeys = {
  /** Liveness probe written by the health check. */
  healthProbe: () => `${PREFIX}:health:probe`,
  /** Keeps concurrent submits of one attempt off Postgres (Postgres still decides). */
  submitLock: (attemptId: string) => `${PREFIX}:lock:submit:${attemptId}`,
  /**
   * Prefix of one rate limiter's counters (lib/server/limits). rate-limiter-flexible appends `:{key}`
   * (an attempt id, or `all` for a cluster-wide budget). `namespace` separates configurations.
   */
  rateLimit: (namespace: string, limiter: string) => `${PREFIX}:rl:${namespace}:${limiter}`,
  /**
   * Latest heartbeat of each device of an attempt: a hash from device id to JSON (lib/server/heartbeats), and
   * from `presence:{deviceId}` to when that device's live channel closed, epoch ms (lib/server/live/device-presence.ts).
   * One hash, so the dashboard reads an attempt's live state in one command.
   */
  heartbeats: (attemptId: string) => `${PREFIX}:heartbeats:${attemptId}`,
  /** Pub/sub channel of one exam's live bus (lib/server/live/exam-bus.ts). */
  examChannel: (examId: string) => `${PREFIX}:exam-bus:${examId}`,
  /** Pub/sub channel of one exam's signals to candidate pages (a new deadline, a submission elsewhere). */
  examSignalChannel: (examId: string) => `${PREFIX}:exam-signals:${examId}`,
  /**
   * One exam's request statistics for one minute (`minute` = epoch ms / 60 000, floored): a hash of counters
   * every instance adds to with HINCRBY (lib/server/exam-health).
   */
  examHealthMinute: (examId: string, minute: number) => `${PREFIX}:exam-health:${examId}:${minute}`,
  /** Sorted set of exams with request statistics: member exam id, score the last minute it had traffic. */
  examHealthActive: () => `${PREFIX}:exam-health:active`,
} as const;
