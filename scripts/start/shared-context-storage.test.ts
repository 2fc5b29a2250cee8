// SharedContextStorage must behave as Node's AsyncLocalStorage wherever Next.js could notice (ADR 024): each
// scenario below runs once with Node's class and once with ours, and the two traces must be the same.
import { AsyncLocalStorage } from "node:async_hooks";
import { execFile } from "node:child_process";
import { EventEmitter } from "node:events";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

import { afterEach, describe, expect, it } from "vitest";

import { installSharedContextStorage, SharedContextStorage } from "./shared-context-storage.mjs";

type Storage<T> = {
  getStore(): T | undefined;
  run<R>(store: T, callback: () => R): R;
  exit<R>(callback: () => R): R;
  enterWith(store: T): void;
  disable(): void;
};
type StorageClass = {
  new <T>(): Storage<T>;
  bind<F extends (...args: never[]) => unknown>(fn: F): F;
  snapshot(): <R>(fn: () => R) => R;
};

const NODE = AsyncLocalStorage as unknown as StorageClass;
const SHARED = SharedContextStorage as unknown as StorageClass;

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 1));

/** Runs `scenario` with two fresh stores of `Storage`, and returns what it recorded. */
async function trace(
  Storage: StorageClass,
  scenario: (stores: { a: Storage<string>; b: Storage<string> }, log: (line: string) => void) => Promise<void> | void,
): Promise<string[]> {
  const lines: string[] = [];
  const a = new Storage<string>();
  const b = new Storage<string>();
  await scenario({ a, b }, (line) => lines.push(line));
  return lines;
}

async function expectSameAsNode(
  scenario: (
    stores: { a: Storage<string>; b: Storage<string> },
    log: (line: string) => void,
    Storage: StorageClass,
  ) => Promise<void> | void,
): Promise<string[]> {
  const node = await trace(NODE, (stores, log) => scenario(stores, log, NODE));
  const shared = await trace(SHARED, (stores, log) => scenario(stores, log, SHARED));
  expect(shared).toEqual(node);
  return shared;
}

const show = (storage: Storage<string>) => String(storage.getStore());

describe("SharedContextStorage against Node's AsyncLocalStorage", () => {
  it("nests two stores, each keeping its own value, through awaits, timers, ticks and microtasks", async () => {
    const lines = await expectSameAsNode(async ({ a, b }, log) => {
      log(`outside: ${show(a)} ${show(b)}`);
      await a.run("a1", async () => {
        log(`in a: ${show(a)} ${show(b)}`);
        await b.run("b1", async () => {
          await tick();
          log(`in a and b after a timer: ${show(a)} ${show(b)}`);
          await new Promise<void>((resolve) =>
            process.nextTick(() => {
              log(`nextTick: ${show(a)} ${show(b)}`);
              resolve();
            }),
          );
          await new Promise<void>((resolve) =>
            setImmediate(() => {
              log(`setImmediate: ${show(a)} ${show(b)}`);
              resolve();
            }),
          );
          queueMicrotask(() => log(`microtask: ${show(a)} ${show(b)}`));
          await Promise.resolve().then(() => log(`then: ${show(a)} ${show(b)}`));
        });
        log(`back in a: ${show(a)} ${show(b)}`);
        await a.run("a2", async () => {
          await tick();
          log(`a replaced: ${show(a)} ${show(b)}`);
        });
        log(`a restored: ${show(a)} ${show(b)}`);
      });
      log(`outside again: ${show(a)} ${show(b)}`);
    });
    // Not only equal, but what the contract says (so that a broken Node-side run cannot make both agree on nothing).
    expect(lines).toContain("in a and b after a timer: a1 b1");
    expect(lines).toContain("a replaced: a2 undefined");
    expect(lines.at(-1)).toBe("outside again: undefined undefined");
  });

  it("keeps concurrent requests apart while their awaits interleave", async () => {
    const lines = await expectSameAsNode(async ({ a }, log) => {
      // Turns of the event loop (setImmediate, in order) rather than timers, so both runs interleave alike.
      const turns = async (count: number) => {
        for (let turn = 0; turn < count; turn += 1) await new Promise((resolve) => setImmediate(resolve));
      };
      const request = (name: string, delays: number[]) =>
        a.run(name, async () => {
          for (const delay of delays) {
            await turns(delay);
            log(`${name} sees ${show(a)}`);
          }
        });
      await Promise.all([request("first", [3, 1, 4]), request("second", [1, 5, 1]), request("third", [2, 2, 2])]);
    });
    for (const line of lines) expect(line).toMatch(/^(first sees first|second sees second|third sees third)$/);
    expect(lines).toHaveLength(9);
  });

  it("returns the callback's value, passes its arguments, and restores the context when it throws", async () => {
    await expectSameAsNode(({ a }, log) => {
      log(String(a.run("x", () => `returned ${show(a)}`)));
      const withArgs = (a as unknown as { run(s: string, f: (p: number, q: number) => number, ...r: number[]): number })
        .run;
      log(`args: ${withArgs.call(a, "y", (p, q) => p + q, 2, 3)}`);
      try {
        a.run("z", () => {
          log(`before the throw: ${show(a)}`);
          throw new Error("boom");
        });
      } catch (error) {
        log(`caught ${(error as Error).message}; now ${show(a)}`);
      }
    });
  });

  it("exit leaves one store and keeps the other, also for what it starts", async () => {
    const lines = await expectSameAsNode(async ({ a, b }, log) => {
      await a.run("a1", () =>
        b.run("b1", async () => {
          const started = a.exit(async () => {
            log(`in exit: ${show(a)} ${show(b)}`);
            await tick();
            log(`in exit after a timer: ${show(a)} ${show(b)}`);
          });
          log(`after exit returned: ${show(a)} ${show(b)}`);
          await started;
          log(`after its work: ${show(a)} ${show(b)}`);
        }),
      );
    });
    expect(lines).toContain("in exit after a timer: undefined b1");
    expect(lines).toContain("after its work: a1 b1");
  });

  it("enterWith holds for the rest of that callback and what it starts, not for its siblings", async () => {
    const lines = await expectSameAsNode(async ({ a, b }, log) => {
      await b.run("b1", async () => {
        await new Promise<void>((resolve) =>
          setTimeout(() => {
            a.enterWith("entered");
            log(`same callback: ${show(a)} ${show(b)}`);
            setTimeout(() => {
              log(`started from it: ${show(a)} ${show(b)}`);
              resolve();
            }, 1);
          }, 1),
        );
        await new Promise<void>((resolve) =>
          setTimeout(() => {
            log(`a sibling: ${show(a)} ${show(b)}`);
            resolve();
          }, 1),
        );
      });
    });
    expect(lines).toEqual(["same callback: entered b1", "started from it: entered b1", "a sibling: undefined b1"]);
  });

  it("disable answers undefined until the next run", async () => {
    await expectSameAsNode(({ a }, log) => {
      a.run("kept", () => {
        a.disable();
        log(`disabled inside: ${show(a)}`);
        a.run("again", () => log(`run again: ${show(a)}`));
      });
    });
  });

  it("bind and snapshot carry every store's value to a later call", async () => {
    const lines = await expectSameAsNode(async ({ a, b }, log, Storage) => {
      let bound: (() => void) | undefined;
      let snapshot: (<R>(fn: () => R) => R) | undefined;
      a.run("a1", () =>
        b.run("b1", () => {
          bound = Storage.bind(() => log(`bound: ${show(a)} ${show(b)}`));
          snapshot = Storage.snapshot();
        }),
      );
      await tick();
      bound?.();
      snapshot?.(() => log(`snapshot: ${show(a)} ${show(b)}`));
      log(`outside: ${show(a)} ${show(b)}`);
    });
    expect(lines).toEqual(["bound: a1 b1", "snapshot: a1 b1", "outside: undefined undefined"]);
  });

  it("does not carry a store through an emitter's listener added elsewhere (neither does Node's)", async () => {
    await expectSameAsNode(async ({ a }, log) => {
      const emitter = new EventEmitter();
      emitter.on("event", () => log(`listener: ${show(a)}`));
      a.run("emitting", () => emitter.emit("event"));
      await tick();
    });
  });
});

