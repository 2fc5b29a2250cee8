// Everything a run creates (servers, databases, temporary files) registers how to undo it here, and
// bench/run.ts undoes it all in reverse order: after a normal end, an error, a time-out or Ctrl-C.
import { errorMessage, say } from "./log";

type Cleanup = { name: string; run: () => Promise<void> | void };

const stack: Cleanup[] = [];
let isStarted = false;

/** True once the run has begun undoing itself: children exiting from now on are expected to. */
export function isCleaningUp(): boolean {
  return isStarted;
}
const CLEANUP_STEP_TIMEOUT_MS = 20_000;

/** Registers an undo step; the returned function runs it early (once) and unregisters it. */
export function onCleanup(name: string, run: () => Promise<void> | void): () => Promise<void> {
  const entry: Cleanup = { name, run };
  stack.push(entry);
  return async () => {
    const index = stack.indexOf(entry);
    if (index === -1) return;
    stack.splice(index, 1);
    await runOne(entry);
  };
}

async function runOne(entry: Cleanup): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      Promise.resolve().then(entry.run),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`timed out after ${CLEANUP_STEP_TIMEOUT_MS / 1000} s`)),
          CLEANUP_STEP_TIMEOUT_MS,
        );
      }),
    ]);
  } catch (error) {
    say(`cleanup "${entry.name}" failed: ${errorMessage(error)}`);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs every registered undo step, newest first. Returns once all have finished or timed out. */
export async function runCleanups(): Promise<void> {
  isStarted = true;
  for (let entry = stack.pop(); entry; entry = stack.pop()) await runOne(entry);
}
