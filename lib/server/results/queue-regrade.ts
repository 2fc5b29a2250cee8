import "server-only";

import { AppError } from "@/lib/shared/errors";
import type { RegradeQueued } from "@/lib/shared/schemas/statistics";

import { recordAuditEvent } from "../audit/record-audit-event";
import { actorOf } from "../auth/actor";
import { actorLabel } from "../proctor/find-candidate-for-staff";
import type { ApiTokenPrincipal, StaffPrincipal } from "../auth/sessions";
import { db } from "../db/client";
import { queryRows, sql } from "../db/sql";
import { enqueueResultJobs } from "./result-jobs";

/**
 * Scores every submitted paper of the exam again, on demand (docs/results.md, "Regrade"): queues each in
 * result_jobs (result-jobs.ts) and audits it, in one transaction; the results worker does the rest within about
 * a second, and a paper whose score does not change gets no new version. Returns how many papers were queued.
 */
export async function queueRegrade(options: {
  examId: string;
  caller: StaffPrincipal | ApiTokenPrincipal;
}): Promise<RegradeQueued> {
  const { examId, caller } = options;
  const label = actorLabel(caller);
  return db.$transaction(async (tx) => {
    const [exam] = await queryRows<{ id: string }>(
      sql`SELECT id::text AS id FROM exams WHERE id = ${examId}::uuid FOR NO KEY UPDATE`,
      tx,
    );
    if (!exam) throw new AppError("NOT_FOUND", "Not found.");
    const queued = await enqueueResultJobs(tx, {
      examId,
      cause: "regraded",
      actor:
        caller.kind === "staff" ? { type: "staff", staffUserId: caller.userId, label } : { type: "api-token", label },
      reason: "regrade requested",
    });
    await recordAuditEvent({ actor: actorOf(caller), action: "results.regraded", examId, data: { count: queued } }, tx);
    return { examId, queued };
  });
}
