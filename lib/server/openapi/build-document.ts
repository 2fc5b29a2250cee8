import "server-only";

import { z } from "zod";

import enErrors from "@/messages/en/errors.json";
import { ERROR_STATUS, type ErrorCode } from "@/lib/shared/errors";
import { IdempotencyKeySchema } from "@/lib/shared/schemas/sync";

import { SESSION_COOKIES } from "../auth/cookies";
import { ErrorBodySchema } from "@/lib/shared/schemas/responses/common";

import type { Access } from "../http/route";
import { API_AREAS, type ApiArea } from "../http/route-doc";
import { apiOperations, type ApiMethod, type ApiOperation, type RouteModule } from "./operations";

export type JsonSchema = Record<string, unknown>;

/** The slice of an OpenAPI 3.1 operation that this document writes (and the reference page reads). */
export type OpenApiOperation = {
  operationId: string;
  summary: string;
  description?: string;
  tags: ApiArea[];
  security: Record<string, string[]>[];
  "x-access": Access;
  parameters?: {
    name: string;
    in: "path" | "query" | "header";
    required: boolean;
    description?: string;
    schema: JsonSchema;
  }[];
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<
    string,
    {
      description: string;
      "x-error-codes"?: ErrorCode[];
      headers?: Record<string, { description: string; schema: JsonSchema }>;
      content?: Record<string, { schema: JsonSchema }>;
    }
  >;
};

export type OpenApiDocument = {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string; license: { name: string; identifier: string } };
  jsonSchemaDialect: string;
  tags: { name: ApiArea; description: string }[];
  paths: Record<string, Partial<Record<Lowercase<ApiMethod>, OpenApiOperation>>>;
  components: {
    securitySchemes: Record<string, Record<string, string>>;
    schemas: Record<string, JsonSchema>;
  };
};

const ERROR_BODY_REF = { $ref: "#/components/schemas/ErrorBody" };

const AREA_DESCRIPTIONS: Record<ApiArea, string> = {
  admin:
    "Exams, enrollment, staff accounts and emergency files. An admin session or " +
    "`Authorization: Bearer $ADMIN_API_TOKEN`; the grading routes also take a grader assigned to the exam.",
  proctor:
    "The live dashboard and proctor actions. A proctor assigned to the exam, any admin, or the bearer token; " +
    "another exam's id answers 404.",
  candidate: "The exam page's sync endpoints. The candidate session cookie from a join link.",
  sessions: "Signing in and out, and a staff member's own password.",
  operations: "Health, metrics and this document.",
};

/**
 * Who may call, as OpenAPI security requirements (any one of the listed objects suffices; `{}` means no
 * credentials at all).
 */
const SECURITY: Record<Access, Record<string, string[]>[]> = {
  public: [],
  candidate: [{ candidateSession: [] }],
  staff: [{ staffSession: [] }],
  admin: [{ staffSession: [] }, { adminToken: [] }],
  proctor: [{ staffSession: [] }, { adminToken: [] }],
  grader: [{ staffSession: [] }, { adminToken: [] }],
  operator: [{}, { metricsToken: [] }, { adminToken: [] }, { staffSession: [] }],
};

/** A zod schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect), without its own `$schema`. */
function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const converted = z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io,
    // z.unknown().refine(…) and transforms have no JSON Schema of their own: they document as "any".
    unrepresentable: "any",
  }) as JsonSchema;
  delete converted.$schema;
  return converted;
}

/** The accesses a staff session can satisfy: a member with an admin's temporary password is refused there. */
const STAFF_SESSION_ACCESS = new Set<Access>(["staff", "admin", "proctor", "grader", "operator"]);

/** Codes whose refusal carries `Retry-After`. */
const RETRY_AFTER_CODES = new Set<ErrorCode>([
  "RATE_LIMITED",
  "TOO_MANY_SIGN_INS",
  "REQUEST_IN_PROGRESS",
  "UNAVAILABLE",
  "OVERLOADED",
]);

