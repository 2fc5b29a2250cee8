import { z } from "zod";

import { formatDuration } from "@/lib/shared/format";

// The checks a candidate runs before the exam (app/exam/[examId]/check). Two halves:
//
// - measure… functions probe the browser. Each takes the facility it probes as an argument (so tests and
//   browsers without it can pass their own or nothing) and never throws: a failure is a measurement too.
// - assess… functions turn measurements into what the page says, and `verdictOf` into the summary at the
//   top. They are pure, so every wording and threshold is unit-tested (pre-exam-check.test.ts).

/** ok: nothing to do · info: worth knowing, nothing to do · warn: worth fixing · fail: fix before starting. */
export type CheckStatus = "running" | "ok" | "info" | "warn" | "fail";

export type CheckId =
  "connection" | "clock" | "indexeddb" | "storage-space" | "persistence" | "private-mode" | "service-worker";

export type CheckResult = {
  id: CheckId;
  title: string;
  status: CheckStatus;
  /** One short line: the result. */
  summary: string;
  /** What it means, or what to do; absent while running. */
  detail?: string;
};

/** A clock difference the page warns about; the server's clock decides the deadline whatever it is. */
export const CLOCK_WARN_MS = 60_000;
/** A round trip slower than this is worth a word (the exam still works). */
export const SLOW_ROUND_TRIP_MS = 1_500;
/** How long one health request may take before the connection counts as not answering. */
export const HEALTH_TIMEOUT_MS = 10_000;
/** Round trips measured; the fastest gives the most precise clock offset. */
export const HEALTH_SAMPLES = 3;
/**
 * A quota below this is a sign of private browsing: Chromium's incognito and Safari's private windows
 * report about 100 MB or less, a normal profile gigabytes. Decimal bytes, as browsers report them.
 */
export const SMALL_QUOTA_BYTES = 120_000_000;
/** Less free space than this for the site, and a long essay might not fit: fix before starting. */
export const MIN_FREE_BYTES = 5_000_000;

// ---- Measurements ----------------------------------------------------------------------------

/** One `GET /api/health` round trip. Wall-clock times in epoch ms; the round trip from a monotonic clock. */
export type HealthSample = { sentAt: number; receivedAt: number; serverTime: number; roundTripMs: number };

export type ConnectionMeasurement =
  | { kind: "online"; samples: [HealthSample, ...HealthSample[]] }
  /** `navigator.onLine` is false: certain. */
  | { kind: "offline" }
  /** The request failed without an answer: offline, a captive portal, DNS… */
  | { kind: "unreachable" }
  | { kind: "timeout" }
  | { kind: "server-error"; status: number };

export type PersistenceMeasurement = { kind: "unsupported" } | { kind: "measured"; isPersisted: boolean };

export type EstimateMeasurement = { kind: "unsupported" } | { kind: "measured"; quota: number; usage: number };

export type IndexedDbMeasurement = { kind: "writable" } | { kind: "unavailable" } | { kind: "failed"; reason: string };

export type ServiceWorkerMeasurement =
  { kind: "unsupported" } | { kind: "none" } | { kind: "installing" } | { kind: "active"; isControlling: boolean };

export type Measurements = {
  connection?: ConnectionMeasurement;
  persistence?: PersistenceMeasurement;
  estimate?: EstimateMeasurement;
  indexedDb?: IndexedDbMeasurement;
  serviceWorker?: ServiceWorkerMeasurement;
};

// ---- Pure logic ------------------------------------------------------------------------------

/**
 * Server clock minus device clock, in ms (positive: the device is behind). The server read its clock
 * somewhere inside the round trip; the midpoint is the best guess, off by at most half the round trip.
 */
export function clockOffsetMs(sample: HealthSample): number {
  return sample.serverTime - (sample.sentAt + sample.receivedAt) / 2;
}

/** The sample with the shortest round trip: the tightest bound on the offset. */
export function fastestSample(samples: readonly [HealthSample, ...HealthSample[]]): HealthSample {
  return samples.reduce((best, sample) => (sample.roundTripMs < best.roundTripMs ? sample : best));
}

