// A webhook worker in its own process, for the test that SIGKILLs one mid-send
// (lib/server/webhooks/delivery-worker.int.test.ts). Run with `node --import tsx --conditions=react-server`.
import { createDeliveryWorker } from "@/lib/server/webhooks/delivery-worker";

const options = JSON.parse(process.argv[2] ?? "{}") as Parameters<typeof createDeliveryWorker>[0];
createDeliveryWorker({ ...options, intervalMs: 50 });
process.stdout.write("worker started\n");
setInterval(() => undefined, 1000);
