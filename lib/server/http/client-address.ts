import "server-only";

/**
 * The address a request came from, for rate limits: the last entry of `X-Forwarded-For`, which the nearest
 * proxy (or Next.js's own server, which sets the header) wrote from the connection it accepted. Entries
 * before it are whatever the client claimed, so they are never used. Without the header: "unknown", one
 * shared budget, which only in-process tests reach.
 */
export function clientAddress(request: Request): string {
  const forwarded = request.headers.get("x-forwarded-for");
  const last = forwarded?.split(",").at(-1)?.trim();
  return last || "unknown";
}
