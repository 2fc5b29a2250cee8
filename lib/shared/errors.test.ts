import { describe, expect, it, vi } from "vitest";

import { AppError, ERROR_STATUS, isErrorBody } from "./errors";

describe("AppError", () => {
  it("maps every code to a 4xx or 5xx status", () => {
    for (const status of Object.values(ERROR_STATUS)) {
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(600);
    }
  });

  it("renders the one error body, with details only when given", () => {
    expect(new AppError("NOT_FOUND", "No such attempt.").toBody()).toEqual({
      error: { code: "NOT_FOUND", message: "No such attempt." },
    });
    const withDetails = new AppError("ALREADY_SUBMITTED", "Already submitted.", { details: { submissionId: "s1" } });
    expect(withDetails.status).toBe(409);
    expect(withDetails.toBody().error.details).toEqual({ submissionId: "s1" });
  });

  it("recognises error bodies", () => {
    expect(isErrorBody({ error: { code: "X", message: "m" } })).toBe(true);
    expect(isErrorBody({ error: null })).toBe(false);
    expect(isErrorBody({ attemptId: "a" })).toBe(false);
    expect(isErrorBody(null)).toBe(false);
  });
});

describe("AppError across copies of its module", () => {
  it("is an AppError to every copy, as the separate Next.js bundles of one process need", async () => {
    vi.resetModules();
    const other = await import("./errors");
    expect(other.AppError).not.toBe(AppError);
    const made = new other.AppError("OVERLOADED", "busy", { headers: { "Retry-After": "2" } });
    expect(made instanceof AppError).toBe(true);
    expect(new AppError("NOT_FOUND", "gone") instanceof other.AppError).toBe(true);
    expect(new Error("plain") instanceof AppError).toBe(false);
    expect({ code: "OVERLOADED" } instanceof AppError).toBe(false);
    expect((null as unknown as object) instanceof AppError).toBe(false);
  });
});
