import "server-only";

import { randomInt } from "node:crypto";

// No 0/o, 1/l/i: a temporary password is read off a screen and typed, sometimes over the phone.
const ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

/**
 * A temporary password: four groups of five characters, about 99 bits. It passes the password policy, and
 * is good only until its owner signs in and chooses their own.
 */
export function generateTemporaryPassword(): string {
  const group = () => Array.from({ length: 5 }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
  return [group(), group(), group(), group()].join("-");
}
