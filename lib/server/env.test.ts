import { readFileSync } from "node:fs";

import { describe, expect, it } from "vitest";

import { parseEnv } from "./env.mjs";

const valid = { DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/holdfast" };

describe("parseEnv", () => {
  it("applies defaults for a minimal development environment", () => {
    const env = parseEnv(valid);
    expect(env).toMatchObject({
      NODE_ENV: "development",
      DATABASE_POOL_MAX: 10,
      HOLDFAST_INSTANCES: 1,
      APP_URL: "http://localhost:3000",
      COOKIE_SECURE: false,
    });
    expect(env.APP_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(env.REDIS_URL).toBeUndefined();
  });

  it("lists every problem at once, by variable name", () => {
    expect(() => parseEnv({ DATABASE_URL: "mysql://x", REDIS_URL: "http://x", APP_SECRET: "short" })).toThrowError(
      /DATABASE_URL: must be a postgres.*\n.*REDIS_URL: must be a redis.*\n.*APP_SECRET: must be at least 32/s,
    );
  });

  it("requires APP_SECRET in production", () => {
    expect(() => parseEnv({ ...valid, NODE_ENV: "production" })).toThrowError(/APP_SECRET: is required in production/);
  });

  it("turns on Secure cookies for an https APP_URL and treats empty optionals as unset", () => {
    const env = parseEnv({ ...valid, APP_URL: "https://exams.example.org", REDIS_URL: "", ADMIN_API_TOKEN: "" });
    expect(env.COOKIE_SECURE).toBe(true);
    expect(env.REDIS_URL).toBeUndefined();
    expect(env.ADMIN_API_TOKEN).toBeUndefined();
  });

  it("starts from .env.example copied as it ships: an empty line means the default", () => {
    const shipped = Object.fromEntries(
      readFileSync(new URL("../../.env.example", import.meta.url), "utf8")
        .split("\n")
        .filter((line) => /^[A-Z_]+=/.test(line))
        .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
    );
    expect(Object.keys(shipped)).toEqual(expect.arrayContaining(["SIGN_IN_LIMIT_PER_EMAIL", "APP_SECRET"]));
    const env = parseEnv(shipped);
    expect(env).toMatchObject({
      SIGN_IN_LIMIT_FREE_FAILURES: 5,
      SIGN_IN_LIMIT_MAX_WAIT_SECONDS: 900,
      SIGN_IN_LIMIT_PER_EMAIL: 100,
      SIGN_IN_LIMIT_EMAIL_BLOCK_SECONDS: 60,
      SIGN_IN_LIMIT_PER_ADDRESS: 100,
      SESSION_TTL_HOURS: 12,
    });
    expect(env.APP_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(() => parseEnv({ ...shipped, NODE_ENV: "production" })).toThrowError(
      /APP_SECRET: is required in production/,
    );
    expect(() => parseEnv({ ...shipped, SIGN_IN_LIMIT_PER_EMAIL: "0" })).toThrowError(/SIGN_IN_LIMIT_PER_EMAIL/);
  });

  it("reads the webhook retry schedule as seconds, and refuses one that is not", () => {
    const base = { DATABASE_URL: "postgresql://x@127.0.0.1/x" };
    expect(parseEnv(base).WEBHOOK_RETRY_SCHEDULE).toEqual([5, 60, 300, 1800, 7200, 21600, 43200]);
    expect(parseEnv({ ...base, WEBHOOK_RETRY_SCHEDULE: "" }).WEBHOOK_RETRY_SCHEDULE).toHaveLength(7);
    expect(parseEnv({ ...base, WEBHOOK_RETRY_SCHEDULE: "0.5, 2,10" }).WEBHOOK_RETRY_SCHEDULE).toEqual([0.5, 2, 10]);
    expect(parseEnv(base).WEBHOOK_TIMEOUT_MS).toBe(15_000);
    expect(() => parseEnv({ ...base, WEBHOOK_RETRY_SCHEDULE: "5,soon" })).toThrowError(/WEBHOOK_RETRY_SCHEDULE/);
    expect(() => parseEnv({ ...base, WEBHOOK_RETRY_SCHEDULE: "5,,60" })).toThrowError(/WEBHOOK_RETRY_SCHEDULE/);
    expect(() => parseEnv({ ...base, WEBHOOK_RETRY_SCHEDULE: "5,999999" })).toThrowError(/at most a week/);
    expect(() => parseEnv({ ...base, WEBHOOK_TIMEOUT_MS: "1" })).toThrowError(/WEBHOOK_TIMEOUT_MS/);
  });

  it("lets a container image build without a database when asked to", () => {
    expect(parseEnv({ SKIP_ENV_VALIDATION: "1", NODE_ENV: "production" }).DATABASE_URL).toMatch(/^postgresql:/);
  });
});
