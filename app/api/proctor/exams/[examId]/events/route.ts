import { z } from "zod";

import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { route } from "@/lib/server/http/route";
import { streamExamEvents } from "@/lib/server/live/stream-exam-events";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";

/**
 * Server-sent events of an exam's candidates (docs/sync-protocol.md, "Proctor dashboard"). EventSource sends
 * Last-Event-ID as a header when it reconnects; `?lastEventId=` does the same for a first connection that
 * resumes from a snapshot's `lastEventId`.
 */
export const GET = route(
  {
    access: "proctor",
    params: ExamParamsSchema,
    doc: {
      operationId: "streamExamEvents",
      area: "proctor",
      summary: "Server-sent events of the exam's candidates",
      description:
        "Events `ready` { serverTime, resumed }, `candidates` { serverTime, candidates }, `resync` " +
        '{ serverTime, reason }; a `: keep-alive` comment every 15 s (docs/sync-protocol.md, "Proctor dashboard").',
      query: z.object({
        lastEventId: z.string().optional().describe("resume after this event (a snapshot's `lastEventId`)"),
      }),
      requestHeaders: [{ name: "Last-Event-ID", description: "resume after this event (EventSource sends it)" }],
      responses: { 200: { description: "An event stream", contentType: "text/event-stream", schema: z.string() } },
    },
  },
  async ({ params, principal, request }) => {
    const lastEventId = request.headers.get("last-event-id") ?? new URL(request.url).searchParams.get("lastEventId");
    return streamExamEvents({ examId: params.examId, principal, lastEventId, signal: request.signal });
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");

export const dynamic = "force-dynamic";
export const runtime = "nodejs";
