/**
 * What a staff password must be (docs/staff-accounts.md). Checked on the server for every password a person
 * chooses (the CLI, changing one's own) and in the forms first, so the reason is shown before anything is sent.
 *
 * Length is what matters (NIST SP 800-63B §3.1.1.2): at least 12 characters, no composition rules, and a
 * refusal of the passwords everyone tries first and of the account's own email. Temporary passwords made by
 * `generateTemporaryPassword` pass it by construction.
 */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

export type PasswordProblem = "too_short" | "too_long" | "common" | "same_as_email";

// The most used passwords of 12 characters or more in public breach lists, and the obvious variations on this
// product's name. A short list on purpose: the length rule does most of the work.
const COMMON = new Set([
  "123456789012",
  "1234567890123",
  "12345678901234",
  "123456789abc",
  "1q2w3e4r5t6y",
  "qwertyuiopas",
  "qwertyuiop12",
  "qwertyuiop123",
  "qwerty123456",
  "qwertyqwerty",
  "asdfghjkl123",
  "password1234",
  "password12345",
  "password123456",
  "passwordpassword",
  "passw0rd1234",
  "p@ssw0rd1234",
  "p@ssword1234",
  "iloveyou1234",
  "abc123456789",
  "abcdefghijkl",
  "aaaaaaaaaaaa",
  "111111111111",
  "000000000000",
  "changeme1234",
  "letmein12345",
  "welcome12345",
  "administrator",
  "admin1234567",
  "adminadmin123",
  "holdfast1234",
  "holdfast12345",
  "holdfastholdfast",
  "holdfastadmin",
  "holdfastpassword",
  "proctor12345",
  "examination1",
  "examination123",
]);

/** Why `password` may not be used for the account `email`, or null when it may. */
export function passwordProblem(password: string, email?: string): PasswordProblem | null {
  if ([...password].length < PASSWORD_MIN_LENGTH) return "too_short";
  if (password.length > PASSWORD_MAX_LENGTH) return "too_long";
  const lower = password.toLowerCase();
  if (COMMON.has(lower) || /^(.)\1*$/u.test(password)) return "common";
  if (email) {
    const address = email.trim().toLowerCase();
    const local = address.split("@")[0] ?? "";
    if (lower === address || (local.length >= 4 && lower === local)) return "same_as_email";
  }
  return null;
}

/** The English sentence for a problem (the server's message; the interfaces translate `details.reason`). */
export const PASSWORD_PROBLEM_MESSAGES: Record<PasswordProblem, string> = {
  too_short: `The password must be at least ${PASSWORD_MIN_LENGTH} characters long.`,
  too_long: `The password must be at most ${PASSWORD_MAX_LENGTH} characters long.`,
  common: "This password is one of the first that attackers try. Choose another.",
  same_as_email: "The password may not be the account's email address.",
};
