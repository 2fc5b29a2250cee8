import "server-only";

type Fields = Record<string, unknown>;

// Nothing secret reaches a log line (issue 18; docs/security.md, "Ways in"): fields named like a credential
// are replaced whole, and credentials inside any text (a join link's path, a bearer token, a session cookie,
// a webhook secret) are cut out of messages, values and error stacks alike.
const SECRET_KEY = /^(authorization|cookie|set-cookie|x-api-key)$|password|secret|token$|^token/i;
const SECRET_TEXT: readonly [RegExp, string][] = [
  [/\/join\/[^/?#\s"'<>]+/g, "/join/[redacted]"],
  [/\b(Bearer|Basic)\s+[^\s"',;]+/gi, "$1 [redacted]"],
  [/\b(holdfast_(?:staff|candidate))=[^;\s"',]*/g, "$1=[redacted]"],
  [/\bwhsec_[A-Za-z0-9+/=]+/g, "whsec_[redacted]"],
  [/([?&](?:token|joinToken|secret|password)=)[^&#\s"']*/gi, "$1[redacted]"],
];
const REDACTED = "[redacted]";
const MAX_DEPTH = 6;

function redactText(text: string): string {
  let out = text;
  for (const [pattern, replacement] of SECRET_TEXT) out = out.replace(pattern, replacement);
  return out;
}

/** `value` as it may be logged: credentials removed, at any depth (exported for its tests). */
export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return redactText(value);
  if (value === null || typeof value !== "object") return value;
  if (depth >= MAX_DEPTH) return "[too deep]";
  if (value instanceof Error) {
    return { name: value.name, message: redactText(value.message), stack: value.stack && redactText(value.stack) };
  }
  if (value instanceof Headers) return redact(Object.fromEntries(value.entries()), depth);
  if (value instanceof Date) return value;
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  const out: Fields = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] = SECRET_KEY.test(key) && inner !== null && inner !== undefined ? REDACTED : redact(inner, depth + 1);
  }
  return out;
}

function write(level: "info" | "warn" | "error", message: string, fields: Fields = {}): void {
  const line = JSON.stringify({
    time: new Date().toISOString(),
    level,
    message: redactText(message),
    ...(redact(fields) as Fields),
  });
  if (level === "error") console.error(line);
  else if (level === "warn") console.warn(line);
  else console.log(line);
}

/** Structured one-line JSON logs, with credentials redacted. */
export const log = {
  info: (message: string, fields?: Fields) => write("info", message, fields),
  warn: (message: string, fields?: Fields) => write("warn", message, fields),
  error: (message: string, fields?: Fields) => write("error", message, fields),
};
