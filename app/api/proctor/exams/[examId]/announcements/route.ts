import { z } from "zod";

import { listAnnouncements } from "@/lib/server/announcements/list-announcements";
import { sendAnnouncement } from "@/lib/server/announcements/send-announcement";
import { optionalIdempotencyKey } from "@/lib/server/http/idempotency-key";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { IDEMPOTENT_REPLAYED } from "@/lib/server/http/route-doc";
import { SendAnnouncementSchema } from "@/lib/shared/schemas/announcements";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";
import { SentAnnouncementSchema, StaffAnnouncementsSchema } from "@/lib/shared/schemas/responses/attempts";

/**
 * Sends an announcement (201). With an Idempotency-Key, a retry with the same body gets the first 201 and
 * `Idempotent-Replayed: true`. The body is checked by the operation after the scope: an exam the caller may
 * not see is a 404 whatever the body.
 */
export const POST = route(
  // z.unknown(): route() still requires a JSON body; its fields are the operation's to check, after the scope.
  {
    access: "proctor",
    params: ExamParamsSchema,
    body: z.unknown(),
    doc: {
      operationId: "sendAnnouncement",
      area: "proctor",
      summary: "Send an announcement to the exam's candidates",
      description:
        "To every candidate of the exam, or to `enrollmentIds` (each must be a candidate of this exam, else 422 " +
        "naming it). Pushed to the candidates' open pages; the others read it when their page reconnects. With an " +
        "Idempotency-Key a retry sends nothing twice: it gets the first 201.",
      checkedBody: SendAnnouncementSchema,
      idempotencyKey: "optional",
      responses: {
        201: { description: "Sent", schema: SentAnnouncementSchema, headers: IDEMPOTENT_REPLAYED },
      },
      errors: ["IDEMPOTENCY_KEY_REUSED"],
    },
  },
  async ({ params, body, principal, request }) => {
    const { announcement, isReplay } = await sendAnnouncement({
      examId: params.examId,
      caller: principal,
      body,
      requestKey: optionalIdempotencyKey(request),
    });
    return json(announcement, { status: 201, headers: isReplay ? { "Idempotent-Replayed": "true" } : {} });
  },
);

/** The exam's announcements, newest first, with their "received by" counts. */
export const GET = route(
  {
    access: "proctor",
    params: ExamParamsSchema,
    doc: {
      operationId: "listAnnouncements",
      area: "proctor",
      summary: "The exam's announcements, with how many candidates received each",
      responses: { 200: { description: "Newest first", schema: StaffAnnouncementsSchema } },
    },
  },
  async ({ params, principal }) => json(await listAnnouncements({ examId: params.examId, caller: principal })),
);

export const { PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET", "POST");
