// Resolve hooks for scripts/route-table.mjs: `import "server-only"` resolves to an empty module. The table is
// read from the route modules themselves (app/api/route-modules.ts), and one of them imports next-intl, whose
// react-server build does not load in plain Node; so this script cannot use the react-server condition that
// makes "server-only" a no-op for the other scripts (scripts/staff.mjs).
/** @type {import("node:module").ResolveHook} */
export async function resolve(specifier, context, nextResolve) {
  if (specifier === "server-only") return { url: "data:text/javascript,export {};", shortCircuit: true };
  return nextResolve(specifier, context);
}
