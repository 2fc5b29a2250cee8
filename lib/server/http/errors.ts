import "server-only";

import { randomUUID } from "node:crypto";
import { z } from "zod";

import { AppError, validationError } from "@/lib/shared/errors";

import { transientConflictOf } from "../db/errors";
import { log } from "../log";
import { jsonResponse } from "./json-response";

// Postgres away or on its way back, an outage to wait out (503 + Retry-After) rather than a bug (500).
// Besides a refused or timed-out connection, a restart shows up as a pooled connection the server closed
// (Prisma P1017 "Server has closed the connection.") and as SQLSTATEs 57P01 "terminating connection due
// to administrator command" (fast or immediate shutdown), 57P02 (crash of another backend) and 57P03
// "the database system is starting up / shutting down / in recovery mode" (while it restarts). Overload
// is the same to a client: every pooled connection busy for longer than the pool waits (pg-pool's
// "timeout exceeded when trying to connect"), or a transaction that could not start or finish in time
// (Prisma P2028; it was rolled back): busy, retry after a moment.
const DATABASE_UNAVAILABLE =
  /ECONNREFUSED|ECONNRESET|ETIMEDOUT|P1001|P1002|P1017|P2024|Can't reach database|Connection terminated|connect ECONN|too many clients|Server has closed the connection|57P0[123]|terminating connection due to|database system is (starting up|shutting down|in recovery mode)|timeout exceeded when trying to connect|P2028|Unable to start a transaction in the given time/i;

function isDatabaseUnavailable(error: unknown): boolean {
  const text =
    error instanceof Error ? `${error.name} ${error.message} ${String((error as { code?: unknown }).code ?? "")}` : "";
  return DATABASE_UNAVAILABLE.test(text);
}

/**
 * What a thrown value answers as: an AppError as it is, a zod error as 422, a database outage or overload
 * as 503 with Retry-After, anything else as 500. The last two are logged with a request id, which the
 * body's `details.requestId` repeats so a report can be matched to its log line; a 500 never echoes internals.
 *
 * A transaction Postgres ended to break a deadlock, a serialization failure or an expired lock timeout
 * (db/errors.ts, transientConflictOf) was rolled back and succeeds when sent again: 503 UNAVAILABLE with
 * `Retry-After: 1`, which every sync client retries (lib/shared/backoff.ts), logged at warn with `operation`
 * (the request's method and path) so a deadlock is still seen and traced to its lock order
 * (docs/sync-protocol.md, "Lock order").
 */
export function toAppError(error: unknown, context: { operation?: string } = {}): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof z.ZodError) return validationError(error);
  const requestId = randomUUID();
  const conflict = transientConflictOf(error);
  if (conflict) {
    log.warn("database conflict, answered 503 to retry", { requestId, operation: context.operation, conflict, error });
    return new AppError("UNAVAILABLE", "The service was briefly busy. Retry in a moment.", {
      details: { requestId },
      headers: { "Retry-After": "1" },
    });
  }
  if (isDatabaseUnavailable(error)) {
    log.error("database unavailable", { requestId, error });
    return new AppError("UNAVAILABLE", "The service is briefly unavailable. Retry in a few seconds.", {
      details: { requestId },
      headers: { "Retry-After": "2" },
    });
  }
  log.error("unhandled error", { requestId, error });
  return new AppError("INTERNAL", "Something went wrong on our side. Nothing you sent was lost; retry shortly.", {
    details: { requestId },
  });
}

/** The one error body, with the error's status and headers. */
export function appErrorResponse(error: AppError): Response {
  return jsonResponse(error.toBody(), { status: error.status, headers: error.headers });
}

/** The one place where a thrown value becomes an HTTP response (toAppError, then appErrorResponse). */
export function errorResponse(error: unknown): Response {
  return appErrorResponse(toAppError(error));
}
