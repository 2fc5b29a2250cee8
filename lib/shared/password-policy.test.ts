import { describe, expect, it } from "vitest";

import { PASSWORD_MIN_LENGTH, passwordProblem } from "./password-policy";

describe("password policy", () => {
  it("accepts a long password with no other rules", () => {
    expect(passwordProblem("correct horse battery", "ada@example.test")).toBeNull();
    expect(passwordProblem("小心驶得万年船，安全第一！", "ada@example.test")).toBeNull();
  });

  it("refuses a short one, counting characters, not bytes", () => {
    expect(passwordProblem("a".repeat(PASSWORD_MIN_LENGTH - 2) + "bc".slice(1))).toBe("too_short");
    expect(passwordProblem("短密码短密码短密码短密")).toBe("too_short");
  });

  it("refuses common passwords in any case, and one character repeated", () => {
    expect(passwordProblem("Password1234")).toBe("common");
    expect(passwordProblem("zzzzzzzzzzzzzzzz")).toBe("common");
  });

  it("refuses the account's own email or its local part", () => {
    expect(passwordProblem("Ada.Lovelace@Example.test", "ada.lovelace@example.test")).toBe("same_as_email");
    expect(passwordProblem("lovelace.ada.k", "lovelace.ada.k@example.test")).toBe("same_as_email");
  });

  it("refuses one longer than the cap", () => {
    expect(passwordProblem("x1".repeat(200))).toBe("too_long");
  });
});
