import { route } from "@/lib/server/http/route";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { streamAttemptEvents } from "@/lib/server/live/stream-attempt-events";
import { AttemptParamsSchema } from "@/lib/shared/schemas/params";

/** The candidate page's live channel: new deadlines, a submission made elsewhere, and the device's presence. */
export const GET = route({ access: "candidate", params: AttemptParamsSchema }, async ({ params, principal, request }) =>
  streamAttemptEvents({
    attemptId: params.attemptId,
    candidate: principal,
    deviceId: new URL(request.url).searchParams.get("deviceId"),
    signal: request.signal,
  }),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");

export const dynamic = "force-dynamic";
export const runtime = "nodejs";
