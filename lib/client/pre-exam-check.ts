import { formatDuration } from "@/lib/shared/format";
import { clockOffsetMs as offsetFromRoundTrip } from "./sync/clock";

// The checks a candidate runs before the exam (app/exam/[examId]/check). Two halves:
//
// - measure… functions (pre-exam-measure.ts) probe the browser. Each takes the facility it probes as an argument (so tests and
//   browsers without it can pass their own or nothing) and never throws: a failure is a measurement too.
// - assess… functions turn measurements into what the page says, and `verdictOf` into the summary at the
//   top. They are pure, and say it as message keys (`candidate.check` in messages/) with values that
//   `describeCheck` formats in the reader's locale, so every wording and threshold is unit-tested in both
//   languages (pre-exam-check.test.ts).

/** ok: nothing to do · info: worth knowing, nothing to do · warn: worth fixing · fail: fix before starting. */
export type CheckStatus = "running" | "ok" | "info" | "warn" | "fail";

export type CheckId =
  "connection" | "clock" | "indexeddb" | "storage-space" | "persistence" | "private-mode" | "service-worker";

/**
 * A value in a check's sentence, formatted in the reader's locale when the sentence is shown: a number of
 * bytes, a duration in seconds, a round trip in milliseconds, or a list of other sentences (the signs of a
 * private window).
 */
export type CheckValue =
  string | number | { bytes: number } | { seconds: number } | { ms: number } | { list: CheckMessage[] };

/** One sentence of the page, as a key of the `candidate.check` messages and its values. */
export type CheckMessage = { key: string; values?: Record<string, CheckValue> };

export type CheckResult = {
  id: CheckId;
  status: CheckStatus;
  /** One short line: the result. */
  summary: CheckMessage;
  /** What it means, or what to do; absent while running. */
  detail?: CheckMessage;
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
  return offsetFromRoundTrip(sample.serverTime, sample.sentAt, sample.receivedAt);
}

/** The sample with the shortest round trip: the tightest bound on the offset. */
export function fastestSample(samples: readonly [HealthSample, ...HealthSample[]]): HealthSample {
  return samples.reduce((best, sample) => (sample.roundTripMs < best.roundTripMs ? sample : best));
}

/** 1_234_567_890 → "1.2 GB"; 350_000_000 → "350 MB"; 4_200 → "4.2 kB". Decimal units, as browsers count. */
export function formatBytes(bytes: number, locale: string): string {
  const units = [
    { size: 1e9, unit: "gigabyte" },
    { size: 1e6, unit: "megabyte" },
    { size: 1e3, unit: "kilobyte" },
  ];
  for (const { size, unit } of units) {
    if (bytes >= size) {
      const value = bytes / size;
      return new Intl.NumberFormat(locale, { style: "unit", unit, maximumFractionDigits: value < 10 ? 1 : 0 }).format(
        value,
      );
    }
  }
  return new Intl.NumberFormat(locale, { style: "unit", unit: "byte", unitDisplay: "long" }).format(
    Math.max(0, Math.round(bytes)),
  );
}

/** 42 → "42 ms"; 2_400 → "2.4 sec". */
export function formatMs(ms: number, locale: string): string {
  return ms < 1000
    ? new Intl.NumberFormat(locale, { style: "unit", unit: "millisecond" }).format(Math.max(1, Math.round(ms)))
    : new Intl.NumberFormat(locale, { style: "unit", unit: "second", maximumFractionDigits: 1 }).format(ms / 1000);
}

/** What `describeCheck` needs to put a sentence in words: the `candidate.check` messages and their separator. */
export type CheckWords = import("@/lib/shared/i18n/translate").Translate;

/** A check's sentence in the reader's language, its values formatted for the locale. */
export function describeCheck(message: CheckMessage, t: CheckWords, locale: string): string {
  const values: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(message.values ?? {})) {
    if (typeof value === "string" || typeof value === "number") values[name] = value;
    else if ("bytes" in value) values[name] = formatBytes(value.bytes, locale);
    else if ("seconds" in value) values[name] = formatDuration(value.seconds, locale);
    else if ("ms" in value) values[name] = formatMs(value.ms, locale);
    else values[name] = value.list.map((item) => describeCheck(item, t, locale)).join(t("listSeparator"));
  }
  return t(message.key, values);
}

function running(id: CheckId): CheckResult {
  return { id, status: "running", summary: { key: "running" } };
}

const say = (key: string, values?: Record<string, CheckValue>): CheckMessage => (values ? { key, values } : { key });

export function assessConnection(measurement: ConnectionMeasurement | undefined): CheckResult {
  const id = "connection";
  if (!measurement) return running(id);
  switch (measurement.kind) {
    case "offline":
      return { id, status: "fail", summary: say("connection.offline"), detail: say("connection.offlineDetail") };
    case "unreachable":
      return {
        id,
        status: "fail",
        summary: say("connection.unreachable"),
        detail: say("connection.unreachableDetail"),
      };
    case "timeout":
      return {
        id,
        status: "fail",
        summary: say("connection.timeout", { seconds: HEALTH_TIMEOUT_MS / 1000 }),
        detail: say("connection.timeoutDetail"),
      };
    case "server-error":
      return {
        id,
        status: "fail",
        summary: say("connection.serverError", { status: measurement.status }),
        detail: say("connection.serverErrorDetail"),
      };
    case "online": {
      const roundTrip = fastestSample(measurement.samples).roundTripMs;
      if (roundTrip > SLOW_ROUND_TRIP_MS) {
        return {
          id,
          status: "warn",
          summary: say("connection.slow", { time: { ms: roundTrip } }),
          detail: say("connection.slowDetail"),
        };
      }
      return { id, status: "ok", summary: say("connection.online", { time: { ms: roundTrip } }) };
    }
  }
}

