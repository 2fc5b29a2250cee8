import "server-only";

import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** A random, URL-safe token with `bytes` bytes of entropy. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

export function sha256Hex(input: string): string {
  return createHash("sha256").update(input, "utf8").digest("hex");
}

/** HMAC-SHA256 over the parts joined by a separator that cannot occur in them ("\n"). */
export function hmacBase64url(secret: string, parts: readonly string[]): string {
  return createHmac("sha256", secret).update(parts.join("\n"), "utf8").digest("base64url");
}

/** Constant-time string comparison (different lengths compare false without leaking where). */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(sha256Hex(a), "hex");
  const right = Buffer.from(sha256Hex(b), "hex");
  return timingSafeEqual(left, right) && a.length === b.length;
}
