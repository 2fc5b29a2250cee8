import { describe, expect, it, vi } from "vitest";

import { translatorFor } from "@/test-support/shared/translator";

import {
  assessAll,
  assessClock,
  assessConnection,
  assessPersistence,
  assessPrivateMode,
  assessServiceWorker,
  assessStorageSpace,
  clockOffsetMs,
  describeCheck,
  fastestSample,
  formatBytes,
  formatMs,
  verdictOf,
  type CheckMessage,
  type CheckResult,
  type ConnectionMeasurement,
  type HealthSample,
  type Measurements,
} from "./pre-exam-check";
import {
  measureConnection,
  measureEstimate,
  measureIndexedDb,
  measurePersistence,
  measureServiceWorker,
} from "./pre-exam-measure";

const T0 = Date.parse("2026-12-01T08:00:00Z");

const english = translatorFor("en");
const chinese = translatorFor("zh-CN");

/** A sentence as the English page shows it. */
function en(message: CheckMessage | undefined): string | undefined {
  return message && describeCheck(message, (key, values) => english(`candidate.check.${key}`, values), "en");
}

function zh(message: CheckMessage | undefined): string | undefined {
  return message && describeCheck(message, (key, values) => chinese(`candidate.check.${key}`, values), "zh-CN");
}

/** A result with its sentences in English, to compare with what the page says. */
function inEnglish(result: CheckResult) {
  return { id: result.id, status: result.status, summary: en(result.summary), detail: en(result.detail) };
}

/** A round trip that left at T0, took `roundTripMs`, and found the server `offsetMs` ahead of the device. */
function sample(offsetMs: number, roundTripMs = 100): HealthSample {
  return { sentAt: T0, receivedAt: T0 + roundTripMs, serverTime: T0 + roundTripMs / 2 + offsetMs, roundTripMs };
}

function online(...samples: [HealthSample, ...HealthSample[]]): ConnectionMeasurement {
  return { kind: "online", samples };
}

const allGood: Measurements = {
  connection: online(sample(200, 40)),
  persistence: { kind: "measured", isPersisted: true },
  estimate: { kind: "measured", quota: 50e9, usage: 2e6 },
  indexedDb: { kind: "writable" },
  serviceWorker: { kind: "active", isControlling: true },
};

