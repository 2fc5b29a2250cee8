// The staff CLI (docs: README.md, "Production: the first admin"). Usage is printed by `npm run staff -- help`.
//
// Exit codes: 0 done; 1 refused (weak password, email taken, no such account, last admin…), with the reason
// on stderr; 2 the command line itself is wrong.
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";

// Like Next.js, read .env when the variables are not set already; lib/server/env.mjs parses them on import,
// so everything of the app is imported below, after this.
if (existsSync(".env")) process.loadEnvFile(".env");

const USAGE = `Usage: npm run staff -- <command> [options]

  add --email <email> --name <name> --role admin|proctor|grader --password-stdin
      Create an account whose password is read from standard input (pipe it, or type it when asked).
  list
      Show every account: email, name, role, state.
  disable --email <email>
      Disable an account; its sessions end at once. The last active admin cannot be disabled.
  enable --email <email>
      Enable a disabled account again.
  reset-password --email <email> --password-stdin
      Set a new password (from standard input); the account's sessions end.

Passwords: at least 12 characters, not one of the most common ones, not the account's email.`;

class UsageError extends Error {}

async function readPassword(): Promise<string> {
  if (process.stdin.isTTY) return promptHidden("Password: ");
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  // One trailing newline is the pipe's (echo, a file), not the password's.
  return Buffer.concat(chunks)
    .toString("utf8")
    .replace(/\r?\n$/, "");
}

function promptHidden(question: string): Promise<string> {
  return new Promise((resolvePassword, reject) => {
    process.stderr.write(question);
    const stdin = process.stdin;
    stdin.setRawMode(true);
    stdin.resume();
    stdin.setEncoding("utf8");
    let value = "";
    const onData = (key: string) => {
      for (const char of key) {
        if (char === "\r" || char === "\n") {
          stdin.setRawMode(false);
          stdin.pause();
          stdin.off("data", onData);
          process.stderr.write("\n");
          resolvePassword(value);
          return;
        }
        if (char === "\u0003") {
          stdin.setRawMode(false);
          reject(new UsageError("cancelled"));
          return;
        }
        if (char === "\u007f" || char === "\b") value = [...value].slice(0, -1).join("");
        else value += char;
      }
    };
    stdin.on("data", onData);
  });
}

function required(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== "string" || value.trim() === "") throw new UsageError(`--${name} is required.`);
  return value;
}

function requirePasswordStdin(values: Record<string, unknown>): void {
  if (values["password-stdin"] !== true) {
    throw new UsageError(
      "--password-stdin is required: the password is read from standard input, never the command line.",
    );
  }
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === "help" || command === "--help" || command === "-h") {
    console.log(USAGE);
    return command ? 0 : 2;
  }
  const { values } = parseArgs({
    args: rest,
    options: {
      email: { type: "string" },
      name: { type: "string" },
      role: { type: "string" },
      "password-stdin": { type: "boolean" },
    },
    strict: true,
  });

  const { AppError } = await import("../../lib/shared/errors");
  const { CreateStaffSchema } = await import("../../lib/shared/schemas/staff");
  const { db } = await import("../../lib/server/db/client");
  const { createStaffUser } = await import("../../lib/server/staff/create-staff-user");
  const { listStaffUsers } = await import("../../lib/server/staff/list-staff-users");
  const { setStaffDisabled } = await import("../../lib/server/staff/set-staff-disabled");
  const { resetStaffPassword } = await import("../../lib/server/staff/reset-staff-password");
  const actor = { type: "system" } as const;

  async function accountId(email: string): Promise<string> {
    const row = await db.staffUser.findUnique({ where: { email: email.trim().toLowerCase() }, select: { id: true } });
    if (!row) throw new AppError("NOT_FOUND", `No staff account has the email ${email}.`);
    return row.id;
  }

  try {
    switch (command) {
      case "add": {
        const input = CreateStaffSchema.safeParse({
          email: required(values, "email"),
          name: required(values, "name"),
          role: required(values, "role"),
        });
        if (!input.success) {
          const issue = input.error.issues[0];
          throw new UsageError(
            `--${String(issue?.path[0] ?? "email")}: ${issue?.message ?? "invalid"} (role: admin, proctor or grader).`,
          );
        }
        requirePasswordStdin(values);
        const password = await readPassword();
        const { account } = await createStaffUser({ input: input.data, password, actor });
        console.log(`Created ${account.role} ${account.email} (${account.name}). They can sign in at /signin.`);
        return 0;
      }
      case "list": {
        const accounts = await listStaffUsers();
        if (accounts.length === 0) {
          console.log("No staff accounts yet. Create the first admin with: npm run staff -- add --role admin …");
          return 0;
        }
        for (const account of accounts) {
          const state = account.disabledAt
            ? `disabled since ${account.disabledAt}`
            : account.mustChangePassword
              ? "active, must change password"
              : "active";
          console.log([account.email, account.name, account.role, state].join("\t"));
        }
        return 0;
      }
      case "disable":
      case "enable": {
        const account = await setStaffDisabled({
          staffUserId: await accountId(required(values, "email")),
          disabled: command === "disable",
          actor,
        });
        console.log(`${account.email} is ${account.disabledAt ? "disabled; its sessions have ended" : "enabled"}.`);
        return 0;
      }
      case "reset-password": {
        const staffUserId = await accountId(required(values, "email"));
        requirePasswordStdin(values);
        const password = await readPassword();
        const { account } = await resetStaffPassword({ staffUserId, password, actor });
        console.log(`New password set for ${account.email}; its sessions have ended.`);
        return 0;
      }
      default:
        throw new UsageError(`Unknown command "${command}".`);
    }
  } catch (error) {
    if (error instanceof AppError) {
      console.error(`Refused: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    await db.$disconnect();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError || (error instanceof TypeError && "code" in error)) {
      console.error(`${error.message}\n\n${USAGE}`);
      process.exit(2);
    }
    console.error(error instanceof Error ? `Failed: ${error.message}` : error);
    process.exit(1);
  },
);
