import type { AttemptView } from "@/lib/shared/schemas/attempts";

import { getAttemptRecord, saveServerView } from "../offline/attempts";
import { getOrCreateDeviceId } from "../offline/device";
import { clockOffsetMs } from "./clock";
import type { SyncKernel } from "./kernel";

/**
 * Step L (docs/sync-protocol.md, "The client") — what a page does when it opens, and what a tab does when it takes
 * the sync role. The engine (sync-engine.ts) calls these and owns the generation that says whether their result
 * still counts.
 */

/**
 * L1–L2 — the device id, whatever the device already holds, and the page's server render merged into it. Resolves
 * once the kernel's in-memory copy holds the device's newest drafts: the page may unlock its editor.
 */
export async function loadDeviceState(kernel: SyncKernel, initialView: AttemptView | null): Promise<void> {
  // L1. The device id and whatever the device already holds.
  const deviceId = kernel.deviceId ?? (await getOrCreateDeviceId(kernel.db, kernel.now()));
  kernel.deviceId = deviceId;
  if (initialView) {
    const view = initialView;
    // L2. The page's server render is merged like any server view (greater (version, deviceId) wins). Its clock
    // offset is a rough first estimate (render time unknown); the leader's GET replaces it.
    await kernel.serial(async () => {
      const existing = await getAttemptRecord(kernel.db, kernel.attemptId);
      await saveServerView(kernel.db, {
        view,
        deviceId,
        serverOffsetMs: existing ? null : clockOffsetMs(Date.parse(view.serverTime), kernel.now(), kernel.now()),
        now: kernel.now(),
        isSync: false,
      });
    });
  }
  await kernel.reloadAll();
}

/** What a new leader's first steps need from the engine around it. */
export type LeaderHost = {
  /** The engine has not been stopped or restarted since it took the role. */
  isCurrent(): boolean;
  /** S5: clear a final answer to a stored submit, so it is sent once more. */
  clearSubmitError(): Promise<void>;
  emit(): void;
  scheduleProbe(): void;
  sendHeartbeat(): void;
  openPresence(): void;
  pump(): void;
};

/**
 * L3 — this tab took the sync role (T1): it re-reads the store (another tab wrote it while this one followed), then
 * starts the leader's work: the probe, the heartbeat, the presence stream and the queue (the merge GET first).
 */
export async function startLeading(kernel: SyncKernel, host: LeaderHost): Promise<void> {
  await kernel.reloadAll();
  if (!host.isCurrent()) return;
  // S5. A submit that got a final answer before is tried once more by each new page (or new leader).
  if (kernel.attempt?.submitState === "submitting" && kernel.attempt.submitError) await host.clearSubmitError();
  host.emit();
  host.scheduleProbe();
  host.sendHeartbeat();
  host.openPresence();
  host.pump();
}
