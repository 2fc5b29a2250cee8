// `next build` takes minutes on a small machine, so the demo builds only when what goes into the build
// changed: it keeps a hash of the inputs, and the BUILD_ID it produced, in .holdfast/build-hash.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, sep } from "node:path";

import { localBin, runChild } from "./processes";

const INPUTS = [
  "app",
  "components",
  "lib",
  "public",
  "next.config.mjs",
  "package-lock.json",
  "prisma/schema.prisma",
  "tsconfig.json",
  "instrumentation.ts",
  "proxy.ts",
  "middleware.ts",
];
// Generated from prisma/schema.prisma (already an input); tests are not part of the build.
const IGNORED_DIRS = new Set(["node_modules", ".next", join("lib", "server", "db", "generated")]);
const IGNORED_FILE = /\.(test|spec)\.[cm]?[jt]sx?$/;

function listFiles(root: string, path: string): string[] {
  const absolute = join(root, path);
  if (!existsSync(absolute)) return [];
  if (!statSync(absolute).isDirectory()) return IGNORED_FILE.test(path) ? [] : [path];
  if (IGNORED_DIRS.has(path) || IGNORED_DIRS.has(path.split(sep).at(-1) ?? "")) return [];
  return readdirSync(absolute).flatMap((name) => listFiles(root, join(path, name)));
}

function hashInputs(root: string): string {
  const hash = createHash("sha256");
  for (const file of INPUTS.flatMap((input) => listFiles(root, input)).sort()) {
    hash.update(`${file.split(sep).join("/")}\0`);
    hash.update(readFileSync(join(root, file)));
    hash.update("\0");
  }
  return hash.digest("hex");
}

function currentBuildId(root: string): string | null {
  const file = join(root, ".next", "BUILD_ID");
  return existsSync(file) ? readFileSync(file, "utf8").trim() : null;
}

function readStamp(file: string): { inputs?: string; buildId?: string } | null {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as { inputs?: string; buildId?: string };
  } catch {
    return null;
  }
}

/** Runs `next build` unless the last build is of the same inputs and is still the one in .next. */
export async function buildIfChanged(options: {
  root: string;
  stampFile: string;
  isForced: boolean;
  env: NodeJS.ProcessEnv;
}): Promise<{ isBuilt: boolean }> {
  const { root, stampFile } = options;
  const inputs = hashInputs(root);
  const buildId = currentBuildId(root);
  if (!options.isForced && buildId !== null) {
    const stamp = readStamp(stampFile);
    if (stamp?.inputs === inputs && stamp.buildId === buildId) {
      console.log("holdfast: the app is already built from these sources (`npm run demo -- --rebuild` forces a build)");
      return { isBuilt: false };
    }
  }

  console.log("holdfast: building the app (next build); later runs skip this until the sources change");
  await runChild(localBin(root, "next"), ["build"], { cwd: root, env: options.env });
  writeFileSync(stampFile, `${JSON.stringify({ inputs, buildId: currentBuildId(root) })}\n`);
  return { isBuilt: true };
}
