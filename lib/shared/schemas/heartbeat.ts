import { z } from "@/lib/shared/zod";

import type { AttemptStatus } from "./attempts";
import { DeviceStatusSchema } from "./device-status";
import { DeviceIdSchema } from "./sync";

/**
 * `POST /api/attempts/{attemptId}/heartbeat` request body: the device's own view of its sync health
 * (contract: "Heartbeat and live status"). The same status also rides on an autosave (`device`, ADR 022), so a
 * device that saves often sends heartbeats only with news or after a quiet spell.
 */
export const HeartbeatSchema = z.object({
  deviceId: DeviceIdSchema,
  ...DeviceStatusSchema.shape,
});
export type Heartbeat = z.infer<typeof HeartbeatSchema>;

/** 200 body of a heartbeat: the attempt's server-side time facts, so the client corrects its clock. */
export type HeartbeatResponse = {
  serverTime: string;
  deadline: string;
  revision: number;
  status: AttemptStatus;
  /**
   * The pause, as the attempt view tells it (ADR 016): so a device whose event stream missed a "paused" or
   * "resumed" learns it within one heartbeat. Optional for a client reading an older server.
   */
  pausedAt?: string | null;
  pauseReason?: string | null;
};
