import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";

import { API_ROUTE_MODULES } from "@/app/api/route-modules";
import { ERROR_STATUS } from "@/lib/shared/errors";

import { openApiDocument } from "./build-document";
import { apiOperations } from "./operations";

describe("the OpenAPI document", { timeout: 60_000 }, () => {
  const document = openApiDocument(API_ROUTE_MODULES);

  it("is valid OpenAPI 3.1", async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("says how each operation is authenticated", () => {
    const createExam = document.paths["/api/admin/exams"]?.post;
    expect(createExam?.security).toEqual([{ staffSession: [] }, { adminToken: [] }]);
    expect(document.paths["/api/attempts/{attemptId}/answers"]?.post?.security).toEqual([{ candidateSession: [] }]);
    expect(document.paths["/api/health"]?.get?.security).toEqual([]);
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual([
      "adminToken",
      "candidateSession",
      "metricsToken",
      "staffSession",
    ]);
  });

  it("documents the Idempotency-Key header where a route reads it", () => {
    const submit = document.paths["/api/attempts/{attemptId}/submit"]?.post;
    expect(submit?.parameters).toContainEqual(
      expect.objectContaining({ name: "Idempotency-Key", in: "header", required: true }),
    );
    const extend = document.paths["/api/proctor/attempts/{attemptId}/extend"]?.post;
    expect(extend?.parameters).toContainEqual(
      expect.objectContaining({ name: "Idempotency-Key", in: "header", required: false }),
    );
  });

  it("answers every refusal with the one error body, under the status of its code", () => {
    for (const operation of apiOperations(API_ROUTE_MODULES)) {
      const written = document.paths[operation.path]?.[operation.method.toLowerCase() as "get"];
      for (const [status, response] of Object.entries(written?.responses ?? {})) {
        const codes = response["x-error-codes"];
        if (!codes) continue;
        expect(codes.every((code) => String(ERROR_STATUS[code]) === status)).toBe(true);
        const schema = response.content?.["application/json"]?.schema as { allOf?: unknown[] } | undefined;
        expect(schema?.allOf?.[0] ?? schema).toEqual({ $ref: "#/components/schemas/ErrorBody" });
      }
    }
    const autosave = document.paths["/api/attempts/{attemptId}/answers"]?.post?.responses;
    expect(autosave?.["409"]?.["x-error-codes"]).toEqual(["ALREADY_SUBMITTED", "DEADLINE_PASSED"]);
    expect(autosave?.["429"]?.headers?.["Retry-After"]).toBeDefined();
    expect(autosave?.["422"]?.["x-error-codes"]).toEqual(["VALIDATION_FAILED"]);
  });

  it("takes request bodies from the routes' zod schemas, with their constraints", () => {
    const body = document.paths["/api/admin/exams/{examId}/candidates"]?.post?.requestBody?.content["application/json"]
      ?.schema as { properties: { candidates: { minItems: number; items: { required: string[] } } } };
    expect(body.properties.candidates.minItems).toBe(1);
    expect(body.properties.candidates.items.required).toEqual(["name", "email"]);
  });

  it("lists a CSV upload beside the JSON body where the route takes one", () => {
    const enroll = document.paths["/api/admin/exams/{examId}/candidates"]?.post;
    expect(Object.keys(enroll?.requestBody?.content ?? {})).toEqual(["application/json", "text/csv"]);
    expect(enroll?.parameters).toContainEqual(
      expect.objectContaining({ name: "dryRun", in: "query", required: false }),
    );
    const create = document.paths["/api/admin/exams"]?.post;
    expect(Object.keys(create?.requestBody?.content ?? {})).toEqual(["application/json"]);
  });

  it("gives EDIT_CONFLICT's details the current exam", () => {
    const conflict = document.paths["/api/admin/exams/{examId}"]?.patch?.responses["409"];
    expect(conflict?.["x-error-codes"]).toContain("EDIT_CONFLICT");
    const schema = conflict?.content?.["application/json"]?.schema as {
      allOf: { if?: unknown; then?: { properties: { error: { properties: { details: { required: string[] } } } } } }[];
    };
    const refinement = schema.allOf.find((part) => part.if);
    expect(refinement?.if).toEqual({ properties: { error: { properties: { code: { const: "EDIT_CONFLICT" } } } } });
    expect(refinement?.then?.properties.error.properties.details.required).toEqual(["exam"]);
  });

  it("says which staff routes refuse a temporary password, and which refuse another site", () => {
    const forbidden = (path: string, method: "get" | "post" | "put" | "delete") =>
      document.paths[path]?.[method]?.responses["403"]?.["x-error-codes"] ?? [];
    expect(forbidden("/api/admin/staff", "get")).toEqual(["FORBIDDEN", "PASSWORD_CHANGE_REQUIRED"]);
    expect(forbidden("/api/admin/staff", "post")).toEqual(["CROSS_ORIGIN", "FORBIDDEN", "PASSWORD_CHANGE_REQUIRED"]);
    expect(forbidden("/api/staff/password", "put")).toEqual(["CROSS_ORIGIN"]);
    expect(forbidden("/api/attempts/{attemptId}/answers", "post" as const)).toEqual([]);
  });
});
