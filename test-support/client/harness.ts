import { HoldfastDb } from "@/lib/client/offline/db";
import { SyncEngine, type SyncEngineOptions } from "@/lib/client/sync/sync-engine";
import { FakeClock } from "./fake-clock";
import { ATTEMPT_ID, FakeServer } from "./fake-server";
import { testEnvironment, type TestEnvironment } from "./fake-tabs";

let databases = 0;

export type Harness = {
  clock: FakeClock;
  server: FakeServer;
  db: HoldfastDb;
  /** A new engine ("a tab", or the same tab after a reload) on this harness's device. */
  engine(options?: Partial<SyncEngineOptions> & { environment?: TestEnvironment }): {
    engine: SyncEngine;
    env: TestEnvironment;
  };
  /** Waits until every engine is quiet (only requests held by the server may remain). */
  settle(): Promise<void>;
  /** Moves the device clock forward, running due timers in order and settling after each. */
  advance(ms: number): Promise<void>;
  /** Gives this device a known id (before the first engine starts), for tie-break tests. */
  setDeviceId(deviceId: string): Promise<void>;
  cleanup(): Promise<void>;
};

/**
 * One device against one fake server. `random` defaults to 0.5, so the first backoff waits 250 ms, the second
 * 500 ms, then 1 s, 2 s, 4 s, 4 s (half of each window).
 */
export function createHarness(): Harness {
  const clock = new FakeClock();
  const server = new FakeServer(clock);
  const db = new HoldfastDb(`holdfast-test-${++databases}`);
  const engines: SyncEngine[] = [];

  const settle = async () => {
    for (let pass = 0; pass < 3; pass += 1) {
      for (const engine of engines) await engine.whenIdle();
    }
  };

  const harness: Harness = {
    clock,
    server,
    db,
    engine(engineOptions = {}) {
      const env = engineOptions.environment ?? testEnvironment();
      const engine = new SyncEngine({
        attemptId: ATTEMPT_ID,
        db,
        fetch: server.fetch,
        now: clock.now,
        timers: clock,
        random: () => 0.5,
        ...engineOptions,
        environment: env,
      });
      engines.push(engine);
      return { engine, env };
    },
    settle,
    async advance(ms) {
      const target = clock.time + ms;
      await settle();
      for (;;) {
        const due = clock.nextDueAt();
        if (due === null || due > target) break;
        clock.runDue(due);
        await settle();
      }
      clock.time = target;
      await settle();
    },
    async setDeviceId(deviceId) {
      await db.device.put({ key: "device", deviceId, createdAt: 0 });
    },
    async cleanup() {
      for (const engine of engines) engine.stop();
      await settle();
      db.close();
      await db.delete();
    },
  };
  return harness;
}
