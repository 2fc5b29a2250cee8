import { z } from "zod";

/**
 * The one way browser code imports zod. In the browser zod must not compile parsers with `new Function`: the
 * page's Content-Security-Policy has no `'unsafe-eval'` (docs/security.md), and zod's probe for it would be
 * reported as a violation on every page (harmless, but it hides real ones). `jitless` must be set before any
 * schema is built, which importing `z` from here guarantees. The server keeps zod's compiled parsers.
 */
if (typeof window !== "undefined") z.config({ jitless: true });

export { z };