/** 0.4 → "less than a second"; 12_400 → "12 seconds"; 192_000 → "3 minutes 12 seconds". */
export function formatOffset(offsetMs: number): string {
  const seconds = Math.round(Math.abs(offsetMs) / 1000);
  return seconds < 1 ? "less than a second" : formatDuration(seconds, "en");
}

/** 1_234_567_890 → "1.2 GB"; 350_000_000 → "350 MB"; 4_200 → "4 kB". Decimal units, as browsers count. */
export function formatBytes(bytes: number): string {
  const units = [
    { size: 1e9, name: "GB" },
    { size: 1e6, name: "MB" },
    { size: 1e3, name: "kB" },
  ];
  for (const unit of units) {
    if (bytes >= unit.size) {
      const value = bytes / unit.size;
      return `${value < 10 ? value.toFixed(1).replace(/\.0$/, "") : Math.round(value)} ${unit.name}`;
    }
  }
  return `${Math.max(0, Math.round(bytes))} bytes`;
}

function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.max(1, Math.round(ms))} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function running(id: CheckId, title: string): CheckResult {
  return { id, title, status: "running", summary: "Checking…" };
}

export function assessConnection(measurement: ConnectionMeasurement | undefined): CheckResult {
  const title = "Connection";
  if (!measurement) return running("connection", title);
  switch (measurement.kind) {
    case "offline":
      return {
        id: "connection",
        title,
        status: "fail",
        summary: "This device is offline.",
        detail:
          "Connect to the internet before you start. Once the exam is open, it keeps working through short drops and keeps every answer on this device until it can be sent.",
      };
    case "unreachable":
      return {
        id: "connection",
        title,
        status: "fail",
        summary: "Holdfast could not be reached. This device seems to be offline.",
        detail:
          "Check your connection (a hotel or café network may first want you to sign in on its own page), then check again.",
      };
    case "timeout":
      return {
        id: "connection",
        title,
        status: "fail",
        summary: `Holdfast did not answer within ${HEALTH_TIMEOUT_MS / 1000} seconds.`,
        detail: "Check your connection (or try another network), then check again.",
      };
    case "server-error":
      return {
        id: "connection",
        title,
        status: "fail",
        summary: `Holdfast is reachable but not ready (it answered ${measurement.status}).`,
        detail: "This is on our side, not yours. Wait a minute, then check again.",
      };
    case "online": {
      const roundTrip = fastestSample(measurement.samples).roundTripMs;
      if (roundTrip > SLOW_ROUND_TRIP_MS) {
        return {
          id: "connection",
          title,
          status: "warn",
          summary: `Online, but slow: Holdfast took ${formatMs(roundTrip)} to answer.`,
          detail:
            "The exam works on a slow connection: answers wait on this device until they are sent. A steadier network makes saving quicker.",
        };
      }
      return {
        id: "connection",
        title,
        status: "ok",
        summary: `Online. Holdfast answered in ${formatMs(roundTrip)}.`,
      };
    }
  }
}

export function assessClock(connection: ConnectionMeasurement | undefined): CheckResult {
  const title = "Clock";
  if (!connection) return running("clock", title);
  if (connection.kind !== "online") {
    return {
      id: "clock",
      title,
      status: "info",
      summary: "Not compared: Holdfast could not be reached.",
      detail: "The server's clock decides your deadline, so this never changes your time.",
    };
  }
  const offset = clockOffsetMs(fastestSample(connection.samples));
  const direction = offset > 0 ? "behind" : "ahead of";
  if (Math.abs(offset) > CLOCK_WARN_MS) {
    return {
      id: "clock",
      title,
      status: "warn",
      summary: `This device's clock is ${formatOffset(offset)} ${direction} the server's.`,
      detail:
        "Your time is not affected: the server's clock decides the deadline, and the countdown allows for the difference. Setting the device's clock automatically is still a good idea.",
    };
  }
  return {
    id: "clock",
    title,
    status: "ok",
    summary:
      Math.abs(offset) < 1000
        ? "This device's clock matches the server's."
        : `This device's clock is ${formatOffset(offset)} ${direction} the server's.`,
    detail: "The server's clock decides the deadline either way.",
  };
}

