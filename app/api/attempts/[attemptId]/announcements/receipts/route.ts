import { recordAnnouncementReceipts } from "@/lib/server/announcements/record-announcement-receipts";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { route } from "@/lib/server/http/route";
import { AnnouncementReceiptsSchema } from "@/lib/shared/schemas/announcements";
import { AttemptParamsSchema } from "@/lib/shared/schemas/params";

/** This device has stored these announcements: 204, idempotent (docs/sync-protocol.md, "Announcements"). */
export const POST = route(
  {
    access: "candidate",
    params: AttemptParamsSchema,
    body: AnnouncementReceiptsSchema,
    doc: {
      operationId: "acknowledgeAnnouncements",
      area: "candidate",
      summary: "This device has stored these announcements",
      description:
        "Idempotent: a receipt already recorded is kept as it is. Ids of announcements this candidate may not read " +
        "are ignored.",
      responses: { 204: { description: "Recorded" } },
    },
  },
  async ({ params, body, principal }) => {
    await recordAnnouncementReceipts({ attemptId: params.attemptId, candidate: principal, receipt: body });
    return new Response(null, { status: 204 });
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
