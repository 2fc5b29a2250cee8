import { isErrorBody, type ErrorCode, type ErrorIssue } from "../errors";

/**
 * A failed API call as the interface needs it: never got an answer, or answered with an error body whose
 * `code` picks the translated sentence (the English `message` is for logs and scripts). Validation issues
 * keep their field paths so the page can name each field in the reader's language.
 */
export type ApiFailure =
  | { kind: "network" }
  | {
      kind: "http";
      status: number;
      code: ErrorCode | null;
      message: string | null;
      issues: ErrorIssue[];
      details?: Record<string, unknown>;
    };

export function failureFromBody(status: number, body: unknown): ApiFailure {
  if (!isErrorBody(body)) return { kind: "http", status, code: null, message: null, issues: [] };
  const raw = body.error.details?.issues;
  const issues = Array.isArray(raw)
    ? raw.flatMap((issue: unknown) => {
        if (typeof issue !== "object" || issue === null) return [];
        const { path, message } = issue as { path?: unknown; message?: unknown };
        return [{ path: typeof path === "string" ? path : "", message: typeof message === "string" ? message : "" }];
      })
    : [];
  return {
    kind: "http",
    status,
    code: body.error.code,
    message: body.error.message,
    issues,
    details: body.error.details,
  };
}

/**
 * The name a field path is translated by: its last word that is not an index
 * (`questions.2.options.0.label` → `label`), and the question's position when it is inside one.
 */
export function fieldKeyOf(path: string): { key: string; questionIndex: number | null } {
  const segments = path.split(".").filter(Boolean);
  const words = segments.filter((segment) => !/^\d+$/.test(segment));
  const questionAt = segments.indexOf("questions");
  const index = questionAt >= 0 ? Number(segments[questionAt + 1]) : NaN;
  return { key: words.at(-1) ?? "", questionIndex: Number.isInteger(index) ? index : null };
}
