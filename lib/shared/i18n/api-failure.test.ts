import { describe, expect, it } from "vitest";

import { failureFromBody, fieldKeyOf } from "./api-failure";

describe("failureFromBody", () => {
  it("keeps the code, the English message and each issue's path", () => {
    const failure = failureFromBody(422, {
      error: {
        code: "VALIDATION_FAILED",
        message: "Invalid body: email.",
        details: { issues: [{ path: "email", message: "Invalid email" }, 7] },
      },
    });
    expect(failure).toMatchObject({
      kind: "http",
      status: 422,
      code: "VALIDATION_FAILED",
      message: "Invalid body: email.",
    });
    expect(failure.kind === "http" && failure.issues).toEqual([{ path: "email", message: "Invalid email" }]);
  });

  it("reads a body that is not an error body as an unexpected answer", () => {
    expect(failureFromBody(502, "<html>")).toEqual({
      kind: "http",
      status: 502,
      code: null,
      message: null,
      issues: [],
    });
  });
});

describe("fieldKeyOf", () => {
  it("names the field and the question it is in", () => {
    expect(fieldKeyOf("questions.2.options.0.label")).toEqual({ key: "label", questionIndex: 2 });
    expect(fieldKeyOf("email")).toEqual({ key: "email", questionIndex: null });
    expect(fieldKeyOf("")).toEqual({ key: "", questionIndex: null });
  });
});
