// The floors of lib/server are a lint rule (eslint.config.mjs, docs/decisions/029-the-servers-layers.md). A lint
// rule can stop working without anyone noticing: a resolver that no longer resolves `@/`, a folder renamed, a
// block that a later one overrides. So this test lints small imports with the repository's own config and
// asserts that the forbidden ones fail and the allowed ones pass.
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));

// The fixtures are not files on disk, so the type-aware parsing (which needs them in tsconfig's program) is off
// for them; the import rule reads the resolved paths, which are real.
const eslint = new ESLint({
  cwd: root,
  overrideConfig: {
    languageOptions: { parserOptions: { projectService: false } },
    rules: { "@typescript-eslint/return-await": "off" },
  },
});

/** The layering errors ESLint reports for `code` as if it were the file at `filePath`. */
async function layeringErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  const messages = result?.messages ?? [];
  // A parse error or an unknown rule would make "no layering error" meaningless.
  expect(messages.filter((message) => message.ruleId === null)).toEqual([]);
  return messages
    .filter((message) => message.ruleId === "import/no-restricted-paths" && message.severity === 2)
    .map((message) => message.message);
}

describe("the floors of lib/server", { timeout: 120_000 }, () => {
  it("fails plumbing that imports a domain: db/ reaching into attempts/", async () => {
    const errors = await layeringErrors(
      "lib/server/db/layering-fixture.ts",
      'import { submitAttempt } from "../attempts/submit-attempt";\n\nexport const fixture = submitAttempt;\n',
    );
    expect(errors).toEqual([expect.stringContaining("db/ and redis/ are plumbing")]);
  });

  it("fails it whatever the import's spelling: the @/ alias, a type-only import, from a root file", async () => {
    expect(
      await layeringErrors(
        "lib/server/metrics/layering-fixture.ts",
        'import type { getExamHealth } from "@/lib/server/exam-health/get-exam-health";\n\nexport type Fixture = typeof getExamHealth;\n',
      ),
    ).toHaveLength(1);
    expect(
      await layeringErrors(
        "lib/server/limits/layering-fixture.ts",
        'import { actorOf } from "@/lib/server/auth/actor";\n\nexport const fixture = actorOf;\n',
      ),
    ).toEqual([expect.stringContaining("limits/ and request-stats/ are plumbing")]);
    expect(
      await layeringErrors(
        "lib/server/log.ts",
        'import { startAttempt } from "./attempts/start-attempt";\n\nexport const fixture = startAttempt;\n',
      ),
    ).toHaveLength(1);
  });

  it("fails auth/ that imports a domain, and http/ that imports a domain", async () => {
    expect(
      await layeringErrors(
        "lib/server/auth/layering-fixture.ts",
        'import { listExamStaff } from "../staff/exam-staff";\n\nexport const fixture = listExamStaff;\n',
      ),
    ).toEqual([expect.stringContaining("auth/ sits on the plumbing")]);
    expect(
      await layeringErrors(
        "lib/server/http/layering-fixture.ts",
        'import { listExams } from "../exams/list-exams";\n\nexport const fixture = listExams;\n',
      ),
    ).toEqual([expect.stringContaining("http/ (route()) knows the plumbing and auth, never a domain")]);
  });

  it("fails an operation that imports http/, in any folder the config does not name", async () => {
    expect(
      await layeringErrors(
        "lib/server/attempts/layering-fixture.ts",
        'import { route } from "../http/route";\n\nexport const fixture = route;\n',
      ),
    ).toEqual([expect.stringContaining("operations never import http/")]);
    expect(
      await layeringErrors(
        "lib/server/timeline/layering-fixture.ts",
        'import { jsonResponse } from "@/lib/server/http/json-response";\n\nexport const fixture = jsonResponse;\n',
      ),
    ).toEqual([expect.stringContaining("operations never import http/")]);
  });

  it("passes the imports that go down: an operation on auth and the plumbing, route() on auth", async () => {
    expect(
      await layeringErrors(
        "lib/server/attempts/layering-fixture.ts",
        [
          'import { actorOf } from "../auth/actor";',
          'import { db } from "../db/client";',
          'import { redisKeys } from "@/lib/server/redis/keys";',
          'import { listExams } from "../exams/list-exams";',
          "",
          "export const fixture = [actorOf, db, redisKeys, listExams];",
          "",
        ].join("\n"),
      ),
    ).toEqual([]);
    expect(
      await layeringErrors(
        "lib/server/http/layering-fixture.ts",
        'import { findStaffSession } from "../auth/sessions";\nimport { admission } from "../limits/admission";\n\nexport const fixture = [findStaffSession, admission];\n',
      ),
    ).toEqual([]);
  });
});

describe("README's layout", () => {
  it("names every folder of lib/server", () => {
    const readme = readFileSync(`${root}/README.md`, "utf8");
    const layout = readme.slice(readme.indexOf("## Layout"), readme.indexOf("\n## ", readme.indexOf("## Layout") + 1));
    const folders = readdirSync(`${root}/lib/server`, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.length).toBeGreaterThan(10);
    expect(folders.filter((folder) => !layout.includes(`\`${folder}/\``))).toEqual([]);
  });
});
