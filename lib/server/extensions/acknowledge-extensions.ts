import "server-only";

import { db } from "../db/client";
import { publishExamChange } from "../live/exam-bus";

/**
 * A device of the candidate reported showing `deadlineSeen` (heartbeat `deadline`): every extension of the
 * candidate not yet acknowledged whose new deadline it covers is acknowledged by this device, now. One
 * conditional UPDATE, so two devices (or two instances) reporting at once acknowledge each extension once:
 * the first to commit wins, the other's `acknowledged_at IS NULL` no longer holds. An extension given
 * before the candidate started (no deadline of its own) is in every deadline the attempt ever had, so any
 * report acknowledges it. Returns how many it acknowledged; the dashboard hears of it when any.
 */
export async function acknowledgeExtensions(options: {
  examId: string;
  enrollmentId: string;
  deviceId: string;
  deadlineSeen: string;
}): Promise<number> {
  const acknowledged = await db.$executeRaw`
    UPDATE time_extensions SET acknowledged_at = clock_timestamp(), acknowledged_device_id = ${options.deviceId}
    WHERE enrollment_id = ${options.enrollmentId}::uuid
      AND acknowledged_at IS NULL
      AND (new_deadline IS NULL OR new_deadline <= ${options.deadlineSeen}::timestamptz)`;
  if (acknowledged > 0) publishExamChange(options.examId, options.enrollmentId, "extended");
  return acknowledged;
}
