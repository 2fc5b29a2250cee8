import { errorResponse } from "@/lib/server/http/errors";
import { AppError } from "@/lib/shared/errors";

// Any /api path without a route answers with the one JSON error body, whatever the method.
function notFound(): Response {
  return errorResponse(new AppError("NOT_FOUND", "No such API endpoint."));
}

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
export const HEAD = notFound;
export const OPTIONS = notFound;
