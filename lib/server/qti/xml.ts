import "server-only";

import { XMLParser, XMLValidator } from "fast-xml-parser";

/** An element of a parsed XML document: its local name (prefix dropped), attributes and children in order. */
export type XmlElement = { name: string; attrs: Record<string, string>; children: XmlNode[] };
export type XmlNode = XmlElement | string;

/** Why an XML file of a package cannot be read at all (QTI_PACKAGE_INVALID `details.reason`). */
type XmlRefusal = "doctype" | "xml_invalid" | "not_utf8";

export class XmlRefused extends Error {
  constructor(readonly reason: XmlRefusal) {
    super(reason);
  }
}

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  removeNSPrefix: true,
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: true,
  // Decodes character references (&#13;, &#x4e2d;); named entities beyond XML's five come only from a DTD,
  // and a DTD is refused before parsing.
  htmlEntities: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
});

type RawNode = Record<string, unknown>;

function convert(raw: RawNode[]): XmlNode[] {
  const nodes: XmlNode[] = [];
  for (const item of raw) {
    if (typeof item["#text"] === "string") {
      nodes.push(item["#text"]);
      continue;
    }
    const name = Object.keys(item).find((key) => key !== ":@" && key !== "#text");
    if (!name || name.startsWith("?") || name === "#comment") continue;
    const attrs = (item[":@"] ?? {}) as Record<string, string>;
    nodes.push({ name, attrs: { ...attrs }, children: convert((item[name] ?? []) as RawNode[]) });
  }
  return nodes;
}

/**
 * Parses one XML file of an uploaded package. Refused whole: bytes that are not UTF-8, any DOCTYPE or
 * ENTITY declaration (entity expansion, external entities: a package never needs a DTD), and XML that is
 * not well-formed. Nothing here ever resolves a URL or touches the file system.
 */
export function parseXml(bytes: Uint8Array): XmlElement {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new XmlRefused("not_utf8");
  }
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw new XmlRefused("doctype");
  let nodes: XmlNode[];
  try {
    if (XMLValidator.validate(text) !== true) throw new XmlRefused("xml_invalid");
    nodes = convert(parser.parse(text) as RawNode[]);
  } catch {
    // Not well-formed, or beyond what the parser takes (e.g. "Maximum nested tags exceeded").
    throw new XmlRefused("xml_invalid");
  }
  const root = nodes.find((node): node is XmlElement => typeof node !== "string");
  if (!root) throw new XmlRefused("xml_invalid");
  return root;
}

export function elements(node: XmlElement, name?: string): XmlElement[] {
  return node.children.filter((c): c is XmlElement => typeof c !== "string" && (name === undefined || c.name === name));
}

export function child(node: XmlElement, name: string): XmlElement | undefined {
  return elements(node, name)[0];
}

/** Every descendant element with this name, in document order. */
export function descendants(node: XmlElement, name: string): XmlElement[] {
  const found: XmlElement[] = [];
  for (const c of elements(node)) {
    if (c.name === name) found.push(c);
    found.push(...descendants(c, name));
  }
  return found;
}

/** The text of an element and its descendants, as written. */
export function textOf(node: XmlElement): string {
  return node.children.map((c) => (typeof c === "string" ? c : textOf(c))).join("");
}

/**
 * Text for an element's content or an attribute value: the five XML specials escaped, and CR, LF and tab
 * written as character references, which a parser keeps as they are (a literal one would be normalised:
 * CR LF to LF in content, any of them to a space in an attribute).
 */
export function escapeXml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;")
    .replace(/\r/g, "&#13;")
    .replace(/\n/g, "&#10;")
    .replace(/\t/g, "&#9;");
}

/** An attribute list: undefined values are left out. */
export function attributes(attrs: Record<string, string | number | undefined>): string {
  return Object.entries(attrs)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => ` ${name}="${escapeXml(String(value))}"`)
    .join("");
}
