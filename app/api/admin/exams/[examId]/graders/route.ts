import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { ExamGradersSchema, examStaffListRoute } from "../staff-routes";

/** The graders assigned to this exam. */
export const GET = examStaffListRoute("grader", {
  operationId: "listExamGraders",
  area: "admin",
  summary: "The graders assigned to an exam",
  responses: { 200: { description: "The graders, by name", schema: ExamGradersSchema } },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
