import { describe, expect, it } from "vitest";

import { MESSAGES } from "@/messages";
import { messageEntries } from "@/messages/entries";

import { DEMO_EXAMS } from "./demo-exams";

describe("the demo's exams", () => {
  it("are one in English and one in Chinese, each with every question type twice", () => {
    expect(DEMO_EXAMS.map((demo) => demo.language)).toEqual(["en", "zh-CN"]);
    for (const { exam } of DEMO_EXAMS) {
      const types = exam.questions.map((question) => question.type).sort();
      expect(types).toEqual(
        ["essay", "multiple_choice", "numeric", "short_text", "single_choice"].flatMap((type) => [type, type]),
      );
    }
    const chinese = DEMO_EXAMS[1]!.exam;
    for (const text of [chinese.title, chinese.description, chinese.rules, ...chinese.questions.map((q) => q.prompt)])
      expect(text, "written in Chinese").toMatch(/\p{Script=Han}/u);
  });

  it("name each button in their rules as the page reads it in the exam's language", () => {
    for (const { exam, language } of DEMO_EXAMS) {
      const quoted = [...(exam.rules ?? "").matchAll(/“([^”]+)”/g)].map((match) => match[1]!);
      expect(quoted.length, `${language}: the rules name the buttons`).toBeGreaterThanOrEqual(3);
      const catalogue = new Set(messageEntries(MESSAGES[language]).map(([, text]) => text));
      for (const name of quoted)
        expect(catalogue.has(name), `${language}: “${name}” is a label on the page`).toBe(true);
    }
  });
});
