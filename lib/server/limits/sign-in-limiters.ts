import "server-only";

import type { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, RLWrapperTimeouts } from "rate-limiter-flexible";

import { AppError } from "@/lib/shared/errors";

import { env } from "../env.mjs";
import { getRedis } from "../redis/client";
import { redisKeys } from "../redis/keys";
import { retryAfterSeconds } from "./rate-limited-error";

export type SignInLimitSpecs = {
  /** Attempts for one email, whoever makes them. Stops guessing one account's password from many addresses. */
  perEmail: { points: number; durationSeconds: number };
  /** Attempts from one address, for any emails. Stops trying a few passwords on every account. */
  perAddress: { points: number; durationSeconds: number };
};

/**
 * By default 10 tries per email per 15 minutes, and 100 per address: an exam hall's proctors often share
 * one address behind NAT, and each of them signs in once. A successful sign-in gives the email its tries
 * back. SIGN_IN_LIMIT_PER_EMAIL and SIGN_IN_LIMIT_PER_ADDRESS change the counts.
 */
export const DEFAULT_SIGN_IN_LIMITS: SignInLimitSpecs = {
  perEmail: { points: env.SIGN_IN_LIMIT_PER_EMAIL, durationSeconds: 15 * 60 },
  perAddress: { points: env.SIGN_IN_LIMIT_PER_ADDRESS, durationSeconds: 15 * 60 },
};

type Store = RateLimiterMemory | RLWrapperTimeouts;
export type SignInLimiters = { perEmail: Store; perAddress: Store };

/** Counters in Redis shared by every instance, with this process's memory answering while Redis is away. */
export function createSignInLimiters(options: {
  redis: Redis | null;
  limits?: Partial<SignInLimitSpecs>;
  namespace?: string;
}): SignInLimiters {
  const limits = { ...DEFAULT_SIGN_IN_LIMITS, ...options.limits };
  const namespace = options.namespace ?? "default";
  function store(name: keyof SignInLimitSpecs): Store {
    const { points, durationSeconds } = limits[name];
    const keyPrefix = redisKeys.rateLimit(namespace, `sign-in-${name}`);
    const memory = new RateLimiterMemory({ keyPrefix, points, duration: durationSeconds });
    if (!options.redis) return memory;
    return new RLWrapperTimeouts({
      limiter: new RateLimiterRedis({
        storeClient: options.redis,
        keyPrefix,
        points,
        duration: durationSeconds,
        rejectIfRedisNotReady: true,
      }),
      timeoutMs: 250,
      insuranceLimiter: memory,
    });
  }
  return { perEmail: store("perEmail"), perAddress: store("perAddress") };
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

/**
 * Takes one try from the email's budget and the address's, or throws 429 TOO_MANY_SIGN_INS with
 * `Retry-After`. Both are taken, so a refused email still costs the address.
 */
export async function consumeSignInAttempt(email: string, address: string): Promise<void> {
  const limiters = await getSignInLimiters();
  const results = await Promise.allSettled([
    limiters.perEmail.consume(email.toLowerCase()),
    limiters.perAddress.consume(address),
  ]);
  let waitMs = 0;
  for (const result of results) {
    if (result.status === "fulfilled") continue;
    if (!(result.reason instanceof RateLimiterRes)) throw result.reason;
    waitMs = Math.max(waitMs, result.reason.msBeforeNext);
  }
  if (waitMs === 0) return;
  const seconds = retryAfterSeconds(waitMs);
  throw new AppError("TOO_MANY_SIGN_INS", `Too many sign-in attempts. Try again in ${seconds} s.`, {
    headers: { "Retry-After": String(seconds) },
    details: { retryAfterSeconds: seconds },
  });
}

/** A successful sign-in gives the email its tries back (the address keeps its count). */
export async function forgetSignInFailures(email: string): Promise<void> {
  const limiters = await getSignInLimiters();
  await limiters.perEmail.delete(email.toLowerCase()).catch(() => false);
}
