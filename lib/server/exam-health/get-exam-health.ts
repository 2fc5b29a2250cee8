import "server-only";

import { AppError } from "@/lib/shared/errors";
import type { ExamHealth } from "@/lib/shared/schemas/proctor";

import type { ApiTokenPrincipal, StaffPrincipal } from "../auth/sessions";
import { readExamRequestStats } from "../request-stats/exam-request-stats";
import { readExamLoss } from "./read-exam-loss";
import { summariseExamHealth } from "./summarise-exam-health";

/**
 * The exam's health for a proctor's dashboard: loss from Postgres, request numbers of the last hour from
 * every instance (Redis) or this one. An exam the caller may not see is a 404, like a missing one.
 */
export async function getExamHealth(options: {
  examId: string;
  viewer: StaffPrincipal | ApiTokenPrincipal;
  now?: number;
}): Promise<ExamHealth> {
  const now = options.now ?? Date.now();
  const loss = (await readExamLoss({ examIds: [options.examId], viewer: options.viewer })).get(options.examId);
  if (!loss) throw new AppError("NOT_FOUND", "No such exam.");
  const minutes = (await readExamRequestStats([options.examId], now)).get(options.examId) ?? [];
  return summariseExamHealth({ loss, minutes, now });
}
