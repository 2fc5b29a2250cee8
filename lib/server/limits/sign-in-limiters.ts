import "server-only";

import type { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, RLWrapperTimeouts } from "rate-limiter-flexible";

import { AppError } from "@/lib/shared/errors";

import { env } from "../env.mjs";
import { getRedis } from "../redis/client";
import { redisKeys } from "../redis/keys";
import { retryAfterSeconds } from "./rate-limited-error";

// Staff sign-in limits (issue 18, "Ways in"; docs/security.md). Only failed tries count: a success gives
// them back. Three budgets, each answering 429 TOO_MANY_SIGN_INS with `Retry-After` when spent:
//
// 1. Per (email, address) pair: the first `freeFailures` are free, then every further try waits for a gap
//    that doubles (1 s, 2 s, 4 s, … up to `maxWaitSeconds`). This is the budget a guesser at one account from
//    one address meets, and it is the only one that grows: the real owner on another address is untouched.
// 2. Per address, across emails: `perAddress` failures in 15 minutes. Stops spraying a few passwords over
//    every account from one address.
// 3. Per email, across addresses: a much larger budget (`perEmail` failures in 15 minutes) whose refusal is
//    short (`emailBlockSeconds`). A guesser spread over many addresses is slowed to about `perEmail` tries
//    per (fill time + block), while the real owner is never kept out for longer than the block.
//
// Every try takes its points before the password is checked (the counters are atomic in Redis), so tries
// sent in parallel cannot overrun a budget; a success then gives them back.

export type SignInLimitSpecs = {
  /** Failed tries of one email from one address before the waits start. */
  freeFailures: number;
  /** The first wait between two tries of one (email, address) pair (1 s; tests on a busy machine raise it). */
  firstWaitSeconds: number;
  /** The longest wait between two tries of one (email, address) pair; the waits double up to it. */
  maxWaitSeconds: number;
  /** Failed tries of one email, from every address, in 15 minutes. */
  perEmail: number;
  /** How long an email whose budget is spent is refused, for everyone. */
  emailBlockSeconds: number;
  /** Failed tries from one address, for any emails, in 15 minutes. */
  perAddress: number;
};

export const DEFAULT_SIGN_IN_LIMITS: SignInLimitSpecs = {
  freeFailures: env.SIGN_IN_LIMIT_FREE_FAILURES,
  firstWaitSeconds: 1,
  maxWaitSeconds: env.SIGN_IN_LIMIT_MAX_WAIT_SECONDS,
  perEmail: env.SIGN_IN_LIMIT_PER_EMAIL,
  emailBlockSeconds: env.SIGN_IN_LIMIT_EMAIL_BLOCK_SECONDS,
  perAddress: env.SIGN_IN_LIMIT_PER_ADDRESS,
};

const WINDOW_SECONDS = 15 * 60;
/** A pair's failures are forgotten a day after its first one (or at once, by a success). */
const PAIR_MEMORY_SECONDS = 24 * 3600;

type Store = RateLimiterMemory | RLWrapperTimeouts;
export type SignInLimiters = {
  limits: SignInLimitSpecs;
  /** Failures of one (email, address) pair. */
  pairFailures: Store;
  /** One point per pair, held for the current wait: whoever finds it taken is refused until it expires. */
  pairGate: Store;
  perEmail: Store;
  perAddress: Store;
};

/** The wait after the pair's `failures`-th failure: none while free, then 1 s, 2 s, 4 s … up to the cap. */
export function pairWaitSeconds(
  failures: number,
  limits: Pick<SignInLimitSpecs, "freeFailures" | "firstWaitSeconds" | "maxWaitSeconds">,
): number {
  const beyond = failures - limits.freeFailures;
  if (beyond < 0) return 0;
  return Math.min(limits.firstWaitSeconds * 2 ** Math.min(beyond, 30), limits.maxWaitSeconds);
}

/** Counters in Redis shared by every instance, with this process's memory answering while Redis is away. */
export function createSignInLimiters(options: {
  redis: Redis | null;
  limits?: Partial<SignInLimitSpecs>;
  namespace?: string;
}): SignInLimiters {
  const limits = { ...DEFAULT_SIGN_IN_LIMITS, ...options.limits };
  const namespace = options.namespace ?? "default";
  function store(name: string, points: number, duration: number, blockDuration = 0): Store {
    const keyPrefix = redisKeys.rateLimit(namespace, `sign-in-${name}`);
    const memory = new RateLimiterMemory({ keyPrefix, points, duration, blockDuration });
    if (!options.redis) return memory;
    return new RLWrapperTimeouts({
      limiter: new RateLimiterRedis({
        storeClient: options.redis,
        keyPrefix,
        points,
        duration,
        blockDuration,
        rejectIfRedisNotReady: true,
      }),
      timeoutMs: 250,
      blockDuration,
      insuranceLimiter: memory,
    });
  }
  return {
    limits,
    // Points above every real count: this store only counts, `pairGate` refuses.
    pairFailures: store("pair-failures", 1_000_000, PAIR_MEMORY_SECONDS),
    pairGate: store("pair-gate", 1, 1),
    perEmail: store("email", limits.perEmail, WINDOW_SECONDS, limits.emailBlockSeconds),
    perAddress: store("address", limits.perAddress, WINDOW_SECONDS),
  };
}

