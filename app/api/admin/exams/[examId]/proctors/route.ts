import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { ExamProctorsSchema, examStaffListRoute } from "../staff-routes";

/** The proctors assigned to this exam. */
export const GET = examStaffListRoute("proctor", {
  operationId: "listExamProctors",
  area: "admin",
  summary: "The proctors assigned to an exam",
  responses: { 200: { description: "The proctors, by name", schema: ExamProctorsSchema } },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
