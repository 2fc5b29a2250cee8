import { z } from "zod";

import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { route } from "@/lib/server/http/route";
import { exportResultsJson } from "@/lib/server/results/export-results-json";
import { AppError } from "@/lib/shared/errors";
import { ExamParamsSchema } from "@/lib/shared/schemas/params";

export const dynamic = "force-dynamic";

/** Every candidate's result with every version of it as a JSON download, streamed (docs/results.md, "Exports"). */
export const GET = route(
  {
    access: "admin",
    params: ExamParamsSchema,
    doc: {
      operationId: "exportResultsJson",
      area: "admin",
      summary: "Every candidate's result with every version, as JSON",
      description:
        "The exam, its questions with their maximum points, and per enrolled candidate the current result and " +
        "every result version with cause, actor, reason, time and scores. Streamed.",
      responses: {
        200: {
          description: "A JSON download",
          contentType: "application/json",
          schema: z.object({
            exam: z.object({}).passthrough(),
            questions: z.array(z.unknown()),
            candidates: z.array(z.unknown()),
          }),
          headers: { "Content-Disposition": '`attachment; filename="results-{examId}.json"`' },
        },
      },
    },
  },
  async ({ params }) => {
    const body = await exportResultsJson(params.examId);
    if (!body) throw new AppError("NOT_FOUND", "Not found.");
    return new Response(body, {
      headers: {
        "Content-Type": "application/json; charset=utf-8",
        "Content-Disposition": `attachment; filename="results-${params.examId}.json"`,
        "Cache-Control": "no-store",
      },
    });
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
