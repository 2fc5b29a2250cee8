import { actorOf } from "@/lib/server/auth/actor";
import { changeJoinLink } from "@/lib/server/enrollments/change-join-link";
import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { JoinLinkActionSchema } from "@/lib/shared/schemas/enrollments";
import { ExamCandidateParamsSchema } from "@/lib/shared/schemas/params";

/**
 * `{"action":"revoke"}` or `{"action":"reissue"}`: the old link stops working and its sessions end at
 * once (docs/admin-api.md, "Revoking a join link").
 */
export const POST = route(
  { access: "admin", params: ExamCandidateParamsSchema, body: JoinLinkActionSchema },
  async ({ params, body, principal }) =>
    json(await changeJoinLink({ ...params, action: body.action, actor: actorOf(principal) })),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");
