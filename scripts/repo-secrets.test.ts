import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { describe, expect, it } from "vitest";

// No secrets in the repository (docs/security.md, "Supply chain"): no tracked file holds a private key, a
// webhook signing secret, or a high-entropy value assigned to one of Holdfast's secret variables. The
// placeholders in .env.example are empty. Test values that must look real are built from parts.

const root = fileURLToPath(new URL("..", import.meta.url));
const SECRET_VARIABLES = ["APP_SECRET", "ADMIN_API_TOKEN", "METRICS_TOKEN", "DEMO_POSTGRES_PASSWORD"];

/** Bits per character of `value` by its own character frequencies. */
function bitsPerCharacter(value: string): number {
  const counts = new Map<string, number>();
  for (const char of value) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) bits -= (count / value.length) * Math.log2(count / value.length);
  return bits;
}

/** Looks machine-made: upper and lower case and digits, and about 4 bits a character or more. */
function looksRandom(value: string): boolean {
  return /[A-Z]/.test(value) && /[a-z]/.test(value) && /\d/.test(value) && bitsPerCharacter(value) >= 4;
}

function secretsIn(text: string): string[] {
  const found: string[] = [];
  if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(text)) found.push("private key");
  if (/whsec_[A-Za-z0-9+/=]{24,}/.test(text)) found.push("webhook secret");
  for (const name of SECRET_VARIABLES) {
    // `NAME=value` (an env file, a shell line) or `NAME: "value"` / `NAME = "value"` (a literal in code).
    const assignment = new RegExp(`\\b${name}(?:=|\\s*[:=]\\s*["'\`])([A-Za-z0-9+/_.~-]{20,})`, "g");
    for (const match of text.matchAll(assignment)) {
      if (looksRandom(match[1]!)) found.push(`high-entropy ${name}`);
    }
  }
  return found;
}

describe("no secrets in the repository", () => {
  it("recognises what it looks for, and not a placeholder", () => {
    const key = ["-----BEGIN", "PRIVATE KEY-----"].join(" ");
    expect(secretsIn(`${key}\nMIIEv...`)).toEqual(["private key"]);
    expect(secretsIn(`secret: ${["whsec", "MfKQ9r8GK6DdmtFJ1vqrX3Qv5vL1j3oa"].join("_")}`)).toEqual(["webhook secret"]);
    expect(secretsIn(`${"APP"}_SECRET=q3V9w0x2k1dW6rLz8uJ4sP7mN5tB0yHcT2`)).toEqual(["high-entropy APP_SECRET"]);
    expect(secretsIn(`${"APP"}_SECRET=\nADMIN_API_TOKEN=change-me-change-me-change-me`)).toEqual([]);
    expect(secretsIn("whsec_… is shown once")).toEqual([]);
  });

  it("no tracked file holds one", () => {
    const files = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" }).split("\0").filter(Boolean);
    expect(files.length).toBeGreaterThan(100);
    const offenders: string[] = [];
    for (const file of files) {
      let text: string;
      try {
        text = readFileSync(`${root}/${file}`, "utf8");
      } catch {
        continue; // listed but absent in this checkout (deleted, not yet committed)
      }
      if (text.includes("\0")) continue; // binary
      for (const what of secretsIn(text)) offenders.push(`${file}: ${what}`);
    }
    expect(offenders).toEqual([]);
  });

  it(".env.example ships every secret variable empty", () => {
    const example = readFileSync(`${root}/.env.example`, "utf8");
    for (const name of ["APP_SECRET", "ADMIN_API_TOKEN", "METRICS_TOKEN"]) {
      expect(example).toMatch(new RegExp(`^${name}=$`, "m"));
    }
  });
});
