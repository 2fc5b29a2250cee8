import "server-only";

import { log } from "../log";
import { claimDeliveries } from "./claim-deliveries";
import { settingsOf, type DeliveryWorkerOptions } from "./delivery-settings";
import { postDelivery } from "./post-delivery";
import { recordOutcome } from "./record-delivery-outcome";

export type { DeliveryWorkerOptions } from "./delivery-settings";

/*
 * The sender of the deliveries outbox (ADR 018). Every instance runs one; a delivery is sent by one worker at a
 * time because a claim takes the row with FOR UPDATE SKIP LOCKED and leases it (`lease_until`, `claim_token`); the
 * request runs outside any transaction, and its outcome is written only if the claim is still this worker's. A
 * worker killed mid-send leaves a lease that expires, and another sends the row again with the same webhook-id.
 *
 * One round is three steps, each in its own file:
 *
 * 1. Claim (claim-deliveries.ts): one transaction takes due deliveries, cancels those whose context changed, and
 *    leases the rest that their endpoint's breaker lets through.
 * 2. Send (post-delivery.ts): each claimed delivery POSTed, signed, outside any transaction.
 * 3. Record (record-delivery-outcome.ts): each try's outcome, the delivery, its endpoint and its breaker, in one
 *    transaction, only if the claim is still this worker's.
 *
 * The options and the rows the steps share are delivery-settings.ts.
 */

/** One round: claim, send every claimed delivery in parallel, record each outcome. Returns how many were sent. */
export async function runDeliveryRound(options: DeliveryWorkerOptions = {}): Promise<number> {
  const settings = settingsOf(options);
  // 1.
  const claimed = await claimDeliveries(settings);
  await Promise.all(
    claimed.map(async (delivery) => {
      // 2.
      const result = await postDelivery(delivery, settings.timeoutMs);
      // 3.
      await recordOutcome(delivery, result, settings);
    }),
  );
  return claimed.length;
}

export type DeliveryWorker = { stop: () => Promise<void> };

/** Runs rounds every `intervalMs` (and at once after a round that found work) until stopped. */
export function createDeliveryWorker(options: DeliveryWorkerOptions & { intervalMs?: number } = {}): DeliveryWorker {
  const intervalMs = options.intervalMs ?? 1_000;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();
  const tick = () => {
    if (stopped) return;
    current = (async () => {
      let sent = 0;
      try {
        sent = await runDeliveryRound(options);
      } catch (error) {
        log.warn("webhook worker: a round failed; its deliveries stay pending", { error });
      }
      if (!stopped) {
        timer = setTimeout(tick, sent > 0 ? 0 : intervalMs);
        timer.unref();
      }
    })();
  };
  tick();
  return {
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await current;
    },
  };
}

const globalForWorker = globalThis as unknown as { holdfastDeliveryWorker?: DeliveryWorker };

/**
 * The instance's worker (instrumentation.ts). Its timer does not keep the process alive; a process that exits
 * mid-send leaves a lease that expires, and another instance resends with the same webhook-id.
 */
export function startDeliveryWorker(): void {
  globalForWorker.holdfastDeliveryWorker ??= createDeliveryWorker();
}

/** Stops the instance's worker after its current round (tests, and a host that drains before exiting). */
export async function stopDeliveryWorker(): Promise<void> {
  const worker = globalForWorker.holdfastDeliveryWorker;
  globalForWorker.holdfastDeliveryWorker = undefined;
  await worker?.stop();
}