/**
 * The error body of one status: the shared `ErrorBody`, and where a code has details of a fixed shape for this
 * operation (`errorDetails`), those details whenever `error.code` is that code.
 */
function errorBodySchema(operation: ApiOperation, codes: ErrorCode[]): JsonSchema {
  const refinements = codes.flatMap((code) => {
    const details = operation.errorDetails?.[code];
    if (!details) return [];
    return [
      {
        if: { properties: { error: { properties: { code: { const: code } } } } },
        then: {
          properties: { error: { properties: { details: jsonSchema(details, "output") }, required: ["details"] } },
        },
      },
    ];
  });
  return refinements.length > 0 ? { allOf: [ERROR_BODY_REF, ...refinements] } : ERROR_BODY_REF;
}

/** The refusals an operation can answer with: its own, and those that follow from its route config. */
export function errorCodesOf(operation: ApiOperation): ErrorCode[] {
  const codes = new Set<ErrorCode>();
  if (operation.body)
    ["BAD_REQUEST", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE", "VALIDATION_FAILED"].forEach((c) =>
      codes.add(c as ErrorCode),
    );
  if (operation.idempotencyKey) codes.add("BAD_REQUEST");
  if (operation.access !== "public") codes.add("UNAUTHENTICATED");
  if (operation.access === "admin" || operation.access === "proctor" || operation.access === "grader") {
    codes.add("FORBIDDEN");
  }
  if (STAFF_SESSION_ACCESS.has(operation.access) && !operation.allowsPendingPasswordChange) {
    codes.add("PASSWORD_CHANGE_REQUIRED");
  }
  if (operation.method !== "GET" && /^\/api\/(admin|proctor|staff)(\/|$)/.test(operation.path))
    codes.add("CROSS_ORIGIN");
  if (operation.params) codes.add("NOT_FOUND");
  if (operation.isRateLimited) codes.add("RATE_LIMITED");
  for (const code of operation.errors ?? []) codes.add(code);
  codes.add("INTERNAL");
  codes.add("UNAVAILABLE");
  codes.add("OVERLOADED");
  return [...codes].sort((a, b) => ERROR_STATUS[a] - ERROR_STATUS[b] || a.localeCompare(b));
}

