import "server-only";

import { AppError } from "@/lib/shared/errors";
import type { ReleaseState } from "@/lib/shared/schemas/results";

import { recordAuditEvent } from "../audit/record-audit-event";
import { actorOf } from "../auth/actor";
import type { ApiTokenPrincipal, StaffPrincipal } from "../auth/sessions";
import { db } from "../db/client";
import { queryRows, sql } from "../db/sql";
import { enqueueResultEvents } from "../webhooks/enqueue-deliveries";

/**
 * Releases an exam's results to its candidates, or withdraws them (docs/results.md, "Release"). Idempotent:
 * releasing released results keeps the first release time and writes nothing. Audited when it changes.
 */
export async function setResultsReleased(options: {
  examId: string;
  released: boolean;
  caller: StaffPrincipal | ApiTokenPrincipal;
}): Promise<ReleaseState> {
  return db.$transaction(async (tx) => {
    const [exam] = await queryRows<{ released_at: Date | null }>(
      sql`SELECT results_released_at AS released_at FROM exams WHERE id = ${options.examId}::uuid FOR NO KEY UPDATE`,
      tx,
    );
    if (!exam) throw new AppError("NOT_FOUND", "Not found.");
    if ((exam.released_at !== null) === options.released) {
      return { examId: options.examId, releasedAt: exam.released_at?.toISOString() ?? null };
    }
    const [updated] = await queryRows<{ released_at: Date | null }>(
      options.released
        ? sql`UPDATE exams SET results_released_at = clock_timestamp() WHERE id = ${options.examId}::uuid
              RETURNING results_released_at AS released_at`
        : sql`UPDATE exams SET results_released_at = NULL WHERE id = ${options.examId}::uuid
              RETURNING results_released_at AS released_at`,
      tx,
    );
    // Every paper's current result goes to the endpoints that asked for result.released, in this transaction.
    if (options.released) await enqueueResultEvents(tx, { examId: options.examId, eventType: "result.released" });
    await recordAuditEvent(
      {
        actor: actorOf(options.caller),
        action: options.released ? "results.released" : "results.withdrawn",
        examId: options.examId,
      },
      tx,
    );
    return { examId: options.examId, releasedAt: updated?.released_at?.toISOString() ?? null };
  });
}
