import { randomBytes } from "node:crypto";

import { afterEach, describe, expect, it } from "vitest";

import { POST as signInRoute } from "@/app/api/staff/session/route";
import { getRedis } from "@/lib/server/redis/client";
import { createStaff } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";

import { createSignInLimiters, setSignInLimiters } from "./sign-in-limiters";

async function useTinyLimits(perEmail: number, perAddress: number): Promise<void> {
  setSignInLimiters(
    createSignInLimiters({
      redis: await getRedis(),
      namespace: `test-${randomBytes(4).toString("hex")}`,
      limits: {
        perEmail: { points: perEmail, durationSeconds: 60 },
        perAddress: { points: perAddress, durationSeconds: 60 },
      },
    }),
  );
}

const attempt = (email: string, password: string, address: string) =>
  call(signInRoute, {
    path: "/api/staff/session",
    headers: { "x-forwarded-for": address },
    json: { email, password },
  });

afterEach(() => setSignInLimiters(null));

describe("sign-in rate limits", () => {
  it("per account: after the budget, even the right password gets 429 with Retry-After, from any address", async () => {
    await useTinyLimits(3, 100);
    const admin = await createStaff("admin");
    for (let i = 0; i < 3; i += 1) {
      expect((await attempt(admin.email, "wrong", `10.0.0.${i}`)).status).toBe(401);
    }
    const limited = await attempt(admin.email, admin.password, "10.0.0.9");
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe("TOO_MANY_SIGN_INS");
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers.get("set-cookie")).toBeNull();
  });

  it("a successful sign-in gives the account its tries back", async () => {
    await useTinyLimits(3, 100);
    const admin = await createStaff("admin");
    for (let round = 0; round < 3; round += 1) {
      expect((await attempt(admin.email, "wrong", "10.0.1.1")).status).toBe(401);
      expect((await attempt(admin.email, admin.password, "10.0.1.1")).status).toBe(200);
    }
  });

  it("per address: many accounts from one address are cut off, another address is not", async () => {
    await useTinyLimits(100, 4);
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

  it("parallel guesses cannot exceed the budget", async () => {
    await useTinyLimits(5, 100);
    const admin = await createStaff("admin");
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => attempt(admin.email, "wrong", `10.1.0.${i}`)),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
  });
});
