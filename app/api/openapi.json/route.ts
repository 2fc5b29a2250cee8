import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { openApiDocument } from "@/lib/server/openapi/build-document";

/** The OpenAPI 3.1 document of this build (lib/server/openapi/registry.ts). The same for everyone: cacheable. */
export const GET = route({ access: "public" }, async () =>
  json(openApiDocument(), { headers: { "Cache-Control": "public, max-age=300" } }),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
