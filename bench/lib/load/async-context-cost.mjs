// One measurement of `npm run bench -- async-context`, in a process of its own (the hook, once on, stays on):
// `stores` stores are each used once, as Next.js uses its stores while it routes a request — Node's
// AsyncLocalStorage (`node`), or the workers' SharedContextStorage (`shared`, ADR 024) — then the time of an
// awaited async call is measured. Prints one JSON line: { stores, kind, nsPerAwait }.
import { AsyncLocalStorage } from "node:async_hooks";

import { SharedContextStorage } from "../../../scripts/start/shared-context-storage.mjs";

const stores = Number(process.argv[2] ?? "0");
const calls = Number(process.argv[3] ?? "2000000");
const kind = process.argv[4] === "shared" ? "shared" : "node";
/** @type {() => { run(store: unknown, callback: () => void): void }} */
const create = kind === "shared" ? () => new SharedContextStorage() : () => new AsyncLocalStorage();
for (let index = 0; index < stores; index += 1) create().run({ index }, () => undefined);

/** @param {number} value */
async function leaf(value) {
  return value + 1;
}

/** @param {number} count */
async function work(count) {
  let value = 0;
  for (let index = 0; index < count; index += 1) value = await leaf(value);
  return value;
}

await work(Math.min(100_000, calls));
const started = process.hrtime.bigint();
const result = await work(calls);
const elapsedNs = Number(process.hrtime.bigint() - started);
if (result !== calls) throw new Error(`counted ${result} calls, expected ${calls}`);
console.log(JSON.stringify({ stores, kind, nsPerAwait: elapsedNs / calls }));
