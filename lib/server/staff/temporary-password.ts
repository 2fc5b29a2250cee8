import "server-only";

import { randomInt } from "node:crypto";

// No 0/o, 1/l/i: a temporary password is read off a screen and typed, sometimes over the phone.
const ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

/**
 * A temporary password: six groups of five characters from 31, 30 × log2(31) ≈ 148.6 bits (issue 18: every
 * credential Holdfast makes has at least 128). It passes the password policy, and is good only until its owner
 * signs in and chooses their own.
 */
export function generateTemporaryPassword(): string {
  const group = () => Array.from({ length: 5 }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
  return Array.from({ length: 6 }, group).join("-");
}

export const TEMPORARY_PASSWORD_ALPHABET = ALPHABET;
