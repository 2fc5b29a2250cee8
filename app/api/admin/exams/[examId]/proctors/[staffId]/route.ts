import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { examStaffAssignmentRoutes } from "../../staff-routes";

/** Assigning a proctor to the exam, and ending it (both idempotent). */
export const { PUT, DELETE } = examStaffAssignmentRoutes("proctor", {
  PUT: {
    operationId: "assignProctor",
    area: "admin",
    summary: "Assign a proctor to an exam",
    description:
      "Idempotent. Only active proctor accounts are assigned (admins see every exam): an admin's id, or a disabled account's, is 422.",
    responses: { 204: { description: "Assigned" } },
    errors: ["VALIDATION_FAILED"],
  },
  DELETE: {
    operationId: "unassignProctor",
    area: "admin",
    summary: "End a proctor's assignment",
    description: "Idempotent.",
    responses: { 204: { description: "Not (or no longer) assigned" } },
  },
});

export const { GET, POST, PATCH, OPTIONS } = methodsNotAllowed("PUT", "DELETE");
