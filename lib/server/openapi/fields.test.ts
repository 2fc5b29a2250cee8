import { describe, expect, it } from "vitest";

import { API_ROUTE_MODULES } from "@/app/api/route-modules";
import { openApiDocument } from "./build-document";
import { bodyFields } from "./fields";

const document = openApiDocument(API_ROUTE_MODULES);

function requestBody(path: string) {
  const schema = document.paths[path]?.post?.requestBody?.content["application/json"]?.schema;
  if (!schema) throw new Error(`no body for ${path}`);
  return bodyFields(schema);
}

describe("bodyFields", () => {
  it("lists an exam's fields with their limits, nested names dotted, defaults as optional", () => {
    const rows = requestBody("/api/admin/exams");
    expect(rows.find((row) => row.name === "title")).toEqual({
      name: "title",
      type: "string",
      isRequired: true,
      constraints: [
        { kind: "minLength", value: 1 },
        { kind: "maxLength", value: 200 },
      ],
    });
    expect(rows.find((row) => row.name === "status")).toMatchObject({
      isRequired: false,
      constraints: [
        { kind: "oneOf", value: ['"draft"', '"published"', '"closed"'] },
        { kind: "default", value: '"draft"' },
      ],
    });
    expect(rows.find((row) => row.name === "opensAt")).toMatchObject({
      type: "string | null",
      constraints: [{ kind: "format", value: "date-time" }],
    });
    // A draft may start without questions: the list has a default, so it is optional.
    expect(rows.find((row) => row.name === "questions")).toMatchObject({
      type: "array of object",
      isRequired: false,
      constraints: [
        { kind: "maxItems", value: expect.any(Number) },
        { kind: "default", value: "[]" },
      ],
    });
  });

  it("splits a union into its variants, each row saying when it applies", () => {
    const rows = requestBody("/api/admin/exams");
    expect(rows).toContainEqual(
      expect.objectContaining({ name: "questions[].tolerance", when: 'type = "numeric"', isRequired: false }),
    );
    expect(rows).toContainEqual(
      expect.objectContaining({ name: "questions[].options[].id", when: 'type = "single_choice"', isRequired: true }),
    );
    expect(rows.filter((row) => row.name === "questions[].prompt")).toHaveLength(5);
  });

  it("lists a flat body's fields, required as the schema says", () => {
    const rows = requestBody("/api/attempts/{attemptId}/heartbeat");
    expect(rows.find((row) => row.name === "online")).toMatchObject({ type: "boolean", isRequired: true });
    expect(rows.find((row) => row.name === "storagePersisted")).toMatchObject({
      type: "boolean | null",
      isRequired: false,
    });
    expect(rows.find((row) => row.name === "deviceId")?.constraints).toEqual([
      { kind: "pattern", value: "^[A-Za-z0-9_-]{1,64}$" },
    ]);
  });
});