export function assessIndexedDb(measurement: IndexedDbMeasurement | undefined): CheckResult {
  const title = "Saving answers on this device";
  if (!measurement) return running("indexeddb", title);
  if (measurement.kind === "writable") {
    return {
      id: "indexeddb",
      title,
      status: "ok",
      summary: "Works: answers are kept on this device as you type.",
    };
  }
  return {
    id: "indexeddb",
    title,
    status: "fail",
    summary:
      measurement.kind === "unavailable"
        ? "This browser has no storage for websites (IndexedDB)."
        : `This browser would not save data for Holdfast (${measurement.reason}).`,
    detail:
      "Leave private browsing, or open your join link in another up-to-date browser (Chrome, Edge, Firefox or Safari).",
  };
}

export function assessStorageSpace(measurement: EstimateMeasurement | undefined): CheckResult {
  const title = "Storage space";
  if (!measurement) return running("storage-space", title);
  if (measurement.kind === "unsupported") {
    return {
      id: "storage-space",
      title,
      status: "info",
      summary: "This browser does not say how much space it allows.",
      detail: "An exam needs very little; this is rarely a problem.",
    };
  }
  const free = Math.max(0, measurement.quota - measurement.usage);
  if (free < MIN_FREE_BYTES) {
    return {
      id: "storage-space",
      title,
      status: "fail",
      summary: `Only ${formatBytes(free)} free for Holdfast.`,
      detail: "Free some space on this device (or leave private browsing), then check again.",
    };
  }
  return {
    id: "storage-space",
    title,
    status: "ok",
    summary: `${formatBytes(free)} free for Holdfast (${formatBytes(measurement.usage)} used).`,
  };
}

export function assessPersistence(measurement: PersistenceMeasurement | undefined): CheckResult {
  const title = "Keeping storage";
  if (!measurement) return running("persistence", title);
  if (measurement.kind === "unsupported") {
    return {
      id: "persistence",
      title,
      status: "info",
      summary: "This browser cannot promise to keep Holdfast's storage.",
      detail: "Answers are still saved on this device and sent to the server as you go.",
    };
  }
  if (measurement.isPersisted) {
    return {
      id: "persistence",
      title,
      status: "ok",
      summary: "Granted: the browser will not clear Holdfast's storage to make room.",
    };
  }
  return {
    id: "persistence",
    title,
    status: "info",
    summary: "Not granted. Browsers decide this themselves, and often say no.",
    detail:
      "It only matters if the device runs out of space. Answers are also sent to the server as you go; just don't clear your browsing data during the exam.",
  };
}

/**
 * Private windows keep storage in memory and forget it when closed. No browser says so directly; the
 * signs are storage that fails to open and an unusually small quota. A refused persistence request is
 * common in normal windows too, so it only supports the other signs.
 */
export function assessPrivateMode(measurements: Measurements): CheckResult {
  const title = "Private browsing";
  const { persistence, estimate, indexedDb } = measurements;
  if (!persistence || !estimate || !indexedDb) return running("private-mode", title);
  const signs: string[] = [];
  if (indexedDb.kind !== "writable") signs.push("storage would not open");
  if (estimate.kind === "measured" && estimate.quota < SMALL_QUOTA_BYTES) {
    signs.push(`the storage allowed is unusually small (${formatBytes(estimate.quota)})`);
  }
  if (signs.length === 0) {
    return { id: "private-mode", title, status: "ok", summary: "No sign of private browsing." };
  }
  if (persistence.kind === "measured" && !persistence.isPersisted) signs.push("keeping storage was refused");
  return {
    id: "private-mode",
    title,
    status: "warn",
    summary: "This may be a private browsing window.",
    detail: `Signs: ${signs.join("; ")}. A private window can forget answers kept on this device when it closes. If you can, open your join link in a normal window.`,
  };
}

