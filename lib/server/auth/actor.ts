import "server-only";

import type { AuditActor } from "../audit/record-audit-event";
import type { Principal } from "./sessions";

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
