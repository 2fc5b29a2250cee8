// What the app's autosave rate limit per attempt is (read from lib/server/limits/, which cannot be
// imported outside Next.js because of `server-only`), and whether the autosave route applies it yet.
// The benchmark paces each attempt below that limit, so it measures the server and not the limiter.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

import { PROJECT_ROOT } from "./database";

export type PerAttemptLimit = {
  points: number;
  durationSeconds: number;
  burst?: { points: number; durationSeconds: number };
};

export type AutosaveLimitInfo = {
  /** The limit found in the source, or null when there is none (yet). */
  perAttempt: PerAttemptLimit | null;
  source: string;
  /** Whether any route handler takes the autosave limit (`route({ …, limit: "autosave" })`). */
  isWired: boolean;
  wiredIn: string[];
};

const LIMITS_FILE = "lib/server/limits/create-sync-limiters.ts";
const SPEC =
  /autosavePerAttempt:\s*\{\s*points:\s*([\d_]+),\s*durationSeconds:\s*([\d_]+)(?:,\s*burst:\s*\{\s*points:\s*([\d_]+),\s*durationSeconds:\s*([\d_]+)\s*\})?/;

function toNumber(text: string | undefined): number {
  return Number((text ?? "").replaceAll("_", ""));
}

function filesUnder(dir: string): string[] {
  const absolute = join(PROJECT_ROOT, dir);
  if (!existsSync(absolute)) return [];
  return readdirSync(absolute).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(PROJECT_ROOT, path)).isDirectory()) return name === "generated" ? [] : filesUnder(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

export function readAutosaveLimit(): AutosaveLimitInfo {
  const path = join(PROJECT_ROOT, LIMITS_FILE);
  let perAttempt: PerAttemptLimit | null = null;
  if (existsSync(path)) {
    const match = SPEC.exec(readFileSync(path, "utf8"));
    if (match) {
      perAttempt = { points: toNumber(match[1]), durationSeconds: toNumber(match[2]) };
      if (match[3] && match[4]) perAttempt.burst = { points: toNumber(match[3]), durationSeconds: toNumber(match[4]) };
    }
  }
  const wiredIn = filesUnder("app").filter((file) =>
    /\blimit:\s*"autosave"/.test(readFileSync(join(PROJECT_ROOT, file), "utf8")),
  );
  return { perAttempt, source: LIMITS_FILE, isWired: wiredIn.length > 0, wiredIn };
}

export function describeLimit(limit: PerAttemptLimit | null): string {
  if (!limit) return "none found";
  const steady = `${limit.points} per ${limit.durationSeconds} s`;
  return limit.burst ? `${steady} + burst ${limit.burst.points} per ${limit.burst.durationSeconds} s` : steady;
}
