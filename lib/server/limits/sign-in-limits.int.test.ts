import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";

import { afterEach, describe, expect, it } from "vitest";

import { POST as signInRoute } from "@/app/api/staff/session/route";
import { getRedis } from "@/lib/server/redis/client";
import { createStaff } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";

import { createSignInLimiters, pairWaitSeconds, setSignInLimiters, type SignInLimitSpecs } from "./sign-in-limiters";

// The bug (issue 18): the limiter counted tries per email from any address, 10 in 15 minutes, so anyone who
// knew an admin's email could lock the admin out for 15 minutes with 10 wrong passwords. The fix counts
// failures per (email, address) pair with doubling waits, keeps the per-address budget against spraying, and
// gives the email across addresses a large budget with a short refusal. These tests run on the real Redis.

// Waits start at 30 s where a test only needs a refusal to last: this machine may be slow (argon2 under load),
// and a 1 s wait could end before the test's next request. The growth test uses the real 1 s.
const LOOSE: SignInLimitSpecs = {
  freeFailures: 100,
  firstWaitSeconds: 30,
  maxWaitSeconds: 900,
  perEmail: 10_000,
  emailBlockSeconds: 60,
  perAddress: 10_000,
};

async function useLimits(limits: Partial<SignInLimitSpecs>): Promise<void> {
  setSignInLimiters(
    createSignInLimiters({
      redis: await getRedis(),
      namespace: `test-${randomBytes(4).toString("hex")}`,
      limits: { ...LOOSE, ...limits },
    }),
  );
}

const attempt = (email: string, password: string, address: string) =>
  call(signInRoute, {
    path: "/api/staff/session",
    headers: { "x-forwarded-for": address },
    json: { email, password },
  });

const retryAfter = (response: { headers: Headers }) => Number(response.headers.get("retry-after"));

afterEach(() => setSignInLimiters(null));

describe("sign-in waits", () => {
  it("doubles from 1 s to the cap once the free failures are spent", () => {
    const limits = { freeFailures: 3, firstWaitSeconds: 1, maxWaitSeconds: 900 };
    expect([1, 2, 3, 4, 5, 6, 12, 13, 40].map((n) => pairWaitSeconds(n, limits))).toEqual([
      0, 0, 1, 2, 4, 8, 512, 900, 900,
    ]);
  });
});

