import { describe, expect, it } from "vitest";

import { answerValueProblem } from "./answers";

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
    [{ type: "numeric" }, null],
  ] as const)("refuses %j with value %j", (question, value) => {
    expect(answerValueProblem(question, value)).toEqual(expect.any(String));
  });
});
