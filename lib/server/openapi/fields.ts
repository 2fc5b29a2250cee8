import "server-only";

import type { JsonSchema } from "./build-document";

/** One limit on a field, for the reference page to word in its reader's language. */
export type FieldConstraint =
  | { kind: "minLength" | "maxLength" | "minimum" | "maximum" | "minItems" | "maxItems"; value: number }
  | { kind: "format" | "pattern"; value: string }
  | { kind: "oneOf"; value: string[] }
  | { kind: "default"; value: string };

/** One row of a body's field table: `questions[].options[].id`. */
export type FieldRow = {
  name: string;
  type: string;
  isRequired: boolean;
  constraints: FieldConstraint[];
  description?: string;
  /** For a variant of a union (`type = "essay"`), the condition under which this row applies. */
  when?: string;
};

type Schema = JsonSchema & {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  default?: unknown;
  description?: string;
};

const NUMBER_LIMITS = ["minLength", "maxLength", "minimum", "maximum", "minItems", "maxItems"] as const;

function variantsOf(schema: Schema): Schema[] | undefined {
  return schema.oneOf ?? schema.anyOf;
}

/** `string`, `integer or null`, `array of string`, `object`; what a reader types, not JSON Schema's words. */
function typeOf(schema: Schema): string {
  const variants = variantsOf(schema);
  if (variants) return [...new Set(variants.map(typeOf))].join(" | ");
  if (schema.const !== undefined) return typeof schema.const;
  if (Array.isArray(schema.type)) return schema.type.join(" | ");
  if (schema.type === "array") return schema.items ? `array of ${typeOf(schema.items)}` : "array";
  return schema.type ?? "any";
}

function constraintsOf(schema: Schema): FieldConstraint[] {
  const constraints: FieldConstraint[] = [];
  const nonNull = variantsOf(schema)?.filter((variant) => variant.type !== "null");
  const source = nonNull?.length === 1 ? nonNull[0]! : schema;
  for (const kind of NUMBER_LIMITS) {
    const value = source[kind];
    if (typeof value === "number") constraints.push({ kind, value });
  }
  if (source.format) constraints.push({ kind: "format", value: source.format });
  // A format already says what its (long, generated) pattern checks.
  else if (source.pattern) constraints.push({ kind: "pattern", value: source.pattern });
  if (source.enum) constraints.push({ kind: "oneOf", value: source.enum.map((value) => JSON.stringify(value)) });
  if (source.const !== undefined) constraints.push({ kind: "oneOf", value: [JSON.stringify(source.const)] });
  if (schema.default !== undefined) constraints.push({ kind: "default", value: JSON.stringify(schema.default) });
  return constraints;
}

/** The discriminator of a union's variant: the property whose schema is a `const`, as `type = "essay"`. */
function variantLabel(variant: Schema): string | undefined {
  for (const [name, property] of Object.entries(variant.properties ?? {})) {
    if (property.const !== undefined) return `${name} = ${JSON.stringify(property.const)}`;
  }
  return undefined;
}

function objectRows(schema: Schema, prefix: string, when: string | undefined): FieldRow[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).flatMap(([key, property]) =>
    fieldRows(property, `${prefix}${key}`, required.has(key), when),
  );
}

function fieldRows(schema: Schema, name: string, isRequired: boolean, when: string | undefined): FieldRow[] {
  const row: FieldRow = {
    name,
    type: typeOf(schema),
    isRequired,
    constraints: constraintsOf(schema),
    ...(schema.description ? { description: schema.description } : {}),
    ...(when ? { when } : {}),
  };
  const items = schema.type === "array" ? schema.items : undefined;
  const nested = items ?? schema;
  const prefix = items ? `${name}[].` : `${name}.`;
  const variants = variantsOf(nested)?.filter((variant) => variant.type === "object");
  if (variants && variants.length > 1) {
    return [row, ...variants.flatMap((variant) => objectRows(variant, prefix, variantLabel(variant) ?? when))];
  }
  const object = variants?.length === 1 ? variants[0]! : nested;
  if (object.type === "object" && object.properties) return [row, ...objectRows(object, prefix, when)];
  return [row];
}

/** The fields of a request body (or a parameter list) as table rows, nested names dotted, in schema order. */
export function bodyFields(schema: JsonSchema): FieldRow[] {
  const root = schema as Schema;
  if (root.type === "object" && root.properties) return objectRows(root, "", undefined);
  return fieldRows(root, "(body)", true, undefined);
}
