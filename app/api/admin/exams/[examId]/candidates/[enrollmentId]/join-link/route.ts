import { z } from "zod";

import { actorOf } from "@/lib/server/auth/actor";
import { changeJoinLink, type JoinLinkChange } from "@/lib/server/enrollments/change-join-link";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { UuidSchema } from "@/lib/shared/schemas/attempts";
import { JoinLinkActionSchema } from "@/lib/shared/schemas/enrollments";
import { ExamCandidateParamsSchema } from "@/lib/shared/schemas/params";
import { JoinLinkSchema } from "@/lib/shared/schemas/responses/enrollments";

/** The 200 body, for the documentation (it `satisfies` what the operation returns). */
const JoinLinkChangeSchema = z.object({
  enrollmentId: UuidSchema,
  joinLink: JoinLinkSchema,
  endedSessions: z.number().int().min(0).describe("candidate sessions (devices) that ended with the old link"),
}) satisfies z.ZodType<JoinLinkChange>;

/**
 * `{"action":"revoke"}` or `{"action":"reissue"}`: the old link stops working and its sessions end at
 * once (docs/admin-api.md, "Revoking a join link").
 */
export const POST = route(
  {
    access: "admin",
    params: ExamCandidateParamsSchema,
    body: JoinLinkActionSchema,
    doc: {
      operationId: "changeJoinLink",
      area: "admin",
      summary: "Revoke or reissue a candidate's join link",
      description:
        "Either way the old link stops working at once and the sessions opened with it end; `reissue` leaves a " +
        "new link. Revoking a revoked link changes nothing.",
      responses: { 200: { description: "The link now", schema: JoinLinkChangeSchema } },
    },
  },
  async ({ params, body, principal }) =>
    json(await changeJoinLink({ ...params, action: body.action, actor: actorOf(principal) })),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