export function assessServiceWorker(measurement: ServiceWorkerMeasurement | undefined): CheckResult {
  const title = "Reloading without a connection";
  if (!measurement) return running("service-worker", title);
  switch (measurement.kind) {
    case "active":
      return {
        id: "service-worker",
        title,
        status: "ok",
        summary: "Ready: once opened, the exam page opens again even without a connection.",
        ...(measurement.isControlling ? {} : { detail: "It takes over from the next page you open." }),
      };
    case "installing":
      return {
        id: "service-worker",
        title,
        status: "info",
        summary: "Still being set up.",
        detail: "Check again in a moment. The exam works either way.",
      };
    case "none":
    case "unsupported":
      return {
        id: "service-worker",
        title,
        status: "warn",
        summary:
          measurement.kind === "none"
            ? "Not set up in this browser."
            : "This browser cannot open the exam page without a connection.",
        detail:
          "The exam works, and your answers are kept on this device; just don't reload the exam page while you are offline.",
      };
  }
}

/** Every check, in the order the page lists them; those still measuring say so. */
export function assessAll(measurements: Measurements): CheckResult[] {
  return [
    assessConnection(measurements.connection),
    assessClock(measurements.connection),
    assessIndexedDb(measurements.indexedDb),
    assessStorageSpace(measurements.estimate),
    assessPersistence(measurements.persistence),
    assessPrivateMode(measurements),
    assessServiceWorker(measurements.serviceWorker),
  ];
}

export type Verdict =
  | { kind: "checking" }
  | { kind: "ready" }
  | { kind: "ready-with-notes"; notes: CheckResult[] }
  | { kind: "not-ready"; fixes: CheckResult[] };

/** The summary at the top: anything failed must be fixed; warnings are worth reading; the rest is ready. */
export function verdictOf(results: readonly CheckResult[]): Verdict {
  const fixes = results.filter((result) => result.status === "fail");
  if (fixes.length > 0) return { kind: "not-ready", fixes };
  if (results.some((result) => result.status === "running")) return { kind: "checking" };
  const notes = results.filter((result) => result.status === "warn");
  return notes.length > 0 ? { kind: "ready-with-notes", notes } : { kind: "ready" };
}

// ---- Probes ----------------------------------------------------------------------------------

const HealthBodySchema = z.object({ serverTime: z.iso.datetime({ offset: true }) });

export type ConnectionProbe = {
  fetch: typeof fetch;
  /** `navigator.onLine`: false is certain, true only means "maybe". */
  isOnline: () => boolean;
  /** Wall clock (Date.now), for the offset. */
  now: () => number;
  /** Monotonic clock (performance.now), for the round trip. */
  monotonicNow: () => number;
  timeoutMs?: number;
  samples?: number;
};

/** A few `GET /api/health` round trips, one after another. Never throws. */
export async function measureConnection(probe: ConnectionProbe): Promise<ConnectionMeasurement> {
  if (!probe.isOnline()) return { kind: "offline" };
  const samples: HealthSample[] = [];
  const count = probe.samples ?? HEALTH_SAMPLES;
  for (let index = 0; index < count; index += 1) {
    const sentAt = probe.now();
    const started = probe.monotonicNow();
    let response: Response;
    let body: unknown;
    try {
      response = await probe.fetch("/api/health", {
        cache: "no-store",
        headers: { Accept: "application/json" },
        signal: AbortSignal.timeout(probe.timeoutMs ?? HEALTH_TIMEOUT_MS),
      });
      body = await response.json().catch(() => null);
    } catch (error) {
      if (error instanceof DOMException && error.name === "TimeoutError") return { kind: "timeout" };
      return { kind: "unreachable" };
    }
    const roundTripMs = probe.monotonicNow() - started;
    const receivedAt = probe.now();
    const parsed = HealthBodySchema.safeParse(body);
    // Anything but a 200 with the server's time: Holdfast is not ready (or something else answered).
    if (!response.ok || !parsed.success) return { kind: "server-error", status: response.status };
    samples.push({ sentAt, receivedAt, serverTime: Date.parse(parsed.data.serverTime), roundTripMs });
  }
  const [first, ...rest] = samples;
  return first ? { kind: "online", samples: [first, ...rest] } : { kind: "unreachable" };
}

