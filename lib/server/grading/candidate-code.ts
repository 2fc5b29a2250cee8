import "server-only";

import { createHmac } from "node:crypto";

import { env } from "../env.mjs";

/** Crockford's base 32: no I, L, O or U, so a code read aloud or copied by hand is not misread. */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/**
 * The code graders see instead of a candidate's name (blind grading): eight characters derived from the server
 * secret and the enrollment, stable for the exam's life, meaningless without the secret (40 bits: a collision
 * among 10,000 candidates is about 1 in 20,000).
 */
export function candidateCode(enrollmentId: string): string {
  const digest = createHmac("sha256", env.APP_SECRET).update(`holdfast-candidate-code-v1\n${enrollmentId}`).digest();
  let code = "";
  for (let index = 0; index < 8; index += 1) code += ALPHABET[digest[index]! % 32];
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}
