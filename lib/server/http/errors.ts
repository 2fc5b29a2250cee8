import "server-only";

import { randomUUID } from "node:crypto";
import { z } from "zod";

import { AppError, type ErrorIssue } from "@/lib/shared/errors";

import { log } from "../log";

/** zod issues as `{ path: "questions.2.options.0.id", message }`, the shape of `details.issues`. */
export function zodIssues(error: z.ZodError): ErrorIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join(".") || "(body)",
    message: issue.message,
  }));
}

export function validationError(error: z.ZodError, where: "body" | "path" | "query" = "body"): AppError {
  const issues = zodIssues(error);
  const first = issues[0];
  const summary = first ? `${first.path}: ${first.message}` : "invalid input";
  return new AppError("VALIDATION_FAILED", `Invalid ${where}: ${summary}${issues.length > 1 ? ` (and ${issues.length - 1} more)` : ""}.`, {
    details: { issues },
  });
}

function isDatabaseUnavailable(error: unknown): boolean {
  const text = error instanceof Error ? `${error.name} ${error.message} ${String((error as { code?: unknown }).code ?? "")}` : "";
  return /ECONNREFUSED|ECONNRESET|ETIMEDOUT|P1001|P1002|P2024|Can't reach database|Connection terminated|connect ECONN|too many clients/i.test(text);
}

/** The one place where a thrown value becomes an HTTP response. A 500 never echoes internals. */
export function errorResponse(error: unknown): Response {
  if (error instanceof AppError) {
    return Response.json(error.toBody(), { status: error.status, headers: error.headers });
  }
  if (error instanceof z.ZodError) {
    const appError = validationError(error);
    return Response.json(appError.toBody(), { status: appError.status });
  }
  const requestId = randomUUID();
  if (isDatabaseUnavailable(error)) {
    log.error("database unavailable", { requestId, error });
    const appError = new AppError("UNAVAILABLE", "The service is briefly unavailable. Retry in a few seconds.", {
      details: { requestId },
      headers: { "Retry-After": "2" },
    });
    return Response.json(appError.toBody(), { status: appError.status, headers: appError.headers });
  }
  log.error("unhandled error", { requestId, error });
  const appError = new AppError("INTERNAL", "Something went wrong on our side. Nothing you sent was lost; retry shortly.", {
    details: { requestId },
  });
  return Response.json(appError.toBody(), { status: appError.status });
}
