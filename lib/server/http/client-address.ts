import "server-only";

/**
 * The address a request came from, for rate limits: the last entry of `X-Forwarded-For`, which a reverse
 * proxy that appends to the header wrote from the connection it accepted; entries before it are whatever the
 * client claimed. Next.js sets the header from the socket only when the request has none, so without such a
 * proxy the client chooses it (README, "Production: the first admin": run behind one; the per-email limit
 * holds either way). Without the header: "unknown", one shared budget, which only in-process tests reach.
 */
export function clientAddress(request: Request): string {
  const forwarded = request.headers.get("x-forwarded-for");
  const last = forwarded?.split(",").at(-1)?.trim();
  return last || "unknown";
}
