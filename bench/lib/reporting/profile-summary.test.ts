import { describe, expect, it } from "vitest";

import { profilePid } from "./profiles";
import { longestBusyStretches, mergeProfileSummaries, summarizeProfile, type CpuProfile } from "./profile-summary";

const frame = (functionName: string, url = "") => ({
  functionName,
  url,
  lineNumber: 0,
  columnNumber: 0,
  scriptId: "1",
});

/**
 * root ─┬ (idle)
 *       ├ (garbage collector)
 *       ├ heal (our code) ── stringify (native, no script)
 *       └ parse (a package)
 */
const NODES: CpuProfile["nodes"] = [
  { id: 1, callFrame: frame("(root)"), children: [2, 3, 4, 6] },
  { id: 2, callFrame: frame("(idle)") },
  { id: 3, callFrame: frame("(garbage collector)") },
  { id: 4, callFrame: frame("heal", "file:///srv/holdfast/lib/server/live/exam-feed.js"), children: [5] },
  { id: 5, callFrame: frame("stringify") },
  { id: 6, callFrame: frame("parse", "file:///srv/holdfast/node_modules/pg/lib/result.js") },
];

/** A profile of 1 ms samples from t = 1,000,000 µs: `ids[i]` is the node sampled in millisecond i. */
function profileOf(ids: readonly number[]): CpuProfile {
  return {
    nodes: NODES,
    startTime: 1_000_000,
    endTime: 1_000_000 + ids.length * 1_000,
    samples: [...ids],
    timeDeltas: ids.map((_, index) => (index === 0 ? 0 : 1_000)),
  };
}

const idle = (ms: number): number[] => Array.from({ length: ms }, () => 2);
const busy = (ms: number, id: number): number[] => Array.from({ length: ms }, () => id);

describe("longestBusyStretches", () => {
  it("finds the longest runs of busy samples, named by our outermost frame, longest first", () => {
    const profile = profileOf([...idle(10), ...busy(30, 5), ...busy(5, 6), ...idle(10), ...busy(8, 3), ...idle(5)]);
    const stretches = longestBusyStretches(profile);
    expect(stretches.map((stretch) => Math.round(stretch.ms))).toEqual([35, 8]);
    expect(stretches[0]!.fromUs).toBe(1_010_000);
    // The native frame under `heal` is charged to `heal`; the package frame to its package.
    expect(stretches[0]!.frames[0]!.label).toMatch(/^heal .*exam-feed\.js/);
    expect(Math.round(stretches[0]!.frames[0]!.ms)).toBe(30);
    expect(stretches[0]!.frames[1]!.label).toMatch(/^pg: parse/);
    expect(stretches[1]!.frames.map((item) => item.label)).toEqual(["GC"]);
  });

  it("joins busy runs across idle gaps shorter than gapUs, and keeps to the window", () => {
    const ids = [...busy(10, 4), ...idle(1), ...busy(10, 4), ...idle(5), ...busy(20, 4), ...idle(2)];
    expect(longestBusyStretches(profileOf(ids), { gapUs: 2_000 }).map((stretch) => Math.round(stretch.ms))).toEqual([
      21, 20,
    ]);
    expect(longestBusyStretches(profileOf(ids), { gapUs: 500 }).map((stretch) => Math.round(stretch.ms))).toEqual([
      20, 10, 10,
    ]);
    // Only the first 11.5 ms: a stretch of 10 ms, and the second one's first millisecond.
    const windowed = longestBusyStretches(profileOf(ids), { fromUs: 1_000_000, toUs: 1_011_500, gapUs: 500 });
    expect(windowed.map((stretch) => Math.round(stretch.ms))).toEqual([10, 1]);
  });
});

describe("mergeProfileSummaries", () => {
  it("adds the processes' times by group and by function and takes the shares of the sum", () => {
    const one = summarizeProfile(profileOf([...busy(30, 4), ...busy(10, 6), ...idle(10)]), { top: 200 });
    const two = summarizeProfile(profileOf([...busy(10, 4), ...busy(50, 6), ...idle(20)]), { top: 200 });
    const merged = mergeProfileSummaries([one, two]);
    expect(Math.round(merged.busyMs)).toBe(Math.round(one.busyMs + two.busyMs));
    expect(Math.round(merged.idleMs)).toBe(Math.round(one.idleMs + two.idleMs));
    expect(merged.samples).toBe(one.samples + two.samples);
    const ours = merged.groups.find((group) => group.group === "holdfast (our code)")!;
    const pg = merged.groups.find((group) => group.group === "pg")!;
    expect(Math.round(ours.selfMs)).toBe(40);
    expect(Math.round(pg.selfMs)).toBe(60);
    expect(pg.selfShare + ours.selfShare).toBeCloseTo(1, 2);
    expect(merged.groups[0]!.group).toBe("pg");
    expect(merged.topSelf.map((figure) => [figure.name, Math.round(figure.selfMs)])).toEqual([
      ["parse", 60],
      ["heal", 40],
    ]);
  });
});

describe("profilePid", () => {
  it("reads the process id from Node's profile file name", () => {
    expect(profilePid("CPU.20261203.171502.7801.0.001.cpuprofile")).toBe(7801);
    expect(profilePid("windows.json")).toBeNull();
  });
});
