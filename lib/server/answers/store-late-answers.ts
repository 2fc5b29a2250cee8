import "server-only";

import { AppError } from "@/lib/shared/errors";

import { db } from "../db/client";
import { Prisma } from "../db/generated/client.ts";
import { isForeignKeyViolation } from "../db/errors";
import { recordLateAnswers } from "../metrics/record-answer-outcomes";
import type { ValidatedAnswer } from "./validate-delta";

type Client = Pick<typeof db, "lateAnswer">;

/**
 * Keeps answers that reached a frozen attempt (contract: "Late answers"). They are never applied and
 * never dropped; staff see them with the time they arrived and the edit time the device claimed. An attempt
 * (or question) deleted with its exam between the caller's read and this insert is a 404, not a 500: there is
 * nothing left to keep them for.
 */
export async function storeLateAnswers(
  options: { attemptId: string; deviceId: string; answers: readonly ValidatedAnswer[]; via: "autosave" | "submit" },
  client: Client = db,
): Promise<number> {
  if (options.answers.length === 0) return 0;
  const result = await client.lateAnswer
    .createMany({
      data: options.answers.map((answer) => ({
        attemptId: options.attemptId,
        questionId: answer.questionId,
        // A cleared answer is JSON null in the column (Prisma's JsonNull), not a missing value.
        value: answer.value === null ? Prisma.JsonNull : answer.value,
        version: answer.version,
        deviceId: options.deviceId,
        clientEditedAt: answer.editedAt ? new Date(answer.editedAt) : null,
        via: options.via,
      })),
    })
    .catch((error: unknown) => {
      if (isForeignKeyViolation(error)) throw new AppError("NOT_FOUND", "No such attempt.");
      throw error;
    });
  recordLateAnswers(options.via, result.count);
  return result.count;
}
