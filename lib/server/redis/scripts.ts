import "server-only";

import type { Redis } from "ioredis";

// The Lua scripts Holdfast runs in Redis, defined on a client once as its own commands (EVALSHA, EVAL once
// per connection when Redis does not know one yet). Defined before the client's first command, never on
// first use: with auto-pipelining (client.ts) a pipeline made in the same tick as a first use would lack the
// new command, and ioredis 6 then fails that pipeline's callbacks with an uncaught TypeError
// (scripts.int.test.ts keeps it so).

/**
 * Takes one point from each step's counters, in order, in one round trip; stops at the first step that
 * refuses, so a request limited for its attempt does not also spend the cluster's budget.
 *
 * Each step is a fixed window (its steady counter) and, once that is spent, an optional burst window: the
 * semantics of rate-limiter-flexible's RateLimiterRedis (the same `SET NX EX` + `INCRBY` + `PTTL` per
 * counter, so a refused request still counts) inside a BurstyRateLimiter (a refusal waits the smaller of
 * the two windows' remaining times). The keys are those rate-limiter-flexible used, so counters carry over.
 *
 * KEYS: per step, its steady key then its burst key (named even when the step has no burst).
 * ARGV: the number of steps, then per step: steady points, steady seconds, burst points (0: none), burst seconds.
 * Returns {refused step (1-based; 0 = all allowed), ms before the refusing window ends}.
 */
const CONSUME_SCRIPT = `
local function take(key, seconds)
  redis.call('set', key, 0, 'EX', seconds, 'NX')
  local consumed = redis.call('incrby', key, 1)
  local ttl = redis.call('pttl', key)
  if ttl == -1 then
    redis.call('expire', key, seconds)
    ttl = 1000 * seconds
  end
  return consumed, ttl
end
for step = 1, tonumber(ARGV[1]) do
  local a = 2 + (step - 1) * 4
  local points, seconds = tonumber(ARGV[a]), tonumber(ARGV[a + 1])
  local burstPoints, burstSeconds = tonumber(ARGV[a + 2]), tonumber(ARGV[a + 3])
  local consumed, ttl = take(KEYS[2 * step - 1], seconds)
  if consumed > points then
    if burstPoints == 0 then return {step, ttl} end
    local burstConsumed, burstTtl = take(KEYS[2 * step], burstSeconds)
    if burstConsumed > burstPoints then return {step, math.min(ttl, burstTtl)} end
  end
end
return {0, 0}
`;

/** Deletes the lock's key only if it still holds the caller's token: a lock that expired and was taken by someone else is never released by us. */
const RELEASE_LOCK_SCRIPT = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`;

/** A client with Holdfast's scripts as commands. */
export type ScriptedRedis = Redis & {
  /** CONSUME_SCRIPT: (number of keys, ...keys, ...args) → [refused step (1-based; 0 = none), ms before its window ends]. */
  holdfastConsumeLimits(...args: (string | number)[]): Promise<[number, number]>;
  /** RELEASE_LOCK_SCRIPT: (key, token) → 1 when released, 0 when the key held another token or none. */
  holdfastReleaseLock(key: string, token: string): Promise<number>;
};

const SCRIPTS = {
  holdfastConsumeLimits: { lua: CONSUME_SCRIPT },
  holdfastReleaseLock: { lua: RELEASE_LOCK_SCRIPT, numberOfKeys: 1 },
} as const;

const scripted = new WeakSet<Redis>();

/**
 * Defines the scripts on `client` (once; the client's own commands from then on) and returns it, typed. Called on
 * every limit check and lock release: after the first call it is one set lookup.
 */
export function withScripts(client: Redis): ScriptedRedis {
  if (!scripted.has(client)) {
    for (const [name, definition] of Object.entries(SCRIPTS)) {
      if (!(name in client)) client.defineCommand(name, definition);
    }
    scripted.add(client);
  }
  return client as ScriptedRedis;
}

/**
 * Commands defined on `client` from now on (a library's own scripts, e.g. rate-limiter-flexible's `rlflxIncr`,
 * defined when its limiter is made) are sent on their own, never auto-pipelined: the turn they are first used in
 * may already have its pipeline, made before they existed (the trap this file's header describes).
 */
export function sendLaterCommandsAlone(client: Redis): void {
  const define = client.defineCommand.bind(client);
  client.defineCommand = (name, definition) => {
    define(name, definition);
    const ignored = client.options.autoPipeliningIgnoredCommands ?? [];
    if (!ignored.includes(name)) client.options.autoPipeliningIgnoredCommands = [...ignored, name];
  };
}
