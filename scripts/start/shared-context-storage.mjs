// Next.js's request stores, all carried by one AsyncLocalStorage in a worker of `npm start` (ADR 024).
//
// On Node 20 every AsyncLocalStorage that was ever used adds itself to one process-wide promise hook, and from
// then on every promise made anywhere in the process — the candidate routes' own, pg's, ioredis's — calls each
// of them once. Next.js makes its stores with `new globalThis.AsyncLocalStorage()` and uses several for every
// request it routes (three after the health check, nine after a page, counted on Next 16.4), so the candidate
// routes of the fast path (ADR 023) paid for nine stores on every promise they never read
// (`npm run bench -- async-context`: about 40 ns per awaited call with none, 130 with one, 460 with nine).
//
// SharedContextStorage has AsyncLocalStorage's interface and keeps its value in one frame: an immutable Map from
// each store to its value, held by a single real AsyncLocalStorage. Entering a store copies the frame (a few
// entries, a few times per request Next routes); each promise carries one value whatever the number of stores.
// Next only installs Node's own class when `globalThis.AsyncLocalStorage` is not already a function
// (next/dist/server/node-environment-baseline.js), so setting it before Next loads is enough. Code that imports
// AsyncLocalStorage from node:async_hooks itself (React's renderers, OpenTelemetry) keeps Node's class.
import { AsyncLocalStorage } from "node:async_hooks";

/** @typedef {ReadonlyMap<SharedContextStorage<unknown>, unknown>} Frame */

/** @type {AsyncLocalStorage<Frame>} */
const frames = new AsyncLocalStorage();

/** @type {Frame} */
const EMPTY = new Map();

/** @returns {Frame} */
function currentFrame() {
  return frames.getStore() ?? EMPTY;
}

/**
 * @template T
 */
export class SharedContextStorage {
  /** False after disable(), until the next run() or enterWith(), as Node's. */
  #isEnabled = true;

  /**
   * The store's value in the current execution context, or undefined.
   * @returns {T | undefined}
   */
  getStore() {
    if (!this.#isEnabled) return undefined;
    return /** @type {T | undefined} */ (frames.getStore()?.get(this));
  }

  /**
   * Runs `callback` with this store set to `store` (the others unchanged), synchronously, and everything it
   * starts asynchronously; the context is what it was once `callback` returns or throws.
   * @template R
   * @template {unknown[]} A
   * @param {T} store
   * @param {(...args: A) => R} callback
   * @param {A} args
   * @returns {R}
   */
  run(store, callback, ...args) {
    this.#isEnabled = true;
    const frame = currentFrame();
    if (frame.has(this) && Object.is(frame.get(this), store)) return callback(...args);
    return frames.run(withValue(frame, this, store), callback, ...args);
  }

  /**
   * Runs `callback` outside this store (its getStore() is undefined there); the other stores keep their values.
   * @template R
   * @template {unknown[]} A
   * @param {(...args: A) => R} callback
   * @param {A} args
   * @returns {R}
   */
  exit(callback, ...args) {
    const frame = currentFrame();
    if (!frame.has(this)) return callback(...args);
    return frames.run(withoutValue(frame, this), callback, ...args);
  }

  /**
   * Sets this store to `store` for the rest of the current synchronous execution and what it starts.
   * @param {T} store
   */
  enterWith(store) {
    this.#isEnabled = true;
    frames.enterWith(withValue(currentFrame(), this, store));
  }

  /** getStore() answers undefined until the next run() or enterWith(), and the current context forgets it. */
  disable() {
    this.#isEnabled = false;
    const frame = frames.getStore();
    if (frame?.has(this)) frames.enterWith(withoutValue(frame, this));
  }

  /**
   * A function that runs `fn` in the execution context of the call to bind (every store's value then).
   * @template {(...args: never[]) => unknown} F
   * @param {F} fn
   * @returns {F}
   */
  static bind(fn) {
    return AsyncLocalStorage.bind(fn);
  }

  /**
   * Captures the current execution context: the returned function runs a callback in it.
   * @returns {<R, A extends unknown[]>(fn: (...args: A) => R, ...args: A) => R}
   */
  static snapshot() {
    return AsyncLocalStorage.snapshot();
  }
}

/**
 * @param {Frame} frame
 * @param {SharedContextStorage<unknown>} storage
 * @param {unknown} value
 * @returns {Frame}
 */
function withValue(frame, storage, value) {
  const next = new Map(frame);
  next.set(storage, value);
  return next;
}

/**
 * @param {Frame} frame
 * @param {SharedContextStorage<unknown>} storage
 * @returns {Frame}
 */
function withoutValue(frame, storage) {
  const next = new Map(frame);
  next.delete(storage);
  return next;
}

/**
 * Makes SharedContextStorage the class Next.js builds its stores with, unless something already set one (an
 * operator's choice, or a runtime that brings its own) or HOLDFAST_SHARED_CONTEXT is "0" (Node's own class then,
 * as before ADR 024). Call before Next.js is imported.
 *
 * @param {Record<string, string | undefined>} env
 * @returns {boolean} whether it was installed
 */
export function installSharedContextStorage(env = process.env) {
  if (env.HOLDFAST_SHARED_CONTEXT === "0") return false;
  const scope = /** @type {{ AsyncLocalStorage?: unknown }} */ (globalThis);
  if (typeof scope.AsyncLocalStorage === "function") return false;
  scope.AsyncLocalStorage = SharedContextStorage;
  return true;
}
