import { z } from "@/lib/shared/zod";

import {
  HEALTH_SAMPLES,
  HEALTH_TIMEOUT_MS,
  type ConnectionMeasurement,
  type EstimateMeasurement,
  type HealthSample,
  type IndexedDbMeasurement,
  type PersistenceMeasurement,
  type ServiceWorkerMeasurement,
} from "./pre-exam-check";

// The measure… half of the pre-exam check (see pre-exam-check.ts): each probes one facility of the
// browser, takes it as an argument (so tests and browsers without it can pass their own or nothing) and
// never throws: a failure is a measurement too.

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
