import { describe, expect, it } from "vitest";

import { negotiateLocale, resolveLocale, validTimeZone } from "./locales";

describe("negotiateLocale", () => {
  it.each([
    ["zh-CN,zh;q=0.9,en;q=0.8", "zh-CN"],
    ["zh-TW", "zh-CN"],
    ["zh-Hans-CN", "zh-CN"],
    ["en-US,en;q=0.9", "en"],
    ["fr-FR,fr;q=0.9,zh;q=0.5,en;q=0.4", "zh-CN"],
    ["fr-FR, en;q=0.1, zh;q=0.2", "zh-CN"],
    ["de", null],
    ["", null],
    ["*", null],
    ["zh;q=0, en", "en"],
  ])("%s -> %s", (header, expected) => {
    expect(negotiateLocale(header)).toBe(expected);
  });
});

describe("resolveLocale", () => {
  it("prefers the remembered choice, then the header, then English", () => {
    expect(resolveLocale("en", "zh-CN")).toBe("en");
    expect(resolveLocale("zh-CN", "en")).toBe("zh-CN");
    expect(resolveLocale("klingon", "zh-CN,zh")).toBe("zh-CN");
    expect(resolveLocale(undefined, "de")).toBe("en");
    expect(resolveLocale(undefined, null)).toBe("en");
  });
});

describe("validTimeZone", () => {
  it("accepts IANA zones and refuses the rest", () => {
    expect(validTimeZone("Asia/Shanghai")).toBe("Asia/Shanghai");
    expect(validTimeZone("UTC")).toBe("UTC");
    expect(validTimeZone("Mars/Olympus")).toBeNull();
    expect(validTimeZone("")).toBeNull();
    expect(validTimeZone(undefined)).toBeNull();
  });
});