describe("the clock offset", () => {
  it("is the server's time minus the midpoint of the round trip", () => {
    expect(clockOffsetMs({ sentAt: 1_000, receivedAt: 1_200, serverTime: 5_100, roundTripMs: 200 })).toBe(4_000);
    expect(clockOffsetMs(sample(-90_000, 300))).toBe(-90_000);
  });

  it("comes from the fastest round trip, the tightest bound", () => {
    const slow = sample(5_000, 900);
    const fast = sample(4_000, 30);
    expect(fastestSample([slow, fast, sample(3_000, 400)])).toBe(fast);
  });

  it("is fine within a minute either way, and says which way", () => {
    expect(inEnglish(assessClock(online(sample(300))))).toMatchObject({
      status: "ok",
      summary: "This device's clock matches the server's.",
    });
    expect(inEnglish(assessClock(online(sample(12_400))))).toMatchObject({
      status: "ok",
      summary: "This device's clock is 12 seconds behind the server's.",
    });
    expect(inEnglish(assessClock(online(sample(-60_000))))).toMatchObject({ status: "ok" });
  });

  it("beyond a minute is a warning that still says the server's clock decides", () => {
    const result = inEnglish(assessClock(online(sample(-192_000))));
    expect(result.status).toBe("warn");
    expect(result.summary).toBe("This device's clock is 3 minutes 12 seconds ahead of the server's.");
    expect(result.detail).toMatch(/server's clock decides the deadline/);
    expect(assessClock(online(sample(61_000))).status).toBe("warn");
  });

  it("is not compared without a connection, and that is no problem", () => {
    expect(inEnglish(assessClock({ kind: "offline" }))).toMatchObject({
      status: "info",
      summary: expect.stringMatching(/Not compared/),
    });
    expect(assessClock(undefined).status).toBe("running");
  });
});

describe("the connection", () => {
  it("offline is something to fix, said plainly", () => {
    expect(inEnglish(assessConnection({ kind: "offline" }))).toMatchObject({
      status: "fail",
      summary: "This device is offline.",
    });
    expect(assessConnection({ kind: "unreachable" }).status).toBe("fail");
    expect(assessConnection({ kind: "timeout" }).status).toBe("fail");
    expect(inEnglish(assessConnection({ kind: "server-error", status: 503 }))).toMatchObject({
      status: "fail",
      summary: expect.stringContaining("503"),
    });
  });

  it("reports the fastest round trip, and a slow one as a warning", () => {
    expect(inEnglish(assessConnection(online(sample(0, 900), sample(0, 42))))).toMatchObject({
      status: "ok",
      summary: "Online. Holdfast answered in 42 ms.",
    });
    expect(inEnglish(assessConnection(online(sample(0, 2_400))))).toMatchObject({
      status: "warn",
      summary: "Online, but slow: Holdfast took 2.4 sec to answer.",
    });
  });
});

describe("storage", () => {
  it("space is a problem only when almost none is free", () => {
    expect(inEnglish(assessStorageSpace({ kind: "measured", quota: 1.2e9, usage: 3e6 }))).toMatchObject({
      status: "ok",
      summary: "1.2 GB free for Holdfast (3 MB used).",
    });
    expect(inEnglish(assessStorageSpace({ kind: "measured", quota: 10e6, usage: 6e6 }))).toMatchObject({
      status: "fail",
      summary: "Only 4 MB free for Holdfast.",
    });
    expect(assessStorageSpace({ kind: "unsupported" }).status).toBe("info");
  });

  it("persistence refused is worth knowing, not a problem", () => {
    expect(assessPersistence({ kind: "measured", isPersisted: true }).status).toBe("ok");
    expect(assessPersistence({ kind: "measured", isPersisted: false }).status).toBe("info");
    expect(assessPersistence({ kind: "unsupported" }).status).toBe("info");
  });

  it("formats sizes the way browsers count them", () => {
    expect(formatBytes(1_234_567_890, "en")).toBe("1.2 GB");
    expect(formatBytes(350_000_000, "en")).toBe("350 MB");
    expect(formatBytes(2_000_000, "en")).toBe("2 MB");
    expect(formatBytes(4_200, "en")).toBe("4.2 kB");
    expect(formatBytes(12, "en")).toBe("12 bytes");
    expect(formatBytes(12, "zh-CN")).toBe("12字节");
    expect(formatMs(42, "en")).toBe("42 ms");
    expect(formatMs(2_400, "zh-CN")).toBe("2.4秒");
  });
});

describe("the private browsing hint", () => {
  const normal: Measurements = {
    persistence: { kind: "measured", isPersisted: false },
    estimate: { kind: "measured", quota: 80e9, usage: 0 },
    indexedDb: { kind: "writable" },
  };

  it("waits for the three measurements it reads", () => {
    expect(assessPrivateMode({ ...normal, indexedDb: undefined }).status).toBe("running");
  });

  it("does not suspect a normal window that was refused persistence", () => {
    expect(inEnglish(assessPrivateMode(normal))).toMatchObject({
      status: "ok",
      summary: "No sign of private browsing.",
    });
  });

  it("suspects a small quota or storage that will not open, and lists the signs", () => {
    const small = inEnglish(assessPrivateMode({ ...normal, estimate: { kind: "measured", quota: 100e6, usage: 0 } }));
    expect(small).toMatchObject({ status: "warn", summary: "This may be a private browsing window." });
    expect(small.detail).toContain("unusually small (100 MB)");
    expect(small.detail).toContain("keeping storage was refused");

    const closed = inEnglish(
      assessPrivateMode({ ...normal, indexedDb: { kind: "failed", reason: "InvalidStateError" } }),
    );
    expect(closed.status).toBe("warn");
    expect(closed.detail).toContain("storage would not open");
  });
});

describe("the service worker", () => {
  it("active is ready; missing is a warning that the exam still works", () => {
    expect(assessServiceWorker({ kind: "active", isControlling: true }).status).toBe("ok");
    expect(assessServiceWorker({ kind: "installing" }).status).toBe("info");
    const missing = inEnglish(assessServiceWorker({ kind: "unsupported" }));
    expect(missing.status).toBe("warn");
    expect(missing.detail).toMatch(/don't reload the exam page while you are offline/);
  });
});

describe("in Chinese", () => {
  it("says every result in Chinese, with the values in Chinese forms", () => {
    const results = assessAll({
      ...allGood,
      connection: online(sample(-192_000, 2_400)),
      estimate: { kind: "measured", quota: 100e6, usage: 3e6 },
      persistence: { kind: "measured", isPersisted: false },
    });
    const byId = Object.fromEntries(results.map((result) => [result.id, result]));
    expect(zh(byId.clock?.summary)).toBe("此设备的时钟比服务器快 3分钟12秒钟。");
    expect(zh(byId.connection?.summary)).toBe("已联网，但速度较慢：Holdfast 用了 2.4秒 才响应。");
    expect(zh(byId["storage-space"]?.summary)).toBe("Holdfast 有 97 MB 可用空间（已用 3 MB）。");
    expect(zh(byId["private-mode"]?.detail)).toMatch(
      /^迹象：允许使用的存储空间异常小（100 MB）；保留存储的请求被拒绝。/,
    );
    for (const result of results) {
      expect(zh(result.summary), result.id).not.toMatch(/\b(the|this|is|not)\b/i);
    }
  });
});

describe("the verdict", () => {
  it("is Ready when every check is fine (notes that need nothing do not count)", () => {
    const results = assessAll({ ...allGood, persistence: { kind: "measured", isPersisted: false } });
    expect(results.map((result) => result.status)).toEqual(["ok", "ok", "ok", "ok", "info", "ok", "ok"]);
    expect(verdictOf(results)).toEqual({ kind: "ready" });
  });

  it("is still checking while anything runs and nothing has failed", () => {
    expect(verdictOf(assessAll({ ...allGood, serviceWorker: undefined }))).toEqual({ kind: "checking" });
    expect(verdictOf(assessAll({}))).toEqual({ kind: "checking" });
  });

  it("lists what to fix as soon as something fails, even while the rest runs", () => {
    const verdict = verdictOf(assessAll({ connection: { kind: "offline" } }));
    expect(verdict).toMatchObject({ kind: "not-ready", fixes: [{ id: "connection" }] });
  });

  it("is ready with notes when only warnings remain", () => {
    const verdict = verdictOf(assessAll({ ...allGood, connection: online(sample(300_000, 50)) }));
    expect(verdict).toMatchObject({ kind: "ready-with-notes", notes: [{ id: "clock" }] });
  });
});

describe("measuring the connection", () => {
  function clock() {
    let wall = T0;
    let monotonic = 0;
    return {
      now: () => wall,
      monotonicNow: () => monotonic,
      advance(ms: number) {
        wall += ms;
        monotonic += ms;
      },
    };
  }

  it("does not even try when the browser knows it is offline", async () => {
    const fetch = vi.fn<typeof globalThis.fetch>();
    const measurement = await measureConnection({ fetch, isOnline: () => false, now: Date.now, monotonicNow: () => 0 });
    expect(measurement).toEqual({ kind: "offline" });
    expect(fetch).not.toHaveBeenCalled();
  });

  it("takes several round trips to /api/health and keeps each one's times", async () => {
    const time = clock();
    const fetch = vi.fn<typeof globalThis.fetch>(async () => {
      time.advance(40);
      const serverTime = new Date(time.now() + 5_000).toISOString();
      time.advance(40);
      return Response.json({ status: "ok", serverTime });
    });
    const measurement = await measureConnection({ fetch, isOnline: () => true, ...time, samples: 3 });
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(fetch.mock.calls[0]?.[0]).toBe("/api/health");
    expect(fetch.mock.calls[0]?.[1]).toMatchObject({ cache: "no-store" });
    if (measurement.kind !== "online") throw new Error(`expected online, got ${measurement.kind}`);
    expect(measurement.samples).toHaveLength(3);
    expect(measurement.samples.map((s) => s.roundTripMs)).toEqual([80, 80, 80]);
    expect(clockOffsetMs(fastestSample(measurement.samples))).toBe(5_000);
  });

  it("tells a failed request, a server fault and a silent server apart", async () => {
    const base = { isOnline: () => true, now: Date.now, monotonicNow: () => performance.now() };
    const refused = vi.fn<typeof globalThis.fetch>(() => Promise.reject(new TypeError("Failed to fetch")));
    expect(await measureConnection({ ...base, fetch: refused })).toEqual({ kind: "unreachable" });

    const down = vi.fn<typeof globalThis.fetch>(async () => Response.json({ status: "down" }, { status: 503 }));
    expect(await measureConnection({ ...base, fetch: down })).toEqual({ kind: "server-error", status: 503 });

    const silent = vi.fn<typeof globalThis.fetch>(
      (_input, init) =>
        new Promise((_resolve, reject) => {
          init?.signal?.addEventListener("abort", () => reject(init.signal?.reason));
        }),
    );
    expect(await measureConnection({ ...base, fetch: silent, timeoutMs: 20 })).toEqual({ kind: "timeout" });
  });
});

describe("measuring storage", () => {
  it("asks for persistence, then reads the browser's answer back", async () => {
    const persist = vi.fn(async () => false);
    const storage = { persist, persisted: async () => true, estimate: async () => ({ quota: 9e9, usage: 1e3 }) };
    expect(await measurePersistence(storage as unknown as StorageManager)).toEqual({
      kind: "measured",
      isPersisted: true,
    });
    expect(persist).toHaveBeenCalledOnce();
    expect(await measureEstimate(storage as unknown as StorageManager)).toEqual({
      kind: "measured",
      quota: 9e9,
      usage: 1e3,
    });
  });

  it("treats a missing or failing storage manager as unsupported", async () => {
    expect(await measurePersistence(undefined)).toEqual({ kind: "unsupported" });
    expect(await measureEstimate(undefined)).toEqual({ kind: "unsupported" });
    const broken = {
      persist: () => Promise.reject(new Error("nope")),
      persisted: async () => false,
      estimate: () => Promise.reject(new Error("nope")),
    };
    expect(await measurePersistence(broken as unknown as StorageManager)).toEqual({ kind: "unsupported" });
    expect(await measureEstimate(broken as unknown as StorageManager)).toEqual({ kind: "unsupported" });
  });
});

describe("measuring IndexedDB", () => {
  it("writes and reads back in a scratch database, then deletes it", async () => {
    const name = "holdfast-check-test";
    expect(await measureIndexedDb(indexedDB, { name })).toEqual({ kind: "writable" });
    await vi.waitFor(async () => {
      expect((await indexedDB.databases()).map((db) => db.name)).not.toContain(name);
    });
  });

  it("reports a browser without IndexedDB, one that refuses, and one that never answers", async () => {
    expect(await measureIndexedDb(undefined)).toEqual({ kind: "unavailable" });

    const refusing = {
      open: () => {
        throw new DOMException(
          "A mutation operation was attempted on a database that did not allow mutations.",
          "InvalidStateError",
        );
      },
    };
    expect(await measureIndexedDb(refusing as unknown as IDBFactory)).toEqual({
      kind: "failed",
      reason: "InvalidStateError",
    });

    const silent = { open: () => ({}) };
    expect(await measureIndexedDb(silent as unknown as IDBFactory, { timeoutMs: 20 })).toEqual({
      kind: "failed",
      reason: "no answer",
    });
  });
});

describe("measuring the service worker", () => {
  it("reports none, active, and one still installing", async () => {
    const none = { getRegistration: async () => undefined };
    expect(await measureServiceWorker(none as unknown as ServiceWorkerContainer)).toEqual({ kind: "none" });

    const active = { getRegistration: async () => ({ active: {} }), controller: {} };
    expect(await measureServiceWorker(active as unknown as ServiceWorkerContainer)).toEqual({
      kind: "active",
      isControlling: true,
    });

    const installing = {
      getRegistration: async () => ({ active: null }),
      ready: new Promise(() => {}),
      controller: null,
    };
    expect(await measureServiceWorker(installing as unknown as ServiceWorkerContainer, { waitMs: 20 })).toEqual({
      kind: "installing",
    });

    expect(await measureServiceWorker(undefined)).toEqual({ kind: "unsupported" });
  });
});
