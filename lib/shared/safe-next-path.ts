const PROBE_ORIGIN = "http://holdfast.invalid";

/**
 * The `?next=` target after sign-in, if it is safe to follow: a path on this site ("/admin/exams/…").
 * Anything that could leave the site — "https://…", "//host", "/\host", control characters — gives null,
 * so a crafted sign-in link cannot bounce a freshly signed-in admin to someone else's page.
 */
export function safeNextPath(value: unknown): string | null {
  if (typeof value !== "string" || value.length === 0 || value.length > 2_000) return null;
  if (!value.startsWith("/") || value.startsWith("//") || value.includes("\\")) return null;
  for (const character of value) {
    const code = character.charCodeAt(0);
    if (code < 0x20 || code === 0x7f) return null;
  }
  let url: URL;
  try {
    url = new URL(value, PROBE_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== PROBE_ORIGIN) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
