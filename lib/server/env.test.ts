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

  it("reads an empty number variable, as .env.example writes it, as unset: the default applies", () => {
    const env = parseEnv({
      ...valid,
      DATABASE_POOL_MAX: "",
      HOLDFAST_INSTANCES: "",
      SESSION_TTL_HOURS: "",
      SIGN_IN_LIMIT_PER_EMAIL: "",
      SIGN_IN_LIMIT_PER_ADDRESS: "",
    });
    expect(env).toMatchObject({
      DATABASE_POOL_MAX: 10,
      HOLDFAST_INSTANCES: 1,
      SESSION_TTL_HOURS: 12,
      SIGN_IN_LIMIT_PER_EMAIL: 10,
      SIGN_IN_LIMIT_PER_ADDRESS: 100,
    });
    expect(() => parseEnv({ ...valid, SIGN_IN_LIMIT_PER_EMAIL: "0" })).toThrowError(/SIGN_IN_LIMIT_PER_EMAIL/);
  });

  it("lets a container image build without a database when asked to", () => {
    expect(parseEnv({ SKIP_ENV_VALIDATION: "1", NODE_ENV: "production" }).DATABASE_URL).toMatch(/^postgresql:/);
  });
});
