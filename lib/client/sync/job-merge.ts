import { AttemptViewSchema } from "@/lib/shared/schemas/sync-responses";

import { saveServerView } from "../offline/attempts";
import { clockOffsetMs } from "./clock";
import { unreadable, type JobOutcome } from "./job-outcome";
import { classify, recordedError, type SyncKernel } from "./kernel";

/** L3 — GET the server's state and merge it (step L2 rule) into IndexedDB. */
export async function runMerge(kernel: SyncKernel): Promise<JobOutcome> {
  const sentAt = kernel.now();
  const outcome = await kernel.request("GET", "", undefined);
  const receivedAt = kernel.now();
  const verdict = classify(outcome);
  if (verdict === "ok") {
    const parsed = AttemptViewSchema.safeParse(outcome.kind === "answer" ? outcome.body : null);
    if (!parsed.success) return unreadable("unreadable attempt");
    const view = parsed.data;
    await kernel.serial(async () => {
      const saved = await saveServerView(kernel.db, {
        view,
        deviceId: kernel.deviceId!,
        serverOffsetMs: clockOffsetMs(Date.parse(view.serverTime), sentAt, receivedAt),
        now: receivedAt,
        isSync: true,
      });
      kernel.attempt = saved.attempt;
      kernel.drafts = new Map(saved.drafts.map((draft) => [draft.questionId, draft]));
    });
    return { kind: "answered", mergedAt: receivedAt, changed: null };
  }
  if (verdict === "retry") return { kind: "retry", outcome };
  return { kind: "blocked", error: recordedError(outcome) };
}
