import "server-only";

import { HOLDFAST } from "./qti-vocabulary";
import { elements, type XmlElement, type XmlNode } from "./xml";

/** Elements that start a new line in the plain text; paragraphs get a blank line. */
const LINE_BLOCKS = new Set([
  "div",
  "li",
  "dt",
  "dd",
  "tr",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "ul",
  "ol",
  "dl",
  "table",
  "figure",
  "figcaption",
  "section",
  "article",
  "aside",
  "header",
  "footer",
  "nav",
  "hr",
  "qti-prompt",
  "qti-content-body",
]);
const PARAGRAPHS = new Set(["p", "blockquote", "pre"]);

/** Never part of what a candidate reads as the question: feedback, scripts, styles, templates, stimuli refs. */
const SKIPPED = new Set([
  "qti-feedback-inline",
  "qti-feedback-block",
  "qti-modal-feedback",
  "qti-template-inline",
  "qti-template-block",
  "qti-rubric-block",
  "qti-stylesheet",
  "script",
  "style",
  "head",
  "object",
  "audio",
  "video",
  "qti-catalog-info",
]);

const BREAK = "\u0000br";
const LINE = "\u0000line";
const PARA = "\u0000para";

export function isInteraction(name: string): boolean {
  return name.startsWith("qti-") && name.endsWith("-interaction");
}

function hasClass(element: XmlElement, className: string): boolean {
  return (element.attrs.class ?? "").split(/\s+/).includes(className);
}

/** Our own typed text (class holdfast-text): every character as written, `<br/>` a line break. */
function typedText(element: XmlElement): string {
  return element.children.map((c) => (typeof c === "string" ? c : c.name === "br" ? "\n" : typedText(c))).join("");
}

function collect(nodes: XmlNode[], out: string[], options: { isPre: boolean; skipInteractions: boolean }): void {
  for (const node of nodes) {
    if (typeof node === "string") {
      out.push(options.isPre ? node : node.replace(/[ \t\r\n]+/g, " "));
      continue;
    }
    if (SKIPPED.has(node.name)) continue;
    if (hasClass(node, HOLDFAST.textClass)) {
      out.push(LINE, typedText(node).replace(/\n/g, BREAK), LINE);
      continue;
    }
    if (options.skipInteractions && isInteraction(node.name)) {
      // An interaction's own prompt is part of the question; its choices are not.
      const prompt = elements(node, "qti-prompt");
      if (prompt.length > 0) collect(prompt, out, options);
      continue;
    }
    if (node.name === "br") {
      out.push(BREAK);
      continue;
    }
    if (node.name === "img") {
      if (node.attrs.alt) out.push(node.attrs.alt);
      continue;
    }
    if (node.name === "td" || node.name === "th") out.push(" ");
    const mark = PARAGRAPHS.has(node.name) ? PARA : LINE_BLOCKS.has(node.name) ? LINE : null;
    if (mark) out.push(mark);
    collect(node.children, out, { ...options, isPre: options.isPre || node.name === "pre" });
    if (mark) out.push(mark);
  }
}

/**
 * XHTML content as the plain text Holdfast's prompts and labels are: never rendered, only read. Blocks become
 * lines, paragraphs blank-line separated, `<br/>` a line break, runs of white space one space (except in
 * `<pre>` and in text Holdfast itself wrote, class holdfast-text, which comes back exactly), images their alt
 * text, feedback left out.
 */
export function plainText(nodes: XmlNode[], options: { skipInteractions: boolean }): string {
  const out: string[] = [];
  collect(nodes, out, { isPre: false, skipInteractions: options.skipInteractions });
  let text = "";
  let pending: "" | "\n" | "\n\n" = "";
  for (const piece of out) {
    if (piece === LINE || piece === PARA) {
      const want = piece === PARA ? "\n\n" : "\n";
      if (text !== "" && want.length > pending.length) pending = want;
      continue;
    }
    const content = piece.replaceAll(BREAK, "\n");
    if (content === "") continue;
    if (pending !== "") {
      if (content.trim() === "") continue;
      text = text.replace(/[ \t]+$/, "") + pending;
      pending = "";
      text += content.replace(/^[ \t]+/, "");
      continue;
    }
    text += content;
  }
  return text.trim();
}