function buildOperation(operation: ApiOperation): OpenApiOperation {
  const parameters: NonNullable<OpenApiOperation["parameters"]> = [];
  for (const [name, schema] of Object.entries(operation.params?.shape ?? {})) {
    parameters.push({ name, in: "path", required: true, schema: jsonSchema(schema as z.ZodType, "input") });
  }
  for (const [name, schema] of Object.entries(operation.query?.shape ?? {})) {
    const field = schema as z.ZodType;
    parameters.push({
      name,
      in: "query",
      required: !field.safeParse(undefined).success,
      description: field.description,
      schema: jsonSchema(field, "input"),
    });
  }
  if (operation.idempotencyKey) {
    parameters.push({
      name: "Idempotency-Key",
      in: "header",
      required: operation.idempotencyKey === "required",
      description:
        "Made once per action and repeated on every retry: the same key and body always get the same answer; " +
        "the same key with another body is 422 IDEMPOTENCY_KEY_REUSED.",
      schema: jsonSchema(IdempotencyKeySchema, "input"),
    });
  }
  for (const header of operation.requestHeaders ?? []) {
    parameters.push({
      name: header.name,
      in: "header",
      required: false,
      description: header.description,
      schema: { type: "string" },
    });
  }

  const responses: OpenApiOperation["responses"] = {};
  for (const [status, response] of Object.entries(operation.responses)) {
    if (!response) continue;
    responses[status] = {
      description: response.description,
      ...(response.headers
        ? {
            headers: Object.fromEntries(
              Object.entries(response.headers).map(([name, description]) => [
                name,
                { description, schema: { type: "string" } },
              ]),
            ),
          }
        : {}),
      ...(response.schema
        ? {
            content: {
              [response.contentType ?? "application/json"]: { schema: jsonSchema(response.schema, "output") },
            },
          }
        : {}),
    };
  }
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(operation)) {
    byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  }
  for (const [status, codes] of byStatus) {
    responses[String(status)] = {
      description: codes.map((code) => `\`${code}\`: ${enErrors.codes[code]}`).join(" "),
      "x-error-codes": codes,
      ...(codes.some((code) => RETRY_AFTER_CODES.has(code))
        ? {
            headers: { "Retry-After": { description: "seconds to wait before retrying", schema: { type: "integer" } } },
          }
        : {}),
      content: { "application/json": { schema: errorBodySchema(operation, codes) } },
    };
  }

  return {
    operationId: operation.operationId,
    summary: operation.summary,
    ...(operation.description ? { description: operation.description } : {}),
    tags: [operation.area],
    security: SECURITY[operation.access],
    "x-access": operation.access,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(operation.zipBody
      ? {
          requestBody: {
            required: true,
            content: {
              "application/zip": {
                schema: { type: "string", contentMediaType: "application/zip", description: operation.zipBody },
              },
            },
          },
        }
      : {}),
    ...(operation.body
      ? {
          requestBody: {
            required: !operation.isBodyOptional,
            content: {
              "application/json": { schema: jsonSchema(operation.body, "input") },
              ...(operation.csvBody
                ? { "text/csv": { schema: { type: "string", description: operation.csvBody } } }
                : {}),
            },
          },
        }
      : {}),
    responses,
  };
}

/** The OpenAPI 3.1 document of the given operations (./operations.ts: read from the routes' configs). */
export function buildOpenApiDocument(operations: readonly ApiOperation[]): OpenApiDocument {
  const paths: OpenApiDocument["paths"] = {};
  for (const operation of operations) {
    const method = operation.method.toLowerCase() as Lowercase<ApiMethod>;
    (paths[operation.path] ??= {})[method] = buildOperation(operation);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Holdfast API",
      version: "1",
      description:
        "Online exams where a candidate never loses an answer and never submits twice. Every refusal has the " +
        'body `{ "error": { "code", "message", "details"? } }`; clients switch on `code`. The sync ' +
        "contract (versions, idempotency, retries) is docs/sync-protocol.md.",
      license: { name: "AGPL-3.0-or-later", identifier: "AGPL-3.0-or-later" },
    },
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    tags: API_AREAS.map((name) => ({ name, description: AREA_DESCRIPTIONS[name] })),
    paths,
    components: {
      securitySchemes: {
        staffSession: {
          type: "apiKey",
          in: "cookie",
          name: SESSION_COOKIES.staff,
          description: "Set by POST /api/staff/session. Admin routes need an admin's session.",
        },
        candidateSession: {
          type: "apiKey",
          in: "cookie",
          name: SESSION_COOKIES.candidate,
          description: "Set by POST /api/session (or GET /join/{token}).",
        },
        adminToken: {
          type: "http",
          scheme: "bearer",
          description: "`Authorization: Bearer $ADMIN_API_TOKEN` (the server's env); admin and proctor routes.",
        },
        metricsToken: {
          type: "http",
          scheme: "bearer",
          description: "`Authorization: Bearer $METRICS_TOKEN`, once METRICS_TOKEN is set.",
        },
      },
      schemas: { ErrorBody: jsonSchema(ErrorBodySchema, "output") },
    },
  };
}

let cached: OpenApiDocument | undefined;

/**
 * The document of this build, from the route modules the app hands over (app/api/route-modules.ts: lib/ never
 * imports app/). The routes do not change while the process runs, so it is built once.
 */
export function openApiDocument(modules: readonly RouteModule[]): OpenApiDocument {
  return (cached ??= buildOpenApiDocument(apiOperations(modules)));
}
