import { recordHeartbeat } from "@/lib/server/heartbeats/record-heartbeat";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { HeartbeatSchema } from "@/lib/shared/schemas/heartbeat";
import { AttemptParamsSchema } from "@/lib/shared/schemas/params";
import { HeartbeatResponseSchema } from "@/lib/shared/schemas/responses/attempts";

/** The device's sync health, kept per attempt and device; answers with the attempt's server time facts. */
export const POST = route(
  {
    access: "candidate",
    params: AttemptParamsSchema,
    body: HeartbeatSchema,
    limit: "heartbeat",
    observe: "heartbeat",
    // The session is checked in the statement that reads the attempt (record-heartbeat.ts, ADR 021).
    foldsSessionCheck: true,
    doc: {
      operationId: "recordHeartbeat",
      area: "candidate",
      summary: "The device's sync health",
      responses: { 200: { description: "The attempt's time facts", schema: HeartbeatResponseSchema } },
    },
  },
  async ({ params, body, principal }) =>
    json(await recordHeartbeat({ attemptId: params.attemptId, candidate: principal, heartbeat: body })),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
