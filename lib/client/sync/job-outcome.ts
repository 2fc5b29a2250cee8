import type { RecordedError } from "../offline/db";
import type { HttpOutcome } from "./http";

/** The sync requests the scheduler runs, one at a time (step F1). */
export type Job = "merge" | "autosave" | "submit";

/**
 * What a job tells the scheduler when it ends (the job never calls back up):
 * - `answered`: the server answered (anything but a retry class); the failure streak ends. `changed` names the
 *   questions the answer rewrote in IndexedDB, for the other tabs (null: everything; absent: nothing to tell).
 *   `needsMerge` asks for a GET of the attempt next; `mergedAt` says a GET just merged; `pauseMs` waits before
 *   the next request (nothing moved, so never spin).
 * - `retry`: a retry class (or an unreadable answer); back off.
 * - `blocked`: a final answer about the session or the attempt; stop sending until a reload or "retry now".
 * - `skipped`: nothing was sent.
 */
export type JobOutcome =
  | { kind: "answered"; changed?: string[] | null; needsMerge?: boolean; mergedAt?: number; pauseMs?: number }
  | { kind: "retry"; outcome: HttpOutcome }
  | { kind: "blocked"; error: RecordedError }
  | { kind: "skipped" };

/** An answer the client could not read: retried like a network failure. */
export function unreadable(message: string): JobOutcome {
  return { kind: "retry", outcome: { kind: "network", message } };
}
