import "server-only";

import type { Principal } from "./sessions";

/** Who did something, as the audit trail records it: a principal, or the server itself (a job, the sweeper). */
export type AuditActor =
  { type: "staff"; id: string } | { type: "candidate"; id: string } | { type: "api-token" } | { type: "system" };

/** The audit actor for a principal. */
export function actorOf(principal: Principal): AuditActor {
  switch (principal.kind) {
    case "staff":
      return { type: "staff", id: principal.userId };
    case "candidate":
      return { type: "candidate", id: principal.enrollmentId };
    case "api-token":
      return { type: "api-token" };
  }
}
