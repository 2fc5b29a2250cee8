import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

import { describe, expect, it } from "vitest";

import { RUNTIME_FILES } from "./runtime-files.mjs";

const root = resolve(__dirname, "..", "..");

/** The project files a module imports by a relative path (`from "./x.mjs"`, `import("../y.mjs")`). */
function relativeImports(file: string): string[] {
  const text = readFileSync(join(root, file), "utf8");
  const specifiers = [...text.matchAll(/(?:from\s+|import\s*\(\s*)["'](\.{1,2}\/[^"']+)["']/g)].map(
    (match) => match[1]!,
  );
  return specifiers.map((specifier) => relative(root, resolve(root, dirname(file), specifier)));
}

describe("RUNTIME_FILES", () => {
  it("lists every project file the listed modules import, so a private copy of a build starts", () => {
    const listed = new Set(RUNTIME_FILES);
    const missing = RUNTIME_FILES.filter((file) => file.endsWith(".mjs")).flatMap((file) =>
      relativeImports(file)
        .filter((imported) => !listed.has(imported))
        .map((imported) => `${file} imports ${imported}`),
    );
    expect(missing).toEqual([]);
  });

  it("sees the imports it checks (the worker's own)", () => {
    expect(relativeImports("scripts/start/worker.mjs")).toEqual(
      expect.arrayContaining(["lib/server/http/fast-path-bodies.mjs", "scripts/start/fast-routes.mjs"]),
    );
  });
});
