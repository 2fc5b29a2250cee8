// One measurement of `npm run bench -- async-context`, in a process of its own (the hook, once on, stays on):
// `stores` AsyncLocalStorage instances are each used once, as Next.js uses its stores while it routes a
// request, then the time of an awaited async call is measured. Prints one JSON line: { stores, nsPerAwait }.
import { AsyncLocalStorage } from "node:async_hooks";

const stores = Number(process.argv[2] ?? "0");
const calls = Number(process.argv[3] ?? "2000000");
for (let index = 0; index < stores; index += 1) new AsyncLocalStorage().run({ index }, () => undefined);

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
console.log(JSON.stringify({ stores, nsPerAwait: elapsedNs / calls }));
