// The app's CPU profiles (node --cpu-prof) of a run, summarised per measured window: where the CPU went
// (every worker's profile added up) and the longest stretches its event loops were busy without a break.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

import { PROJECT_ROOT } from "../servers/database";
import { shout } from "../run/log";
import {
  formatProfileSummary,
  longestBusyStretches,
  mergeProfileSummaries,
  summarizeProfile,
  type CpuProfile,
} from "./profile-summary";

/** A new folder for one run's profiles, under bench/results/profiles (git-ignored). */
export function profileDirectory(scenario: string): string {
  const dir = join(
    PROJECT_ROOT,
    "bench",
    "results",
    "profiles",
    `${scenario}-${new Date().toISOString().replace(/[:.]/g, "-")}`,
  );
  mkdirSync(dir, { recursive: true });
  return dir;
}

export type ProfileWindow = {
  title: string;
  /** Monotonic clock, µs (`process.hrtime`), the clock of V8's samples. */
  fromUs: number;
  toUs: number;
  requests?: number;
};

/** The process id in Node's profile file name (`CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile`). */
export function profilePid(file: string): number | null {
  const match = /^CPU\.\d+\.\d+\.(\d+)\.\d+\.\d+\.cpuprofile$/.exec(file);
  return match ? Number(match[1]) : null;
}

/** The monotonic clock in µs, as the windows are given. */
export function monotonicUs(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

/**
 * Prints, for each window, where the app's CPU went (all its processes' profiles but `exceptPid`'s, added
 * up) and the longest busy stretches of any one event loop. Writes `windows.json` beside the profiles so
 * they can be summarised again: `npx tsx bench/lib/reporting/profile-summary.ts <file> --from <µs> --to <µs>`.
 * Call once the app has exited (Node writes the profile then).
 */
export function printWindowProfiles(
  profileDir: string,
  windows: readonly ProfileWindow[],
  options: { exceptPid?: number; stretches?: number } = {},
): void {
  const files = readdirSync(profileDir)
    .filter((name) => name.endsWith(".cpuprofile"))
    .filter((name) => options.exceptPid === undefined || profilePid(name) !== options.exceptPid)
    .map((name) => join(profileDir, name));
  if (files.length === 0) {
    shout(`--profile: no .cpuprofile was written in ${profileDir}`);
    return;
  }
  writeFileSync(join(profileDir, "windows.json"), `${JSON.stringify({ profiles: files, windows }, null, 2)}\n`);
  const profiles = files.map((file) => ({ file, profile: JSON.parse(readFileSync(file, "utf8")) as CpuProfile }));
  const nextDir = join(PROJECT_ROOT, ".next");
  const names = files.map((file) => relative(PROJECT_ROOT, file)).join(", ");
  for (const window of windows) {
    const range = { fromUs: window.fromUs, toUs: window.toUs, nextDir };
    const summary = mergeProfileSummaries(
      profiles.map(({ profile }) => summarizeProfile(profile, { ...range, top: 200 })),
    );
    console.log("");
    console.log(
      formatProfileSummary(summary, {
        requests: window.requests,
        title: `== app CPU profile, ${window.title} (${files.length} process(es): ${names}) ==`,
      }),
    );
    const stretches = profiles
      .flatMap(({ file, profile }) =>
        longestBusyStretches(profile, { ...range, count: options.stretches ?? 8 }).map((stretch) => ({
          ...stretch,
          pid: profilePid(file.slice(file.lastIndexOf("/") + 1)),
        })),
      )
      .sort((a, b) => b.ms - a.ms)
      .slice(0, options.stretches ?? 8);
    console.log("", "longest busy stretches of one event loop (what every request landing in them waited behind):");
    for (const stretch of stretches)
      console.log(
        `  ${stretch.ms.toFixed(0).padStart(5)} ms at +${((stretch.fromUs - window.fromUs) / 1e6).toFixed(1)} s (pid ${stretch.pid ?? "?"}): ` +
          stretch.frames.map((frame) => `${frame.label} ${frame.ms.toFixed(0)} ms`).join("; "),
      );
  }
}