const globalForLimits = globalThis as unknown as { holdfastSignInLimiters?: Promise<SignInLimiters> };

export function getSignInLimiters(): Promise<SignInLimiters> {
  return (globalForLimits.holdfastSignInLimiters ??= getRedis().then(
    (redis) => createSignInLimiters({ redis }),
    () => createSignInLimiters({ redis: null }),
  ));
}

/** Replaces this process's sign-in limiters (tests); `null` goes back to the defaults. */
export function setSignInLimiters(limiters: SignInLimiters | null): void {
  globalForLimits.holdfastSignInLimiters = limiters ? Promise.resolve(limiters) : undefined;
}

function pairKey(email: string, address: string): string {
  return `${email.toLowerCase()}|${address}`;
}

/** `msBeforeNext` of a refusal, or 0 when the budget let the try through. */
function refusedFor(result: PromiseSettledResult<unknown>): number {
  if (result.status === "fulfilled") return 0;
  if (!(result.reason instanceof RateLimiterRes)) throw result.reason;
  return Math.max(1, result.reason.msBeforeNext);
}

/**
 * Takes this try's points from the pair's, the email's and the address's budgets, or throws 429
 * TOO_MANY_SIGN_INS with `Retry-After` (the longest of the waits that refused it).
 *
 * The pair: its failure count goes up by one; from the `freeFailures`-th try on, the try must also take the
 * pair's gate, which stays taken for the wait that try earns (pairWaitSeconds). One gate point, taken
 * atomically: of tries sent together, one goes through.
 *
 * A refused try gives back the points the other budgets granted it, so only tries that reach the password
 * check count: hammering a refused pair neither grows its wait further nor spends the email's budget (which
 * would refuse the real owner everywhere). A budget that refused keeps its overrun, so a refused email's
 * block is not renewed by the refusals it causes (rate-limiter-flexible blocks when a count crosses the
 * budget, and an overrun count never crosses it again).
 */
export async function consumeSignInAttempt(email: string, address: string): Promise<void> {
  const limiters = await getSignInLimiters();
  const key = pairKey(email, address);
  const emailKey = email.toLowerCase();

  const [pair, perEmail, perAddress] = await Promise.allSettled([
    limiters.pairFailures.consume(key),
    limiters.perEmail.consume(emailKey),
    limiters.perAddress.consume(address),
  ]);
  if (pair.status === "rejected") throw pair.reason;
  let waitMs = Math.max(refusedFor(perEmail), refusedFor(perAddress));

  const failures = pair.value.consumedPoints;
  if (waitMs === 0 && failures >= limiters.limits.freeFailures) {
    const wait = pairWaitSeconds(failures, limiters.limits);
    const [gate] = await Promise.allSettled([limiters.pairGate.consume(key, 1, { customDuration: wait })]);
    waitMs = refusedFor(gate);
  }
  if (waitMs === 0) return;

  await Promise.allSettled([
    limiters.pairFailures.reward(key),
    perEmail.status === "fulfilled" ? limiters.perEmail.reward(emailKey) : null,
    perAddress.status === "fulfilled" ? limiters.perAddress.reward(address) : null,
  ]);
  const seconds = retryAfterSeconds(waitMs);
  throw new AppError("TOO_MANY_SIGN_INS", `Too many failed sign-ins. Try again in ${seconds} s.`, {
    headers: { "Retry-After": String(seconds) },
    details: { retryAfterSeconds: seconds },
  });
}

/**
 * A successful sign-in: the pair's and the email's failures are forgotten (so is the pair's wait), and the
 * address gets back the point this try took (only failures count against an exam hall's shared address).
 */
export async function forgetSignInFailures(email: string, address: string): Promise<void> {
  const limiters = await getSignInLimiters();
  const key = pairKey(email, address);
  await Promise.allSettled([
    limiters.pairFailures.delete(key),
    limiters.pairGate.delete(key),
    limiters.perEmail.delete(email.toLowerCase()),
    limiters.perAddress.reward(address),
  ]);
}
