// `node --import ./scripts/route-table/register-hooks.mjs`: see server-only-hooks.mjs.
import { register } from "node:module";

register("./server-only-hooks.mjs", import.meta.url);
