// Keystroke → committed-to-IndexedDB latency, measured from outside the app: an init script, run in the page
// before any of the app's scripts, watches keys and IndexedDB and pairs them up. The app is not changed.
//
// - Keys: a capture-phase `keydown` listener on window (the first script to see the key) notes the event's
//   time stamp; the `input` event that follows notes the field's new text and its question (the field's
//   <article aria-labelledby="question-{id}">). That makes one pending keystroke.
// - IndexedDB: IDBDatabase.prototype.transaction and IDBObjectStore.prototype.put are wrapped. A read-write
//   transaction that puts into the `drafts` store gets a `complete` listener; `complete` fires only once the
//   transaction has committed (with strict durability, once it is flushed to disk).
// - Pairing: when such a transaction completes, each draft it put settles the pending keystroke of the same
//   question whose text is the draft's value, and every earlier pending keystroke of that question (a later
//   text contains them). Latency = complete time − keydown time. Keystrokes that never commit stay pending and
//   are counted as such.
//
// The script is a string, not a function: tsx/esbuild may wrap named functions in helpers (`__name`) that do
// not exist in the page.
import type { Page } from "@playwright/test";

export type KeystrokeSample = {
  questionId: string | null;
  /** Characters in the field after the keystroke. */
  length: number;
  /** keydown → the read-write transaction that committed it was opened (the app's own queueing, React, its storage layer). */
  toTransactionMs: number;
  /**
   * keydown → the page's main thread is free again after the key's `input` event (a message posted from the
   * event runs): the event's own work, React's render of it and the microtasks it queued. Null if never seen.
   */
  handledMs: number | null;
  /** That transaction opened → `complete` (IndexedDB's commit, with its durability). */
  commitMs: number;
  /** keydown → `complete`: the figure that matters. */
  totalMs: number;
  /** The keystroke was settled by a later text of the same field (its own text was never written on its own). */
  isSuperseded: boolean;
  /** IDBTransaction.durability of the transaction that committed it. */
  durability: string;
  /** keydown time stamp, page clock (performance.now()). */
  keydownAt: number;
};

export type ProbeTake = {
  samples: KeystrokeSample[];
  pending: number;
  /** `drafts` read-write transactions that completed, and how many of them settled no keystroke (merges, acknowledgements). */
  draftTransactions: number;
  unpairedTransactions: number;
  aborted: number;
  /** IDBTransaction.durability of every `drafts` read-write transaction, keystrokes' or not, counted. */
  durability: Record<string, number>;
  /** Keystrokes dropped because the pending list was full. */
  dropped: number;
  /** Main-thread tasks of 50 ms or more (Long Tasks API) since the last take: start (page clock) and duration. */
  longTasks: { startMs: number; durationMs: number }[];
};

