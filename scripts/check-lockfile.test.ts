import { readFileSync } from "node:fs";

import { describe, expect, it } from "vitest";

import { checkLockfile } from "./check-lockfile.mjs";

const REGISTRY = "https://registry.example.test/";
const read = (name: string): unknown => JSON.parse(readFileSync(new URL(`../${name}`, import.meta.url), "utf8"));

const SHA512 = `sha512-${"A".repeat(86)}==`;
function lockWith(packages: Record<string, unknown>, root = { dependencies: { a: "1.0.0" } }) {
  return {
    lockfileVersion: 3,
    packages: { "": root, "node_modules/a": { version: "1.0.0", integrity: SHA512 }, ...packages },
  };
}
const pkg = { dependencies: { a: "1.0.0" } };

describe("lockfile integrity (scripts/check-lockfile.mjs)", () => {
  it("the repository's lockfile is sound and matches package.json", () => {
    expect(checkLockfile(read("package-lock.json"), read("package.json"), { registry: REGISTRY })).toEqual([]);
  });

  it("accepts registry packages with a SHA-512 integrity, with or without `resolved` on the registry", () => {
    const lock = lockWith({
      "node_modules/b": { version: "2.0.0", integrity: SHA512, resolved: `${REGISTRY}b/-/b-2.0.0.tgz` },
      "node_modules/c/node_modules/d": { version: "1.0.0", inBundle: true },
    });
    expect(checkLockfile(lock, pkg, { registry: REGISTRY })).toEqual([]);
  });

  it("refuses a missing or weaker integrity", () => {
    const lock = lockWith({
      "node_modules/b": { version: "2.0.0" },
      "node_modules/c": { version: "1.0.0", integrity: "sha1-abcdef" },
    });
    expect(checkLockfile(lock, pkg, { registry: REGISTRY })).toEqual([
      "node_modules/b: integrity is missing",
      "node_modules/c: integrity is not SHA-512",
    ]);
  });

  it("refuses packages from git, another host, plain http or a local path", () => {
    const lock = lockWith({
      "node_modules/g": { integrity: SHA512, resolved: "git+ssh://git@github.com/x/g.git#abc" },
      "node_modules/h": { integrity: SHA512, resolved: "https://evil.example.test/h-1.0.0.tgz" },
      "node_modules/i": { integrity: SHA512, resolved: "http://registry.example.test/i-1.0.0.tgz" },
      "node_modules/j": { integrity: SHA512, resolved: "file:../j" },
    });
    expect(checkLockfile(lock, pkg, { registry: REGISTRY })).toHaveLength(4);
  });

  it("refuses a package.json out of step with the lockfile", () => {
    const lock = lockWith({});
    expect(checkLockfile(lock, { dependencies: { a: "1.0.1" } }, { registry: REGISTRY })).toEqual([
      "dependencies.a: package.json has 1.0.1, the lockfile 1.0.0",
    ]);
    expect(checkLockfile(lock, { dependencies: { a: "1.0.0", z: "3.0.0" } }, { registry: REGISTRY })).toEqual([
      "dependencies.z: package.json has 3.0.0, the lockfile nothing",
    ]);
  });
});
