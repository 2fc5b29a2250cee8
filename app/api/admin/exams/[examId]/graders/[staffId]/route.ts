import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { examStaffAssignmentRoutes } from "../../staff-routes";

/** Assigning a grader to the exam, and ending it (both idempotent). */
export const { PUT, DELETE } = examStaffAssignmentRoutes("grader", {
  PUT: {
    operationId: "assignGrader",
    area: "admin",
    summary: "Assign a grader to an exam",
    description:
      "Idempotent. The grader may then read this exam's grading queues and mark its answers, and nothing else. " +
      "Only active grader accounts are assigned (admins mark every exam): another role's id, or a disabled " +
      "account's, is 422.",
    responses: { 204: { description: "Assigned" } },
    errors: ["VALIDATION_FAILED"],
  },
  DELETE: {
    operationId: "unassignGrader",
    area: "admin",
    summary: "End a grader's assignment",
    description: "Idempotent. The grader's next grading request for the exam is 403.",
    responses: { 204: { description: "Not (or no longer) assigned" } },
  },
});

export const { GET, POST, PATCH, OPTIONS } = methodsNotAllowed("PUT", "DELETE");