export function assessClock(connection: ConnectionMeasurement | undefined): CheckResult {
  const id = "clock";
  if (!connection) return running(id);
  if (connection.kind !== "online") {
    return { id, status: "info", summary: say("clock.notCompared"), detail: say("clock.notComparedDetail") };
  }
  const offset = clockOffsetMs(fastestSample(connection.samples));
  const differs = say(offset > 0 ? "clock.behind" : "clock.ahead", {
    offset: { seconds: Math.max(1, Math.round(Math.abs(offset) / 1000)) },
  });
  if (Math.abs(offset) > CLOCK_WARN_MS) {
    return { id, status: "warn", summary: differs, detail: say("clock.offDetail") };
  }
  return {
    id,
    status: "ok",
    summary: Math.abs(offset) < 1000 ? say("clock.matches") : differs,
    detail: say("clock.okDetail"),
  };
}

export function assessIndexedDb(measurement: IndexedDbMeasurement | undefined): CheckResult {
  const id = "indexeddb";
  if (!measurement) return running(id);
  if (measurement.kind === "writable") return { id, status: "ok", summary: say("indexeddb.works") };
  return {
    id,
    status: "fail",
    summary:
      measurement.kind === "unavailable"
        ? say("indexeddb.unavailable")
        : say("indexeddb.failed", { reason: measurement.reason }),
    detail: say("indexeddb.detail"),
  };
}

export function assessStorageSpace(measurement: EstimateMeasurement | undefined): CheckResult {
  const id = "storage-space";
  if (!measurement) return running(id);
  if (measurement.kind === "unsupported") {
    return { id, status: "info", summary: say("space.unknown"), detail: say("space.unknownDetail") };
  }
  const free = Math.max(0, measurement.quota - measurement.usage);
  if (free < MIN_FREE_BYTES) {
    return { id, status: "fail", summary: say("space.low", { free: { bytes: free } }), detail: say("space.lowDetail") };
  }
  return {
    id,
    status: "ok",
    summary: say("space.ok", { free: { bytes: free }, used: { bytes: measurement.usage } }),
  };
}

export function assessPersistence(measurement: PersistenceMeasurement | undefined): CheckResult {
  const id = "persistence";
  if (!measurement) return running(id);
  if (measurement.kind === "unsupported") {
    return {
      id,
      status: "info",
      summary: say("persistence.unsupported"),
      detail: say("persistence.unsupportedDetail"),
    };
  }
  if (measurement.isPersisted) return { id, status: "ok", summary: say("persistence.granted") };
  return { id, status: "info", summary: say("persistence.refused"), detail: say("persistence.refusedDetail") };
}

/**
 * Private windows keep storage in memory and forget it when closed. No browser says so directly; the
 * signs are storage that fails to open and an unusually small quota. A refused persistence request is
 * common in normal windows too, so it only supports the other signs.
 */
export function assessPrivateMode(measurements: Measurements): CheckResult {
  const id = "private-mode";
  const { persistence, estimate, indexedDb } = measurements;
  if (!persistence || !estimate || !indexedDb) return running(id);
  const signs: CheckMessage[] = [];
  if (indexedDb.kind !== "writable") signs.push(say("privateMode.signStorage"));
  if (estimate.kind === "measured" && estimate.quota < SMALL_QUOTA_BYTES) {
    signs.push(say("privateMode.signQuota", { quota: { bytes: estimate.quota } }));
  }
  if (signs.length === 0) return { id, status: "ok", summary: say("privateMode.none") };
  if (persistence.kind === "measured" && !persistence.isPersisted) signs.push(say("privateMode.signRefused"));
  return {
    id,
    status: "warn",
    summary: say("privateMode.maybe"),
    detail: say("privateMode.detail", { signs: { list: signs } }),
  };
}

export function assessServiceWorker(measurement: ServiceWorkerMeasurement | undefined): CheckResult {
  const id = "service-worker";
  if (!measurement) return running(id);
  switch (measurement.kind) {
    case "active":
      return {
        id,
        status: "ok",
        summary: say("serviceWorker.ready"),
        ...(measurement.isControlling ? {} : { detail: say("serviceWorker.nextPage") }),
      };
    case "installing":
      return {
        id,
        status: "info",
        summary: say("serviceWorker.installing"),
        detail: say("serviceWorker.installingDetail"),
      };
    case "none":
    case "unsupported":
      return {
        id,
        status: "warn",
        summary: say(measurement.kind === "none" ? "serviceWorker.none" : "serviceWorker.unsupported"),
        detail: say("serviceWorker.missingDetail"),
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
