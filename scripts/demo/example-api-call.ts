import { join } from "node:path";

/** The example request body the demo's printed API call sends: an exam valid against CreateExamSchema. */
export const EXAMPLE_EXAM_FILE = join("docs", "examples", "exam.json");

/**
 * The API call the demo prints, as shell lines: create the example exam with the admin token. The file is
 * named by its absolute path so the command works from any folder. Its reference is GET /api/openapi.json.
 */
export function exampleApiCall(options: { appUrl: string; token: string; root: string }): string[] {
  return [
    `curl -H "Authorization: Bearer ${options.token}" \\`,
    `     -H "Content-Type: application/json" -d "@${join(options.root, EXAMPLE_EXAM_FILE)}" \\`,
    `     ${options.appUrl}/api/admin/exams`,
  ];
}
