import { z } from "zod";

import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { route } from "@/lib/server/http/route";
import { streamAttemptEvents } from "@/lib/server/live/stream-attempt-events";
import { AttemptParamsSchema } from "@/lib/shared/schemas/params";

/** The candidate page's live channel: new deadlines, a submission made elsewhere, and the device's presence. */
export const GET = route(
  {
    access: "candidate",
    params: AttemptParamsSchema,
    doc: {
      operationId: "streamAttemptEvents",
      area: "candidate",
      summary: "The exam page's live channel",
      description: "Events `ready`, `deadline` and `submitted` (lib/shared/schemas/attempt-events.ts).",
      query: z.object({ deviceId: z.string().optional().describe("the device whose presence this channel is") }),
      responses: { 200: { description: "An event stream", contentType: "text/event-stream", schema: z.string() } },
    },
  },
  async ({ params, principal, request }) =>
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