/** Asks the browser to keep Holdfast's storage (`persist()`), then reads the answer back (`persisted()`). */
export async function measurePersistence(storage: StorageManager | undefined): Promise<PersistenceMeasurement> {
  if (!storage || typeof storage.persist !== "function" || typeof storage.persisted !== "function") {
    return { kind: "unsupported" };
  }
  try {
    await storage.persist();
    return { kind: "measured", isPersisted: await storage.persisted() };
  } catch {
    return { kind: "unsupported" };
  }
}

export async function measureEstimate(storage: StorageManager | undefined): Promise<EstimateMeasurement> {
  if (!storage || typeof storage.estimate !== "function") return { kind: "unsupported" };
  try {
    const { quota, usage } = await storage.estimate();
    return quota === undefined ? { kind: "unsupported" } : { kind: "measured", quota, usage: usage ?? 0 };
  } catch {
    return { kind: "unsupported" };
  }
}

function settle<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error("IndexedDB request failed"));
  });
}

function reasonOf(error: unknown): string {
  if (error instanceof Error || error instanceof DOMException) return error.name || error.message;
  return String(error);
}

/**
 * Opens a scratch database, writes a record, reads it back, and deletes the database again. A private
 * window in some browsers fails the open (or never answers it), hence the time limit.
 */
export async function measureIndexedDb(
  factory: IDBFactory | undefined,
  options: { name?: string; timeoutMs?: number } = {},
): Promise<IndexedDbMeasurement> {
  if (!factory) return { kind: "unavailable" };
  const name = options.name ?? `holdfast-check-${Math.random().toString(36).slice(2)}`;
  const probe = async (): Promise<IndexedDbMeasurement> => {
    const open = factory.open(name, 1);
    open.onupgradeneeded = () => open.result.createObjectStore("probe");
    const db = await settle(open);
    try {
      const written = `written at ${Date.now()}`;
      const write = db.transaction("probe", "readwrite");
      write.objectStore("probe").put(written, "probe");
      await new Promise<void>((resolve, reject) => {
        write.oncomplete = () => resolve();
        write.onerror = () => reject(write.error ?? new Error("write failed"));
        write.onabort = () => reject(write.error ?? new Error("write aborted"));
      });
      const read = await settle(db.transaction("probe", "readonly").objectStore("probe").get("probe"));
      return read === written ? { kind: "writable" } : { kind: "failed", reason: "read back something else" };
    } finally {
      db.close();
      // Not awaited: a delete blocked by another tab still completes when that tab lets go.
      factory.deleteDatabase(name);
    }
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<IndexedDbMeasurement>((resolve) => {
    timer = setTimeout(() => resolve({ kind: "failed", reason: "no answer" }), options.timeoutMs ?? 5_000);
  });
  try {
    return await Promise.race([
      probe().catch((error: unknown) => ({ kind: "failed" as const, reason: reasonOf(error) })),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Whether public/sw.js is active, waiting briefly for one that is still installing. */
export async function measureServiceWorker(
  container: ServiceWorkerContainer | undefined,
  options: { waitMs?: number } = {},
): Promise<ServiceWorkerMeasurement> {
  if (!container) return { kind: "unsupported" };
  try {
    const registration = await container.getRegistration();
    if (!registration) return { kind: "none" };
    if (!registration.active) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        container.ready,
        new Promise((resolve) => (timer = setTimeout(resolve, options.waitMs ?? 4_000))),
      ]);
      clearTimeout(timer);
    }
    if (!registration.active) return { kind: "installing" };
    return { kind: "active", isControlling: container.controller !== null };
  } catch {
    return { kind: "none" };
  }
}
