import { recordHeartbeat } from "@/lib/server/heartbeats/record-heartbeat";
import { json, route } from "@/lib/server/http/route";
import { consumeHeartbeat } from "@/lib/server/limits/consume-sync-capacity";
import { observeSyncRequest } from "@/lib/server/metrics/observe-sync-request";
import { HeartbeatSchema } from "@/lib/shared/schemas/heartbeat";
import { AttemptParamsSchema } from "@/lib/shared/schemas/params";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";

/** The device's sync health, kept per attempt and device; answers with the attempt's server time facts. */
export const POST = observeSyncRequest(
  "heartbeat",
  route(
    { access: "candidate", params: AttemptParamsSchema, body: HeartbeatSchema },
    async ({ params, body, principal }) => {
      await consumeHeartbeat(principal.enrollmentId);
      return json(await recordHeartbeat({ attemptId: params.attemptId, candidate: principal, heartbeat: body }));
    },
  ),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