export const IDB_COMMIT_PROBE_SCRIPT = String.raw`
(() => {
  if (window.__holdfastBench) return;
  const MAX_PENDING = 20000;
  const MAX_SAMPLES = 200000;
  const state = {
    seq: 0, pending: [], samples: [], draftTransactions: 0, unpairedTransactions: 0, aborted: 0,
    durability: {}, dropped: 0, longTasks: [],
  };
  try {
    new PerformanceObserver((list) => {
      for (const task of list.getEntries()) {
        if (state.longTasks.length < 10000) state.longTasks.push({ startMs: task.startTime, durationMs: task.duration });
      }
    }).observe({ type: "longtask", buffered: true });
  } catch (error) { /* no Long Tasks API */ }
  // A message posted during the key's input event runs once that task (and React's render in it) is over.
  const channel = new MessageChannel();
  const handled = new Map();
  channel.port1.onmessage = (message) => {
    const key = handled.get(message.data);
    handled.delete(message.data);
    if (key) key.handledAt = now();
  };
  const now = () => performance.now();
  let lastKeydown = null;

  window.addEventListener("keydown", (event) => {
    const at = now();
    const stamp = event.timeStamp;
    lastKeydown = { at: stamp > 0 && stamp <= at + 1 && stamp > at - 10000 ? stamp : at };
  }, true);

  window.addEventListener("input", (event) => {
    const target = event.target;
    if (!lastKeydown || !target || typeof target.value !== "string") return;
    const article = target.closest ? target.closest("article[aria-labelledby]") : null;
    const labelledBy = article ? article.getAttribute("aria-labelledby") : null;
    const questionId = labelledBy ? labelledBy.replace(/^question-/, "") : null;
    if (state.pending.length >= MAX_PENDING) { state.dropped += 1; lastKeydown = null; return; }
    const key = { seq: state.seq++, questionId, value: target.value, keydownAt: lastKeydown.at, handledAt: null };
    state.pending.push(key);
    handled.set(key.seq, key);
    channel.port2.postMessage(key.seq);
    lastKeydown = null;
  }, true);

  const info = new WeakMap();
  function track(transaction) {
    let entry = info.get(transaction);
    if (entry) return entry;
    entry = { openedAt: now(), puts: [], durability: String(transaction.durability || "unknown") };
    info.set(transaction, entry);
    transaction.addEventListener("complete", () => settle(entry));
    transaction.addEventListener("abort", () => { state.aborted += 1; });
    return entry;
  }

  function settle(entry) {
    const completedAt = now();
    if (entry.puts.length === 0) return;
    state.draftTransactions += 1;
    state.durability[entry.durability] = (state.durability[entry.durability] || 0) + 1;
    let settled = 0;
    for (const put of entry.puts) {
      let last = -1;
      for (let index = state.pending.length - 1; index >= 0; index -= 1) {
        const key = state.pending[index];
        if (key.questionId === put.questionId && key.value === put.value) { last = index; break; }
      }
      if (last === -1) continue;
      const keep = [];
      for (let index = 0; index < state.pending.length; index += 1) {
        const key = state.pending[index];
        if (index <= last && key.questionId === put.questionId) {
          if (state.samples.length < MAX_SAMPLES) {
            state.samples.push({
              questionId: key.questionId,
              length: key.value.length,
              toTransactionMs: Math.max(0, entry.openedAt - key.keydownAt),
              handledMs: key.handledAt === null ? null : key.handledAt - key.keydownAt,
              keydownAt: key.keydownAt,
              commitMs: completedAt - Math.max(entry.openedAt, key.keydownAt),
              totalMs: completedAt - key.keydownAt,
              isSuperseded: index !== last,
              durability: entry.durability,
            });
          }
          settled += 1;
        } else {
          keep.push(key);
        }
      }
      state.pending = keep;
    }
    if (settled === 0) state.unpairedTransactions += 1;
  }

  const transaction = IDBDatabase.prototype.transaction;
  IDBDatabase.prototype.transaction = function (storeNames, mode) {
    const result = transaction.apply(this, arguments);
    try {
      const names = typeof storeNames === "string" ? [storeNames] : Array.from(storeNames || []);
      if (mode === "readwrite" && names.includes("drafts")) track(result);
    } catch (error) { /* measuring must never break the page */ }
    return result;
  };

  const put = IDBObjectStore.prototype.put;
  IDBObjectStore.prototype.put = function (value) {
    const request = put.apply(this, arguments);
    try {
      if (this.name === "drafts" && this.transaction.mode === "readwrite") {
        const entry = track(this.transaction);
        entry.puts.push({
          questionId: value && typeof value.questionId === "string" ? value.questionId : null,
          value: value && typeof value.value === "string" ? value.value : JSON.stringify(value && value.value),
        });
      }
    } catch (error) { /* measuring must never break the page */ }
    return request;
  };

  window.__holdfastBench = {
    take() {
      const result = {
        samples: state.samples, pending: state.pending.length, draftTransactions: state.draftTransactions,
        unpairedTransactions: state.unpairedTransactions, aborted: state.aborted, durability: state.durability,
        dropped: state.dropped, longTasks: state.longTasks,
      };
      state.samples = []; state.draftTransactions = 0; state.unpairedTransactions = 0; state.aborted = 0;
      state.durability = {}; state.dropped = 0; state.longTasks = [];
      return result;
    },
    pending() { return state.pending.length; },
    clearPending() { const count = state.pending.length; state.pending = []; return count; },
  };
})();
`;

/** Installs the probe in every page of the context, before the app's scripts. */
export async function installIdbCommitProbe(page: Page): Promise<void> {
  await page.addInitScript({ content: IDB_COMMIT_PROBE_SCRIPT });
}

export async function pendingKeystrokes(page: Page): Promise<number> {
  return page.evaluate<number>("window.__holdfastBench ? window.__holdfastBench.pending() : -1");
}

/** The samples and counts since the last take (the probe starts afresh). */
export async function takeProbe(page: Page): Promise<ProbeTake> {
  const taken = await page.evaluate<ProbeTake | null>("window.__holdfastBench ? window.__holdfastBench.take() : null");
  if (!taken) throw new Error("the IndexedDB probe is not installed in the page (addInitScript did not run?)");
  return taken;
}

/** Forgets keystrokes that are still pending (after counting them), so the next phase starts clean. */
export async function clearPending(page: Page): Promise<number> {
  return page.evaluate<number>("window.__holdfastBench ? window.__holdfastBench.clearPending() : 0");
}
