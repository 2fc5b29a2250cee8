import { describe, expect, it } from "vitest";

import { randomToken, safeEqual } from "./crypto";
import { deriveJoinToken } from "./enrollments/join-token";
import { env } from "./env.mjs";
import { generateTemporaryPassword, TEMPORARY_PASSWORD_ALPHABET } from "./staff/temporary-password";
import { newWebhookSecret } from "./webhooks/create-webhook-endpoint";

// Issue 18: every credential Holdfast makes carries at least 128 bits from the operating system's random
// source (node:crypto), and each is compared in constant time where it is compared. These tests assert the
// shapes that carry the entropy: length times bits per character of the alphabet.

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const bits = (length: number, alphabetSize: number) => length * Math.log2(alphabetSize);

describe("token entropy", () => {
  it("session tokens (staff and candidate): 32 random bytes, 43 base64url characters, 256 bits", () => {
    const tokens = Array.from({ length: 200 }, () => randomToken());
    for (const token of tokens) {
      expect(token).toMatch(BASE64URL);
      expect(token).toHaveLength(43);
    }
    expect(bits(43, 64)).toBeGreaterThanOrEqual(256);
    expect(new Set(tokens).size).toBe(tokens.length);
  });

  it("join tokens: HMAC-SHA256 under APP_SECRET (itself at least 32 characters), 256 bits of output", () => {
    const token = deriveJoinToken("0193a1b2-0000-7000-8000-000000000001", 1);
    expect(token).toMatch(BASE64URL);
    expect(token).toHaveLength(43);
    expect(deriveJoinToken("0193a1b2-0000-7000-8000-000000000001", 2)).not.toBe(token);
    // The token is as unguessable as the secret: env.mjs refuses one shorter than 32 characters, and
    // production refuses none at all; `npm run demo` and the e2e server generate 32 random bytes.
    expect(env.APP_SECRET.length).toBeGreaterThanOrEqual(32);
  });

  it("temporary passwords (new staff, resets): 30 characters from 31, at least 128 bits", () => {
    expect(TEMPORARY_PASSWORD_ALPHABET).toHaveLength(31);
    const passwords = Array.from({ length: 200 }, generateTemporaryPassword);
    for (const password of passwords) {
      expect(password).toMatch(/^[a-z2-9]{5}(-[a-z2-9]{5}){5}$/);
      expect([...password.replaceAll("-", "")].every((c) => TEMPORARY_PASSWORD_ALPHABET.includes(c))).toBe(true);
    }
    expect(bits(30, TEMPORARY_PASSWORD_ALPHABET.length)).toBeGreaterThanOrEqual(128);
    // Every character of the alphabet turns up: the draw is not confined to a part of it.
    expect(new Set(passwords.join("").replaceAll("-", "")).size).toBe(31);
  });

  it("webhook secrets: whsec_ and 24 random bytes (192 bits)", () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(secret.slice("whsec_".length), "base64")).toHaveLength(24);
    expect(newWebhookSecret()).not.toBe(secret);
  });

  it("ADMIN_API_TOKEN and METRICS_TOKEN are refused below 24 characters (the operator generates them)", async () => {
    const { parseEnv } = await import("./env.mjs");
    const base = { DATABASE_URL: "postgresql://x@127.0.0.1/x" };
    expect(() => parseEnv({ ...base, ADMIN_API_TOKEN: "short" })).toThrowError(/ADMIN_API_TOKEN/);
    expect(() => parseEnv({ ...base, METRICS_TOKEN: "short" })).toThrowError(/METRICS_TOKEN/);
  });
});

describe("constant-time comparison", () => {
  it("safeEqual: equal only for equal strings, whatever the lengths", () => {
    const token = randomToken();
    expect(safeEqual(token, token)).toBe(true);
    expect(safeEqual(token, `${token}x`)).toBe(false);
    expect(safeEqual(token, token.slice(0, -1))).toBe(false);
    expect(safeEqual(token, "")).toBe(false);
  });
});
