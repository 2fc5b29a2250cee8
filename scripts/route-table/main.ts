// Rewrites docs/security.md's "Who may call what" tables (between the routes markers) from the code.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { API_ROUTE_MODULES } from "../../app/api/route-modules";
import { apiOperations } from "../../lib/server/openapi/operations";
import { currentRoutesSection, routesSection, withRoutesSection } from "../../lib/server/security/route-table";

const file = join(process.cwd(), "docs", "security.md");
const markdown = readFileSync(file, "utf8");
const operations = apiOperations(API_ROUTE_MODULES);
const isCurrent = currentRoutesSection(markdown) === routesSection(operations);

if (process.argv.includes("--check")) {
  console.log(
    isCurrent ? "docs/security.md: the route tables are current" : "docs/security.md: the route tables are stale",
  );
  process.exit(isCurrent ? 0 : 1);
}
if (isCurrent) {
  console.log("docs/security.md: the route tables are current");
} else {
  writeFileSync(file, withRoutesSection(markdown, operations));
  console.log("docs/security.md: the route tables were rewritten");
}
