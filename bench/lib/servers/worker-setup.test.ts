// `--context-hooks off` must measure what it says: with its preload a store is lost across an `await` (no promise
// hook), without it the store arrives. Each case runs in a fresh Node process, as the app's workers do.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { promisify } from "node:util";

import { describe, expect, it } from "vitest";

import { contextHookArgs } from "./worker-setup";

const run = promisify(execFile);

const PROGRAM = `
const { AsyncLocalStorage } = require("node:async_hooks");
const store = new AsyncLocalStorage();
store.run("kept", async () => {
  await new Promise((resolve) => setTimeout(resolve, 1));
  console.log(String(store.getStore()));
});
`;

async function storeAfterAwait(args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [...args, "-e", PROGRAM]);
  return stdout.trim();
}

describe("context hooks", () => {
  it("on: no Node options, and a store survives an await", async () => {
    expect(contextHookArgs("on")).toEqual([]);
    expect(await storeAfterAwait(contextHookArgs("on"))).toBe("kept");
  });

  it("off: the preload exists, and with it a store is lost across an await (the hook never turned on)", async () => {
    const args = contextHookArgs("off");
    expect(args[0]).toBe("--require");
    expect(existsSync(args[1]!)).toBe(true);
    expect(await storeAfterAwait(args)).toBe("undefined");
  });
});
