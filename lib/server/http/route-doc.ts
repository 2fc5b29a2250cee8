import type { z } from "zod";

import type { ErrorCode } from "@/lib/shared/errors";

/** How the reference page (/admin/api) and the OpenAPI document's tags group operations. */
export const API_AREAS = ["admin", "proctor", "candidate", "sessions", "operations"] as const;
export type ApiArea = (typeof API_AREAS)[number];

/** One success response of an operation. */
export type ApiResponse = {
  description: string;
  /** The body's schema; absent for a response without a body (204). */
  schema?: z.ZodType;
  /** `application/json` unless said. */
  contentType?: string;
  /** Response headers worth knowing, by name: what each says. */
  headers?: Record<string, string>;
};

/**
 * A route's own documentation, beside its access, params and body in its `route()` config. The OpenAPI
 * document (/api/openapi.json) and the staff's reference page (/admin/api) are generated from these configs:
 * what the config already says (access, params, body, isBodyOptional, csv, zip, limit,
 * allowsPendingPasswordChange) is read from it, never repeated here (docs/api.md, "Documenting a route";
 * docs/decisions/027-the-api-documents-itself-from-its-routes.md).
 */
export type RouteDoc = {
  /** Unique across the API; the name a generated client gives the call. */
  operationId: string;
  area: ApiArea;
  summary: string;
  description?: string;
  /** Query parameters the handler reads (documented; route() does not parse them). */
  query?: z.ZodObject;
  /** Request headers the handler reads, other than auth and Idempotency-Key. */
  requestHeaders?: { name: string; description: string }[];
  /**
   * The schema the operation checks the body with, where the route takes `z.unknown()` because the caller's
   * scope comes first (another exam's id is a 404 whatever the body). Otherwise the route's `body` is documented.
   */
  checkedBody?: z.ZodType;
  /** With the route's `csv: true`: what the `text/csv` file holds (listed beside `application/json`). */
  csvBody?: string;
  /** With the route's `zip: true`: what the `application/zip` archive holds. */
  zipBody?: string;
  idempotencyKey?: "required" | "optional";
  /** The success responses by status. */
  responses: Partial<Record<number, ApiResponse>>;
  /**
   * Error codes the operation itself throws. Those that follow from the route's config (401/403 from `access`,
   * 404 from `params`, 400/413/415/422 from `body`, 429 from `limit`, 500/503) are added by the generator.
   */
  errors?: ErrorCode[];
  /** The `error.details` a code carries for this operation, where it has a fixed shape (EDIT_CONFLICT's exam). */
  errorDetails?: Partial<Record<ErrorCode, z.ZodType>>;
};

/** The header an idempotent operation's stored answer carries. */
export const IDEMPOTENT_REPLAYED = {
  "Idempotent-Replayed": "`true` when this is the stored answer to an earlier request",
};