describe("one promise hook entry, whatever the number of stores", () => {
  it("uses one of Node's AsyncLocalStorage for nine stores (Node 20's per-store hook)", async () => {
    const program = fileURLToPath(new URL("./shared-context-storage.mjs", import.meta.url));
    // A fresh process: count the Node stores that turn on (Node 20: `_enable` on first use), then use nine of ours.
    const code = `
      const { AsyncLocalStorage } = require("node:async_hooks");
      if (typeof AsyncLocalStorage.prototype._enable !== "function") { console.log("no per-store hook"); process.exit(0); }
      let enabled = 0;
      const original = AsyncLocalStorage.prototype._enable;
      AsyncLocalStorage.prototype._enable = function () { if (!this.enabled) enabled += 1; return original.call(this); };
      import(${JSON.stringify(program)}).then(async ({ SharedContextStorage }) => {
        const stores = Array.from({ length: 9 }, () => new SharedContextStorage());
        let values = [];
        await stores.reduce((inner, store, index) => () => store.run(index, inner), async () => {
          await new Promise((resolve) => setTimeout(resolve, 1));
          values = stores.map((store) => store.getStore());
        })();
        console.log(JSON.stringify({ enabled, values }));
      });
    `;
    const { stdout } = await promisify(execFile)(process.execPath, ["-e", code]);
    if (stdout.trim() === "no per-store hook") return;
    expect(JSON.parse(stdout)).toEqual({ enabled: 1, values: [0, 1, 2, 3, 4, 5, 6, 7, 8] });
  });
});

describe("installSharedContextStorage", () => {
  const scope = globalThis as { AsyncLocalStorage?: unknown };
  const before = scope.AsyncLocalStorage;
  afterEach(() => {
    scope.AsyncLocalStorage = before;
  });

  it("installs ours where no class is set, so Next.js builds its stores with it", () => {
    delete scope.AsyncLocalStorage;
    expect(installSharedContextStorage({})).toBe(true);
    expect(scope.AsyncLocalStorage).toBe(SharedContextStorage);
  });

  it("leaves a class already set alone, and Node's own in place with HOLDFAST_SHARED_CONTEXT=0", () => {
    scope.AsyncLocalStorage = AsyncLocalStorage;
    expect(installSharedContextStorage({})).toBe(false);
    expect(scope.AsyncLocalStorage).toBe(AsyncLocalStorage);
    delete scope.AsyncLocalStorage;
    expect(installSharedContextStorage({ HOLDFAST_SHARED_CONTEXT: "0" })).toBe(false);
    expect(scope.AsyncLocalStorage).toBeUndefined();
  });
});
