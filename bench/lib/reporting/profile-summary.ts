// Where a server's CPU time went: reads a V8 .cpuprofile (node --cpu-prof) and sums its samples by
// package or module (Next.js internals, React, Prisma, pg, ioredis, rate-limiter-flexible, zod,
// prom-client, our code, Node's core, GC), by self time and by inclusive time.
//
// - Self time of a frame goes to its group. Native socket writes are a group of their own (see
//   SOCKET_WRITES). Other frames without a script (V8 builtins such as JSON.parse or
//   a RegExp, shown as "(native)" by DevTools) are charged to the nearest caller that has one, so
//   `JSON.parse` called by pg counts as pg.
// - Inclusive time: a sample counts once for every group on its stack (so the shares add up to more
//   than 100 %). "Our code" inclusive is everything our route did, Prisma and pg included.
// - "+ Node work it called": self time plus the Node core frames and syscalls below it, charged to the
//   nearest package (or our code) above them on the stack: who caused the work. These add up to 100 %.
// - Bundled code (`.next/server/**.js`, built by Turbopack) is resolved through its source map to the
//   original file, so zod or our lib/ inside a chunk are told apart. When a profile outlives the build
//   copy it ran from, `--next-dir` points at a .next with the same build.
// - Only samples inside [fromUs, toUs] count when a window is given: V8 stamps samples with the
//   monotonic clock in microseconds, the same clock as `process.hrtime` in the load generator.
//
//   npx tsx bench/lib/reporting/profile-summary.ts <file.cpuprofile> [--from US --to US] [--top N] [--next-dir DIR]
import { existsSync, readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

type CallFrame = { functionName: string; url: string; lineNumber: number; columnNumber: number; scriptId: string };
type ProfileNode = { id: number; callFrame: CallFrame; children?: number[] };
export type CpuProfile = {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
};

export type GroupFigure = {
  group: string;
  selfMs: number;
  selfShare: number;
  totalMs: number;
  totalShare: number;
  /** Self time plus that of Node core frames (and syscalls) it called: who caused the work. */
  ownedMs: number;
  ownedShare: number;
};
export type FunctionFigure = { name: string; group: string; location: string; selfMs: number; totalMs: number };
export type ProfileSummary = {
  /** Sampled time in the window, idle excluded. */
  busyMs: number;
  idleMs: number;
  samples: number;
  groups: GroupFigure[];
  topSelf: FunctionFigure[];
  topTotal: FunctionFigure[];
};

const PACKAGE_GROUPS: readonly (readonly [RegExp, string])[] = [
  [/^(next|@next\/.*|styled-jsx|@swc\/helpers|@opentelemetry\/.*)$/, "next"],
  [/^(react|react-dom|react-server-dom-.*|scheduler)$/, "react"],
  [/^(@prisma\/.*|prisma)$/, "prisma"],
  [/^(pg|pg-.*|postgres-.*|pgpass|split2)$/, "pg"],
  [/^(ioredis|@ioredis\/.*|redis-errors|redis-parser|cluster-key-slot|denque|standard-as-callback)$/, "ioredis"],
  [/^rate-limiter-flexible$/, "rate-limiter-flexible"],
  [/^zod$/, "zod"],
  [/^(prom-client|tdigest|bintrees)$/, "prom-client"],
];

function packageOf(path: string): string | null {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/.exec(decodeURIComponent(path));
  return match?.[1] ?? null;
}

function groupOfPackage(name: string): string {
  for (const [pattern, group] of PACKAGE_GROUPS) if (pattern.test(name)) return group;
  return `other: ${name}`;
}

const OUR_CODE = "holdfast (our code)";

/** The group of an original source path (from a source map or a plain file URL). */
export function groupOfSource(source: string): string {
  const path = decodeURIComponent(source);
  if (/lib\/server\/db\/generated\//.test(path)) return "prisma";
  const pkg = packageOf(path);
  if (pkg) return groupOfPackage(pkg);
  if (/\[turbopack\]/.test(path)) return "next";
  if (/(^|\/)(app|lib|components|instrumentation\.ts)/.test(path) && !/^node:/.test(path)) return OUR_CODE;
  return `other: ${path}`;
}

/** Node's own JavaScript: undici is what backs the Web Request/Response/streams Next hands to routes. */
function groupOfNodeInternal(url: string): string {
  if (/undici|internal\/webstreams|internal\/deps\/undici/.test(url)) return "node: web streams, fetch types (undici)";
  if (/(_http_|internal\/http|node:http|^http$|net|stream|internal\/streams)/.test(url))
    return "node: http, net, streams";
  return "node: other core";
}

type Resolved = { group: string; location: string };

/** Resolves frames of bundled chunks through their source maps; caches per script. */
class FrameResolver {
  private readonly maps = new Map<string, SourceMap | null>();
  private readonly resolved = new Map<string, Resolved>();

  constructor(private readonly nextDir: string | undefined) {}

  private sourceMap(url: string): SourceMap | null {
    if (this.maps.has(url)) return this.maps.get(url) ?? null;
    let map: SourceMap | null = null;
    try {
      let file = url.startsWith("file://") ? fileURLToPath(url) : url;
      if (!existsSync(`${file}.map`) && this.nextDir) {
        const at = file.indexOf("/.next/");
        if (at !== -1) file = `${this.nextDir}/${file.slice(at + "/.next/".length)}`;
      }
      if (existsSync(`${file}.map`)) {
        const payload = JSON.parse(readFileSync(`${file}.map`, "utf8")) as ConstructorParameters<typeof SourceMap>[0];
        map = new SourceMap(payload);
      }
    } catch {
      map = null;
    }
    this.maps.set(url, map);
    return map;
  }

  resolve(frame: CallFrame): Resolved | null {
    const { url } = frame;
    if (!url) return null;
    const key = `${url}:${frame.lineNumber}:${frame.columnNumber}`;
    const cached = this.resolved.get(key);
    if (cached) return cached;
    let result: Resolved;
    if (url.startsWith("node:") || !url.includes("/")) {
      result = { group: groupOfNodeInternal(url), location: url };
    } else if (/\/\.next\/server\//.test(url)) {
      const entry = this.sourceMap(url)?.findEntry(frame.lineNumber, frame.columnNumber) as
        { originalSource?: string; originalLine?: number } | undefined;
      if (entry?.originalSource) {
        const source = entry.originalSource.replace(
          /^.*?(node_modules\/|lib\/|app\/|components\/|\[turbopack\])/,
          "$1",
        );
        result = { group: groupOfSource(entry.originalSource), location: `${source}:${(entry.originalLine ?? 0) + 1}` };
      } else {
        const chunk = url.slice(url.lastIndexOf("/") + 1);
        result = {
          group: /prisma/.test(chunk) ? "prisma" : /turbopack|runtime/.test(chunk) ? "next" : `other: chunk ${chunk}`,
          location: chunk,
        };
      }
    } else {
      const path = url.startsWith("file://") ? fileURLToPath(url) : url;
      const short = path.replace(/^.*?node_modules\//, "");
      result = { group: groupOfSource(path), location: `${short}:${frame.lineNumber + 1}` };
    }
    this.resolved.set(key, result);
    return result;
  }
}

function isNodeOwned(group: string): boolean {
  return group.startsWith("node:") || group.startsWith("syscall:") || group.startsWith("V8/");
}

const SPECIAL: Record<string, string> = {
  "(garbage collector)": "GC",
  "(program)": "V8/native (program)",
  "(idle)": "(idle)",
  "(root)": "(root)",
};

/**
 * The native calls that write to a socket. The profiler samples the JS thread's wall time, so on a busy
 * box a write that wakes the reader (Postgres, Redis, the client) is also charged for the time the thread
 * waits to be scheduled again: they get a group of their own, to be read against /proc's CPU figure.
 */
const SOCKET_WRITES = new Set([
  "writev",
  "writeUtf8String",
  "writeBuffer",
  "writeLatin1String",
  "writeAsciiString",
  "writeUcs2String",
]);

/** The profile's call tree: each node by id, and each node's parent. */
function treeOf(profile: CpuProfile): { byId: Map<number, ProfileNode>; parent: Map<number, number> } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  return { byId, parent };
}

/**
 * The samples stamped within [fromUs, toUs] (all without a window): the node sampled, when (µs, monotonic), and
 * the time it stands for — until the next sample (0 for the last).
 */
function* samplesIn(
  profile: CpuProfile,
  window: { fromUs?: number; toUs?: number },
): Generator<{ id: number; atUs: number; us: number }> {
  let atUs = profile.startTime;
  for (let index = 0; index < profile.samples.length; index += 1) {
    atUs += profile.timeDeltas[index] ?? 0;
    if (window.fromUs !== undefined && atUs < window.fromUs) continue;
    if (window.toUs !== undefined && atUs > window.toUs) return;
    const next = profile.timeDeltas[index + 1];
    yield { id: profile.samples[index]!, atUs, us: next !== undefined && next > 0 ? next : 0 };
  }
}

export function summarizeProfile(
  profile: CpuProfile,
  options: { fromUs?: number; toUs?: number; top?: number; nextDir?: string } = {},
): ProfileSummary {
  const resolver = new FrameResolver(options.nextDir);
  const { byId, parent } = treeOf(profile);

  // Per node: its group (own, or its nearest caller's when it has no script) and a function label.
  const nodeInfo = new Map<number, { group: string; label: string; location: string }>();
  const infoOf = (id: number): { group: string; label: string; location: string } => {
    const known = nodeInfo.get(id);
    if (known) return known;
    const node = byId.get(id);
    let info: { group: string; label: string; location: string };
    if (!node) {
      info = { group: "(unknown)", label: "(unknown)", location: "" };
    } else {
      const { callFrame } = node;
      const special = SPECIAL[callFrame.functionName];
      const resolved = special && !callFrame.url ? null : resolver.resolve(callFrame);
      const name = callFrame.functionName || "(anonymous)";
      if (special && !callFrame.url) {
        info = { group: special, label: callFrame.functionName, location: "" };
      } else if (resolved) {
        info = { group: resolved.group, label: name, location: resolved.location };
      } else if (SOCKET_WRITES.has(callFrame.functionName)) {
        const up = parent.get(id);
        const caller = up !== undefined ? infoOf(up) : null;
        info = {
          group: "syscall: socket writes",
          label: `${callFrame.functionName} (native)`,
          location: caller ? `called from ${caller.label}` : "",
        };
      } else {
        const up = parent.get(id);
        const caller = up !== undefined ? infoOf(up) : null;
        const group = caller && !caller.group.startsWith("(") ? caller.group : "V8/native (program)";
        info = { group, label: `${name} (native)`, location: caller ? `called from ${caller.label}` : "" };
      }
    }
    nodeInfo.set(id, info);
    return info;
  };

  const selfByGroup = new Map<string, number>();
  const ownedByGroup = new Map<string, number>();
  const totalByGroup = new Map<string, number>();
  const selfByFunction = new Map<string, { info: { group: string; label: string; location: string }; ms: number }>();
  const totalByFunction = new Map<string, { info: { group: string; label: string; location: string }; ms: number }>();
  let busyMs = 0;
  let idleMs = 0;
  let counted = 0;

  for (const { id, us } of samplesIn(profile, options)) {
    const ms = us / 1000;
    const leaf = infoOf(id);
    counted += 1;
    if (leaf.group === "(idle)") {
      idleMs += ms;
      continue;
    }
    busyMs += ms;
    selfByGroup.set(leaf.group, (selfByGroup.get(leaf.group) ?? 0) + ms);
    const selfKey = `${leaf.group}|${leaf.label}|${leaf.location}`;
    const self = selfByFunction.get(selfKey) ?? { info: leaf, ms: 0 };
    self.ms += ms;
    selfByFunction.set(selfKey, self);

    // The nearest frame of a package or of our code owns a Node core frame's (or a syscall's) time.
    let owner = leaf.group;
    if (isNodeOwned(owner)) {
      for (let at = parent.get(id); at !== undefined; at = parent.get(at)) {
        const group = infoOf(at).group;
        if (!isNodeOwned(group) && !group.startsWith("(")) {
          owner = group;
          break;
        }
      }
    }
    ownedByGroup.set(owner, (ownedByGroup.get(owner) ?? 0) + ms);

    const groupsOnStack = new Set<string>();
    const functionsOnStack = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const info = infoOf(at);
      if (info.group.startsWith("(")) continue;
      groupsOnStack.add(info.group);
      const key = `${info.group}|${info.label}|${info.location}`;
      if (functionsOnStack.has(key)) continue;
      functionsOnStack.add(key);
      const total = totalByFunction.get(key) ?? { info, ms: 0 };
      total.ms += ms;
      totalByFunction.set(key, total);
    }
    for (const group of groupsOnStack) totalByGroup.set(group, (totalByGroup.get(group) ?? 0) + ms);
  }

  const share = (ms: number): number => (busyMs > 0 ? ms / busyMs : 0);
  const groups = [...new Set([...selfByGroup.keys(), ...totalByGroup.keys(), ...ownedByGroup.keys()])]
    .map((group) => {
      const selfMs = selfByGroup.get(group) ?? 0;
      const totalMs = Math.max(totalByGroup.get(group) ?? 0, selfMs);
      const ownedMs = ownedByGroup.get(group) ?? 0;
      return {
        group,
        selfMs,
        selfShare: share(selfMs),
        totalMs,
        totalShare: share(totalMs),
        ownedMs,
        ownedShare: share(ownedMs),
      };
    })
    .sort((a, b) => b.selfMs - a.selfMs);
  const top = options.top ?? 25;
  const figures = (
    source: Map<string, { info: { group: string; label: string; location: string }; ms: number }>,
    kind: "self" | "total",
  ): FunctionFigure[] =>
    [...source.values()]
      .sort((a, b) => b.ms - a.ms)
      .slice(0, top)
      .map(({ info, ms }) => {
        const key = `${info.group}|${info.label}|${info.location}`;
        return {
          name: info.label,
          group: info.group,
          location: info.location,
          selfMs: kind === "self" ? ms : (selfByFunction.get(key)?.ms ?? 0),
          totalMs: kind === "total" ? ms : (totalByFunction.get(key)?.ms ?? ms),
        };
      });
  return {
    busyMs,
    idleMs,
    samples: counted,
    groups,
    topSelf: figures(selfByFunction, "self"),
    topTotal: figures(totalByFunction, "total"),
  };
}

/**
 * Several processes' summaries as one (the workers of `npm start` each write their own profile): times are
 * added by group and by function, shares taken again of the sum. Each summary's function lists must be longer
 * than `top` (summarise with a larger `top`), or a function just outside one process's list is undercounted.
 */
export function mergeProfileSummaries(summaries: readonly ProfileSummary[], top = 25): ProfileSummary {
  const busyMs = summaries.reduce((sum, summary) => sum + summary.busyMs, 0);
  const share = (ms: number): number => (busyMs > 0 ? ms / busyMs : 0);
  const groups = new Map<string, { selfMs: number; totalMs: number; ownedMs: number }>();
  for (const summary of summaries)
    for (const group of summary.groups) {
      const sum = groups.get(group.group) ?? { selfMs: 0, totalMs: 0, ownedMs: 0 };
      sum.selfMs += group.selfMs;
      sum.totalMs += group.totalMs;
      sum.ownedMs += group.ownedMs;
      groups.set(group.group, sum);
    }
  const functions = (kind: "topSelf" | "topTotal"): FunctionFigure[] => {
    const sums = new Map<string, FunctionFigure>();
    for (const summary of summaries)
      for (const figure of summary[kind]) {
        const key = `${figure.group}|${figure.name}|${figure.location}`;
        const sum = sums.get(key) ?? { ...figure, selfMs: 0, totalMs: 0 };
        sum.selfMs += figure.selfMs;
        sum.totalMs += figure.totalMs;
        sums.set(key, sum);
      }
    const by = kind === "topSelf" ? "selfMs" : "totalMs";
    return [...sums.values()].sort((a, b) => b[by] - a[by]).slice(0, top);
  };
  return {
    busyMs,
    idleMs: summaries.reduce((sum, summary) => sum + summary.idleMs, 0),
    samples: summaries.reduce((sum, summary) => sum + summary.samples, 0),
    groups: [...groups.entries()]
      .map(([group, sum]) => ({
        group,
        ...sum,
        selfShare: share(sum.selfMs),
        totalShare: share(sum.totalMs),
        ownedShare: share(sum.ownedMs),
      }))
      .sort((a, b) => b.selfMs - a.selfMs),
    topSelf: functions("topSelf"),
    topTotal: functions("topTotal"),
  };
}

/** A stretch of the event loop busy without a break: what every request arriving during it waited behind. */
export type BusyStretch = {
  /** Monotonic clock, µs (as the profile's samples). */
  fromUs: number;
  ms: number;
  /** Our code's (or else a package's) outermost frames in the stretch, by sampled time. */
  frames: { label: string; ms: number }[];
};

/**
 * The longest stretches of consecutive busy samples in [fromUs, toUs] (gaps shorter than `gapUs` of idle
 * joined): the event loop could run nothing else then, so they bound the tail latency of every request
 * that landed in them. Each names the outermost frames of our code in it (else of the first package).
 */
export function longestBusyStretches(
  profile: CpuProfile,
  options: { fromUs?: number; toUs?: number; count?: number; nextDir?: string; gapUs?: number } = {},
): BusyStretch[] {
  const resolver = new FrameResolver(options.nextDir);
  const { byId, parent } = treeOf(profile);
  const outermost = new Map<number, string>();
  const outermostOf = (id: number): string => {
    const known = outermost.get(id);
    if (known !== undefined) return known;
    const stack: ProfileNode[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const node = byId.get(at);
      if (node) stack.push(node);
    }
    let label = "";
    let firstPackage = "";
    for (const node of stack.reverse()) {
      const special = SPECIAL[node.callFrame.functionName];
      if (special === "(root)") continue;
      if (special) {
        label = special;
        break;
      }
      const resolved = node.callFrame.url ? resolver.resolve(node.callFrame) : null;
      if (!resolved) continue;
      const name = `${node.callFrame.functionName || "(anonymous)"} ${resolved.location}`;
      if (resolved.group === OUR_CODE) {
        label = name;
        break;
      }
      firstPackage ||= `${resolved.group}: ${name}`;
    }
    const result = label || firstPackage || "(unknown)";
    outermost.set(id, result);
    return result;
  };
  const gapUs = options.gapUs ?? 2_000;
  const stretches: BusyStretch[] = [];
  let current: { fromUs: number; toUs: number; frames: Map<string, number> } | null = null;
  let idleSinceUs: number | null = null;
  const close = (): void => {
    if (!current) return;
    stretches.push({
      fromUs: current.fromUs,
      ms: (current.toUs - current.fromUs) / 1000,
      frames: [...current.frames.entries()]
        .map(([label, ms]) => ({ label, ms }))
        .sort((a, b) => b.ms - a.ms)
        .slice(0, 5),
    });
    current = null;
  };
  for (const { id, atUs: timestamp, us } of samplesIn(profile, options)) {
    const isIdle = byId.get(id)?.callFrame.functionName === "(idle)";
    if (isIdle) {
      idleSinceUs ??= timestamp;
      if (current && timestamp + us - idleSinceUs >= gapUs) close();
      continue;
    }
    idleSinceUs = null;
    current ??= { fromUs: timestamp, toUs: timestamp, frames: new Map() };
    current.toUs = timestamp + us;
    const label = outermostOf(id);
    current.frames.set(label, (current.frames.get(label) ?? 0) + us / 1000);
  }
  close();
  return stretches.sort((a, b) => b.ms - a.ms).slice(0, options.count ?? 10);
}

function percent(value: number): string {
  return `${(value * 100).toFixed(1).padStart(5)} %`;
}

/** The summary as text: groups, then the top functions by self and by inclusive time. */
export function formatProfileSummary(
  summary: ProfileSummary,
  options: { requests?: number; title?: string } = {},
): string {
  const perRequest = (ms: number): string =>
    options.requests ? `${((ms / options.requests) * 1000).toFixed(0).padStart(5)} µs/req` : "";
  const lines: string[] = [];
  if (options.title) lines.push(options.title);
  lines.push(
    `busy ${summary.busyMs.toFixed(0)} ms of CPU in ${summary.samples} samples (idle ${summary.idleMs.toFixed(0)} ms)` +
      (options.requests
        ? `, ${options.requests} requests: ${(summary.busyMs / options.requests).toFixed(2)} ms/req sampled`
        : ""),
    "",
    `${"group".padEnd(42)} ${"self".padStart(8)} ${"".padStart(11)}  ${"inclusive".padStart(9)} ${"".padStart(11)}  ${"+ Node work it called".padStart(21)}`,
  );
  for (const group of summary.groups) {
    // For Node's own groups, what is left: work with no package above it (HTTP parsing, timers, GC-free).
    const owned = `${percent(group.ownedShare)} ${perRequest(group.ownedMs)}`;
    lines.push(
      `${group.group.slice(0, 42).padEnd(42)} ${percent(group.selfShare)} ${perRequest(group.selfMs)}  ${percent(group.totalShare)} ${perRequest(group.totalMs)}  ${owned}`,
    );
  }
  const listing = (title: string, figures: FunctionFigure[], kind: "selfMs" | "totalMs"): void => {
    lines.push("", title);
    for (const figure of figures) {
      lines.push(
        `${percent(summary.busyMs > 0 ? figure[kind] / summary.busyMs : 0)}  ${figure.group.slice(0, 24).padEnd(24)} ${figure.name.slice(0, 40).padEnd(40)} ${figure.location}`,
      );
    }
  };
  listing("top functions by self time", summary.topSelf, "selfMs");
  listing("top functions by inclusive time", summary.topTotal, "totalMs");
  return lines.join("\n");
}

function main(argv: readonly string[]): void {
  const file = argv.find((arg) => !arg.startsWith("--"));
  const flag = (name: string): string | undefined => {
    const index = argv.indexOf(`--${name}`);
    return index === -1 ? undefined : argv[index + 1];
  };
  if (!file) {
    console.error(
      "usage: npx tsx bench/lib/reporting/profile-summary.ts <file.cpuprofile> [--from US --to US] [--top N] [--requests N] [--next-dir DIR]",
    );
    process.exit(2);
  }
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const number = (name: string): number | undefined => (flag(name) === undefined ? undefined : Number(flag(name)));
  const summary = summarizeProfile(profile, {
    fromUs: number("from"),
    toUs: number("to"),
    top: number("top"),
    nextDir: flag("next-dir"),
  });
  console.log(formatProfileSummary(summary, { requests: number("requests"), title: file }));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main(process.argv.slice(2));