describe("sign-in rate limits", () => {
  it("one account from one address: 429 with Retry-After after the free failures, while the right password from another address still signs in", async () => {
    await useLimits({ freeFailures: 3, perEmail: 8 });
    const admin = await createStaff("admin");
    for (let i = 0; i < 3; i += 1) expect((await attempt(admin.email, "wrong", "203.0.113.10")).status).toBe(401);

    const refused = await attempt(admin.email, admin.password, "203.0.113.10");
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("TOO_MANY_SIGN_INS");
    expect(refused.body.error.details.retryAfterSeconds).toBe(retryAfter(refused));
    expect(retryAfter(refused)).toBeGreaterThanOrEqual(29);
    expect(retryAfter(refused)).toBeLessThanOrEqual(30);
    expect(refused.headers.get("set-cookie")).toBeNull();

    // The attacker keeps hammering: every refusal is given back, so the email's budget (8) is not spent by them.
    const hammered = await Promise.all(Array.from({ length: 20 }, () => attempt(admin.email, "wrong", "203.0.113.10")));
    expect(hammered.map((r) => r.status)).toEqual(Array.from({ length: 20 }, () => 429));

    const owner = await attempt(admin.email, admin.password, "198.51.100.20");
    expect(owner.status).toBe(200);
    expect(owner.headers.get("set-cookie")).toMatch(/^holdfast_staff=/);
    // The owner's success does not open the attacker's pair.
    expect((await attempt(admin.email, "wrong", "203.0.113.10")).status).toBe(429);
  });

  it("Retry-After grows with each failure past the free ones", async () => {
    await useLimits({ freeFailures: 2, firstWaitSeconds: 2 });
    const admin = await createStaff("admin");
    const waits: number[] = [];
    let failures = 0;
    while (waits.length < 3) {
      const response = await attempt(admin.email, "wrong", "203.0.113.11");
      if (response.status === 401) {
        failures += 1;
        continue;
      }
      expect(response.status).toBe(429);
      waits.push(retryAfter(response));
      await sleep(retryAfter(response) * 1000 + 50);
    }
    // Gates of 2, 4 and 8 s, each taken when its failing try started: the refusal that follows reads what is
    // left of it after that try's password check, so compare growth, not exact values.
    expect(waits[0]).toBeLessThanOrEqual(2);
    expect(waits[1]).toBeGreaterThan(waits[0]!);
    expect(waits[2]).toBeGreaterThan(waits[1]!);
    expect(waits[2]).toBeLessThanOrEqual(8);
    expect(failures).toBe(2 + 2);
  }, 60_000);

  it("a success forgets the pair's failures and its wait", async () => {
    await useLimits({ freeFailures: 2 });
    const admin = await createStaff("admin");
    for (let round = 0; round < 3; round += 1) {
      expect((await attempt(admin.email, "wrong", "10.0.1.1")).status).toBe(401);
      expect((await attempt(admin.email, admin.password, "10.0.1.1")).status).toBe(200);
    }
    expect((await attempt(admin.email, "wrong", "10.0.1.1")).status).toBe(401);
  });

  it("parallel guesses from one address cannot exceed the free failures", async () => {
    await useLimits({ freeFailures: 3 });
    const admin = await createStaff("admin");
    const results = await Promise.all(Array.from({ length: 12 }, () => attempt(admin.email, "wrong", "10.1.0.1")));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(9);
  });

  it("parallel guesses from many addresses cannot exceed the email's budget, whose refusal is short", async () => {
    await useLimits({ perEmail: 5, emailBlockSeconds: 5 });
    const admin = await createStaff("admin");
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => attempt(admin.email, "wrong", `10.2.0.${i}`)),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);

    const refused = await attempt(admin.email, admin.password, "198.51.100.30");
    expect(refused.status).toBe(429);
    expect(retryAfter(refused)).toBeGreaterThanOrEqual(1);
    expect(retryAfter(refused)).toBeLessThanOrEqual(5);
    await sleep(retryAfter(refused) * 1000 + 100);
    expect((await attempt(admin.email, admin.password, "198.51.100.30")).status).toBe(200);
  });

  it("per address: spraying many accounts from one address is cut off, another address is not", async () => {
    await useLimits({ perAddress: 4 });
    const accounts = await Promise.all([createStaff("proctor"), createStaff("proctor"), createStaff("proctor")]);
    const statuses: number[] = [];
    for (const account of [...accounts, ...accounts]) {
      statuses.push((await attempt(account.email, "wrong", "192.0.2.7")).status);
    }
    expect(statuses.slice(0, 4)).toEqual([401, 401, 401, 401]);
    expect(statuses.slice(4)).toEqual([429, 429]);
    // Only the last X-Forwarded-For entry (the one the proxy wrote) counts: a claimed address changes nothing.
    expect((await attempt(accounts[0]!.email, "wrong", "203.0.113.5, 192.0.2.7")).status).toBe(429);
    const elsewhere = accounts[0]!;
    expect((await attempt(elsewhere.email, elsewhere.password, "198.51.100.1")).status).toBe(200);
  });

  it("per address: only failures count, so an exam hall's many successful sign-ins from one address pass", async () => {
    await useLimits({ perAddress: 2 });
    const proctors = await Promise.all(Array.from({ length: 5 }, () => createStaff("proctor")));
    for (const proctor of proctors) {
      expect((await attempt(proctor.email, proctor.password, "192.0.2.50")).status).toBe(200);
    }
    expect((await attempt(proctors[0]!.email, "wrong", "192.0.2.50")).status).toBe(401);
    expect((await attempt(proctors[1]!.email, "wrong", "192.0.2.50")).status).toBe(401);
    expect((await attempt(proctors[2]!.email, proctors[2]!.password, "192.0.2.50")).status).toBe(429);
  });
});
