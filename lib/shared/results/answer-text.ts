/** An answer as staff read it on the late-answers page: nothing, a choice's labels, a number or text. */
export type AnswerReading =
  | { kind: "none" }
  | { kind: "choices"; labels: string[] }
  | { kind: "number"; value: number }
  | { kind: "text"; text: string };

type QuestionForReading = { type: string; options: { id: string; label: string }[] | null };

/**
 * Reads a stored answer value against its question: a choice answer's option ids become the options' labels (in
 * the options' order; an id the question no longer has is shown as itself), a numeric answer a number, anything
 * else text. Null, an empty string, white space or no choice is no answer.
 */
export function readAnswer(value: unknown, question: QuestionForReading | undefined): AnswerReading {
  if (value === null || value === undefined) return { kind: "none" };
  if (question && (question.type === "single_choice" || question.type === "multiple_choice")) {
    const ids = (Array.isArray(value) ? value : [value]).map(String);
    if (ids.length === 0 || ids.every((id) => id.trim() === "")) return { kind: "none" };
    const options = question.options ?? [];
    const known = options.filter((option) => ids.includes(option.id)).map((option) => option.label);
    const unknown = ids.filter((id) => !options.some((option) => option.id === id));
    return { kind: "choices", labels: [...known, ...unknown] };
  }
  if (typeof value === "number") return { kind: "number", value };
  const text = Array.isArray(value) ? value.map(String).join(", ") : String(value);
  return text.trim() === "" ? { kind: "none" } : { kind: "text", text };
}
