import { BUS_BATCH_MS } from "@/lib/server/live/exam-bus";

/**
 * Waits until what the writes before published on the exam bus has gone out (a batch waits BUS_BATCH_MS,
 * lib/server/live/exam-bus.ts): a test that listens from now on hears only what happens from now on.
 */
export function busSettled(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, BUS_BATCH_MS * 5));
}
