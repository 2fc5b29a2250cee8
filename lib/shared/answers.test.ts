import { describe, expect, it } from "vitest";

import { answerValueProblem, isBlankAnswer } from "./answers";

const options = [
  { id: "a", label: "A" },
  { id: "b", label: "B" },
];

describe("answerValueProblem", () => {
  it("accepts the value shape of each question type", () => {
    expect(answerValueProblem({ type: "single_choice", options }, "a")).toBeNull();
    expect(answerValueProblem({ type: "multiple_choice", options }, ["b", "a"])).toBeNull();
    expect(answerValueProblem({ type: "multiple_choice", options }, [])).toBeNull();
    expect(answerValueProblem({ type: "short_text" }, "")).toBeNull();
    expect(answerValueProblem({ type: "essay" }, "x".repeat(100_000))).toBeNull();
    expect(answerValueProblem({ type: "numeric" }, -0.5)).toBeNull();
  });

  it("accepts null for every type: it clears the answer", () => {
    for (const type of ["single_choice", "multiple_choice", "short_text", "essay", "numeric"] as const)
      expect(answerValueProblem({ type, options }, null)).toBeNull();
  });

  it.each([
    [{ type: "single_choice", options }, "z"],
    [{ type: "single_choice", options }, ["a"]],
    [{ type: "multiple_choice", options }, ["a", "a"]],
    [{ type: "multiple_choice", options }, ["a", "z"]],
    [{ type: "multiple_choice", options }, "a"],
    [{ type: "short_text" }, "x".repeat(2_001)],
    [{ type: "short_text" }, 5],
    [{ type: "essay" }, "x".repeat(100_001)],
    [{ type: "numeric" }, "42"],
    [{ type: "numeric" }, true],
    [{ type: "single_choice", options }, true],
  ] as const)("refuses %j with value %j", (question, value) => {
    expect(answerValueProblem(question, value)).toEqual(expect.any(String));
  });
});

describe("isBlankAnswer", () => {
  it("is true for a cleared answer, white space and no option chosen; false for anything said", () => {
    for (const blank of [null, undefined, "", "  \n", []]) expect(isBlankAnswer(blank)).toBe(true);
    for (const said of ["x", 0, -1.5, ["a"]]) expect(isBlankAnswer(said)).toBe(false);
  });
});
