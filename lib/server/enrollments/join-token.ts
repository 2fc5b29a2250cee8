import "server-only";

import { hmacBase64url, sha256Hex } from "../crypto";
import { env } from "../env.mjs";

// A join token is derived, not stored: HMAC(APP_SECRET, enrollment id, generation). The database keeps
// only SHA-256(token) to find the enrollment. Deriving it lets an admin be shown the same link again
// (enrolling twice is idempotent), and revoking is `generation + 1`, which changes the token and its hash.

export function deriveJoinToken(enrollmentId: string, generation: number): string {
  return hmacBase64url(env.APP_SECRET, ["holdfast-join-v1", enrollmentId, String(generation)]);
}

export function hashJoinToken(token: string): string {
  return sha256Hex(token);
}

export function joinUrl(token: string): string {
  return new URL(`/join/${encodeURIComponent(token)}`, env.APP_URL).toString();
}
