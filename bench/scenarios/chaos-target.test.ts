import { describe, expect, it } from "vitest";

import { UsageError } from "../lib/run/args";
import { parseTarget } from "./chaos";

describe("chaos --target", () => {
  it("takes a plain http port on this machine", () => {
    expect(parseTarget("http://127.0.0.1:3000")).toBe(3000);
    expect(parseTarget("http://localhost:8080/")).toBe(8080);
    expect(parseTarget("http://127.0.0.1")).toBe(80);
  });

  it("refuses what the loopback fault proxy cannot reach", () => {
    for (const url of ["https://127.0.0.1:3000", "http://10.0.0.5:3000", "http://127.0.0.1:3000/app", "nonsense"])
      expect(() => parseTarget(url)).toThrow(UsageError);
  });
});
