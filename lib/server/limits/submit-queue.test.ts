import { describe, expect, it } from "vitest";

import { createSubmitQueue } from "./submit-queue";

/** A piece of work that ends when the test says so, and says when it started. */
function heldWork(log: string[], name: string) {
  let finish!: () => void;
  let fail!: (error: Error) => void;
  const work = () =>
    new Promise<string>((resolve, reject) => {
      log.push(name);
      finish = () => resolve(name);
      fail = reject;
    });
  return { work, finish: () => finish(), fail: (error: Error) => fail(error) };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("the submit queue", () => {
  it("runs submits first come first served, never more at once than its places", async () => {
    const queue = createSubmitQueue({ places: 2, maxWaiting: 100 });
    const started: string[] = [];
    const jobs = Array.from({ length: 7 }, (_, i) => heldWork(started, `s${i}`));
    const results = jobs.map((job) => queue.run(job.work));
    await tick();
    expect(started).toEqual(["s0", "s1"]);
    expect(queue.stats()).toMatchObject({ places: 2, working: 2, waiting: 5 });
    // The second ends first: the third takes its place, then the fourth the first's.
    jobs[1]!.finish();
    await tick();
    expect(started).toEqual(["s0", "s1", "s2"]);
    jobs[0]!.finish();
    await tick();
    expect(started).toEqual(["s0", "s1", "s2", "s3"]);
    for (let i = 2; i < jobs.length; i += 1) {
      jobs[i]!.finish();
      await tick();
      expect(queue.stats().working).toBeLessThanOrEqual(2);
    }
    expect(await Promise.all(results)).toEqual(jobs.map((_, i) => `s${i}`));
    expect(started).toEqual(jobs.map((_, i) => `s${i}`));
    expect(queue.stats()).toMatchObject({ working: 0, waiting: 0 });
  });

  it("gives the place on when a submit fails, and passes the failure to its caller", async () => {
    const queue = createSubmitQueue({ places: 1, maxWaiting: 100 });
    const started: string[] = [];
    const failing = heldWork(started, "failing");
    const next = heldWork(started, "next");
    const first = queue.run(failing.work);
    const second = queue.run(next.work);
    await tick();
    failing.fail(new Error("database gone"));
    await expect(first).rejects.toThrow("database gone");
    await tick();
    expect(started).toEqual(["failing", "next"]);
    next.finish();
    expect(await second).toBe("next");
  });

  it("expects a wait of whole rounds of its places, each a submit's recent time, and learns that time", async () => {
    let now = 1_000_000;
    const queue = createSubmitQueue({ places: 2, maxWaiting: 100, initialServiceMs: 100, now: () => now });
    expect(queue.stats().expectedWaitMs).toBe(0);
    const log: string[] = [];
    const jobs = Array.from({ length: 5 }, (_, i) => heldWork(log, `s${i}`));
    const results = jobs.map((job) => queue.run(job.work));
    await tick();
    // Two working, three waiting: a fourth in line waits two rounds.
    expect(queue.stats()).toMatchObject({ working: 2, waiting: 3, serviceMs: 100, expectedWaitMs: 200 });
    // They end 600 ms apart (each 600 to 1,200 ms in its place): the recent time moves up toward that.
    for (const job of jobs) {
      now += 600;
      job.finish();
      await tick();
    }
    await Promise.all(results);
    const learned = queue.stats().serviceMs;
    expect(learned).toBeGreaterThan(100);
    expect(learned).toBeLessThan(1_200);
  });

  it("refuses a submit whose turn would end after its deadline, before it waits, with the expected wait as Retry-After", async () => {
    let now = 5_000_000;
    const queue = createSubmitQueue({ places: 1, maxWaiting: 100, initialServiceMs: 1_500, now: () => now });
    const log: string[] = [];
    const working = heldWork(log, "working");
    const waiting = [heldWork(log, "w1"), heldWork(log, "w2")];
    const results = [queue.run(working.work), ...waiting.map((job) => queue.run(job.work))];
    await tick();
    // Two ahead and one place: a newcomer's turn in 3 × 1.5 s, done 1.5 s later.
    expect(queue.stats().expectedWaitMs).toBe(4_500);
    let called = false;
    const late = queue.run(
      () => {
        called = true;
        return Promise.resolve("late");
      },
      { mustFinishBy: now + 5_999 },
    );
    await expect(late).rejects.toMatchObject({
      code: "OVERLOADED",
      headers: { "Retry-After": "5" },
      details: { retryAfterSeconds: 5 },
    });
    expect(called).toBe(false);
    expect(queue.stats().waiting).toBe(2);
    // With enough time left it waits its turn.
    const inTime = queue.run(() => Promise.resolve("in time"), { mustFinishBy: now + 6_000 });
    now += 1;
    working.finish();
    for (const job of waiting) {
      await tick();
      job.finish();
    }
    expect(await inTime).toBe("in time");
    expect(await Promise.all(results)).toEqual(["working", "w1", "w2"]);
  });

  it("runs a submit at once, whatever its deadline, while a place is free", async () => {
    const now = 1_000;
    const queue = createSubmitQueue({ places: 1, maxWaiting: 100, initialServiceMs: 50, now: () => now });
    expect(await queue.run(() => Promise.resolve("free"), { mustFinishBy: now + 50 })).toBe("free");
  });

  it("refuses one more than the most that may wait, and takes submits again once the line shortens", async () => {
    const queue = createSubmitQueue({ places: 1, maxWaiting: 2, initialServiceMs: 400 });
    const log: string[] = [];
    const jobs = Array.from({ length: 3 }, (_, i) => heldWork(log, `s${i}`));
    const results = jobs.map((job) => queue.run(job.work));
    await tick();
    expect(queue.stats()).toMatchObject({ working: 1, waiting: 2 });
    await expect(queue.run(() => Promise.resolve("one too many"))).rejects.toMatchObject({
      code: "OVERLOADED",
      headers: { "Retry-After": "2" },
    });
    jobs[0]!.finish();
    await tick();
    const after = queue.run(() => Promise.resolve("after"));
    jobs[1]!.finish();
    await tick();
    jobs[2]!.finish();
    expect(await after).toBe("after");
    await Promise.all(results);
  });
});
