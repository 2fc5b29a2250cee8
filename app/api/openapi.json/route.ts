import { z } from "zod";

import { methodsNotAllowed } from "@/lib/server/http/method-not-allowed";
import { json, route } from "@/lib/server/http/route";
import { openApiDocument } from "@/lib/server/openapi/build-document";

import { API_ROUTE_MODULES } from "../route-modules";

/**
 * The OpenAPI 3.1 document of this build, generated from every route's `route()` config (lib/server/openapi).
 * The same for everyone: cacheable.
 */
export const GET = route(
  {
    access: "public",
    doc: {
      operationId: "getOpenApiDocument",
      area: "operations",
      summary: "This document",
      responses: {
        200: { description: "OpenAPI 3.1", schema: z.record(z.string(), z.unknown()) },
      },
    },
  },
  async () => json(openApiDocument(API_ROUTE_MODULES), { headers: { "Cache-Control": "public, max-age=300" } }),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");
