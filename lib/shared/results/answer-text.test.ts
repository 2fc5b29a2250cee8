import { describe, expect, it } from "vitest";

import { readAnswer } from "./answer-text";

const single = {
  type: "single_choice",
  options: [
    { id: "a", label: "Network" },
    { id: "b", label: "Link" },
  ],
};
const multiple = {
  type: "multiple_choice",
  options: [
    { id: "a", label: "TCP" },
    { id: "b", label: "IP" },
    { id: "c", label: "UDP" },
  ],
};

describe("readAnswer", () => {
  it("shows choice answers as the options' labels, in the options' order, never as ids", () => {
    expect(readAnswer("b", single)).toEqual({ kind: "choices", labels: ["Link"] });
    expect(readAnswer(["c", "a"], multiple)).toEqual({ kind: "choices", labels: ["TCP", "UDP"] });
    expect(readAnswer(["a", "zz"], multiple)).toEqual({ kind: "choices", labels: ["TCP", "zz"] });
  });

  it("tells no answer from an answer", () => {
    expect(readAnswer(null, single)).toEqual({ kind: "none" });
    expect(readAnswer([], multiple)).toEqual({ kind: "none" });
    expect(readAnswer("   ", { type: "short_text", options: null })).toEqual({ kind: "none" });
    expect(readAnswer(0, { type: "numeric", options: null })).toEqual({ kind: "number", value: 0 });
    expect(readAnswer("127.0.0.1", { type: "short_text", options: null })).toEqual({
      kind: "text",
      text: "127.0.0.1",
    });
  });
});
