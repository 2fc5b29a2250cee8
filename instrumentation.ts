// Next.js calls register() once when a server instance starts.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { announceRedisMode } = await import("./lib/server/redis/client");
  await announceRedisMode();
  // Overdue attempts are submitted by the server, also those that fell due while no instance ran.
  const { startAutoSubmitSweeper } = await import("./lib/server/attempts/auto-submit");
  startAutoSubmitSweeper();
  // Submitted papers are scored, and papers under a corrected key scored again, from a queue in Postgres.
  const { startResultsWorker } = await import("./lib/server/results/result-jobs");
  startResultsWorker();
  // Results delivery (issue 16, ADR 018): the outbox of webhook deliveries is sent from every instance.
  const { startDeliveryWorker } = await import("./lib/server/webhooks/delivery-worker");
  startDeliveryWorker();
}
