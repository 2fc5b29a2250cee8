import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

import { describe, expect, it } from "vitest";

import { POST as signInRoute } from "@/app/api/staff/session/route";
import { db } from "@/lib/server/db/client";
import { uniqueSuffix } from "@/test-support/server/fixtures";
import { call } from "@/test-support/server/http";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** Runs `npm run staff -- …` as an operator would (the same script, a separate process), on this test's database. */
function staffCli(args: string[], stdin = ""): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ["scripts/staff.mjs", ...args], {
    cwd: root,
    input: stdin,
    encoding: "utf8",
    env: { ...process.env, DATABASE_URL: process.env.DATABASE_URL },
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

// Each run starts Node and tsx, a few seconds on a busy machine.
describe("npm run staff", { timeout: 120_000 }, () => {
  it("creates an admin from a piped password, who can then sign in", async () => {
    const email = `First-Admin-${uniqueSuffix()}@Example.test`;
    const password = "a long and private passphrase";
    const added = staffCli(
      ["add", "--email", email, "--name", "Ada Admin", "--role", "admin", "--password-stdin"],
      `${password}\n`,
    );
    expect(added.stderr).toBe("");
    expect(added.code).toBe(0);
    expect(added.stdout).toContain(`Created admin ${email.toLowerCase()}`);

    const row = await db.staffUser.findUniqueOrThrow({ where: { email: email.toLowerCase() } });
    expect(row).toMatchObject({ role: "admin", name: "Ada Admin", mustChangePassword: false, disabledAt: null });
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);

    const signedIn = await call(signInRoute, { path: "/api/staff/session", json: { email, password } });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toMatchObject({ role: "admin", mustChangePassword: false });

    const listed = staffCli(["list"]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`${email.toLowerCase()}\\tAda Admin\\tadmin\\tactive`));
  });

  it("refuses a weak password with the reason, and creates nothing", async () => {
    const email = `weak-${uniqueSuffix()}@example.test`;
    for (const [password, reason] of [
      ["short", "at least 12 characters"],
      ["Password1234", "first that attackers try"],
      [email, "email"],
    ] as const) {
      const result = staffCli(
        ["add", "--email", email, "--name", "W", "--role", "proctor", "--password-stdin"],
        password,
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(reason);
    }
    expect(await db.staffUser.count({ where: { email } })).toBe(0);
  });

  it("answers a wrong command line with usage and exit code 2", () => {
    const noStdin = staffCli(["add", "--email", "x@example.test", "--name", "X", "--role", "admin"]);
    expect(noStdin.code).toBe(2);
    expect(noStdin.stderr).toContain("--password-stdin is required");
    const badRole = staffCli([
      "add",
      "--email",
      "x@example.test",
      "--name",
      "X",
      "--role",
      "owner",
      "--password-stdin",
    ]);
    expect(badRole.code).toBe(2);
    expect(staffCli(["frobnicate"]).code).toBe(2);
  });

  it("refuses a second account with the same email", () => {
    const email = `twice-${uniqueSuffix()}@example.test`;
    const args = ["add", "--email", email, "--name", "T", "--role", "proctor", "--password-stdin"];
    expect(staffCli(args, "first long password").code).toBe(0);
    const again = staffCli(args, "second long password");
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("already exists");
  });

  it("disables (sign-in refused), enables, and resets a password (old one refused)", async () => {
    const email = `ops-${uniqueSuffix()}@example.test`;
    expect(
      staffCli(
        ["add", "--email", email, "--name", "O", "--role", "proctor", "--password-stdin"],
        "original long password",
      ).code,
    ).toBe(0);

    expect(staffCli(["disable", "--email", email]).code).toBe(0);
    const refused = await call(signInRoute, { json: { email, password: "original long password" } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("ACCOUNT_DISABLED");

    expect(staffCli(["enable", "--email", email]).code).toBe(0);
    const reset = staffCli(["reset-password", "--email", email, "--password-stdin"], "replacement long password\n");
    expect(reset.code).toBe(0);
    expect((await call(signInRoute, { json: { email, password: "original long password" } })).status).toBe(401);
    expect((await call(signInRoute, { json: { email, password: "replacement long password" } })).status).toBe(200);

    const missing = staffCli(["disable", "--email", `nobody-${uniqueSuffix()}@example.test`]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("No staff account");
  });
});
