import "server-only";

import { QuestionInputSchema, type QuestionInput, type QuestionType } from "@/lib/shared/schemas/exams";
import type { QtiItemProblem } from "@/lib/shared/schemas/qti";

import { isInteraction, plainText } from "./item-text";
import { HOLDFAST } from "./qti-vocabulary";
import { child, descendants, elements, textOf, type XmlElement } from "./xml";

export type ReadItem =
  | { ok: true; type: QuestionType; prompt: string; input: QuestionInput }
  | { ok: false; type: QuestionType | null; prompt: string; problem: { code: QtiItemProblem; detail?: string } };

const SUPPORTED = new Set(["qti-choice-interaction", "qti-text-entry-interaction", "qti-extended-text-interaction"]);

/** A number attribute or value, or undefined when absent or not a finite number. */
function number(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const parsed = Number(value.trim());
  return Number.isFinite(parsed) ? parsed : undefined;
}

function declaredValues(declaration: XmlElement | undefined, name: string): string[] {
  const holder = declaration ? child(declaration, name) : undefined;
  return holder ? elements(holder, "qti-value").map((v) => textOf(v).trim()) : [];
}

/** The default value of an outcome variable (MAXSCORE), or undefined. */
function outcomeDefault(root: XmlElement, identifier: string): XmlElement | undefined {
  return elements(root, "qti-outcome-declaration").find((o) => o.attrs.identifier === identifier);
}

function templateOf(processing: XmlElement | undefined): "match_correct" | "map_response" | "other" | "custom" | null {
  if (!processing) return null;
  const href = processing.attrs.template ?? processing.attrs["template-location"];
  if (href === undefined) return elements(processing).length > 0 ? "custom" : null;
  if (/match_correct(\.xml)?$/.test(href)) return "match_correct";
  if (/map_response(\.xml)?$/.test(href)) return "map_response";
  return "other";
}

type MapEntry = { key: string; value: number; caseSensitive: boolean };

function mapEntries(declaration: XmlElement | undefined): MapEntry[] | null {
  const mapping = declaration ? child(declaration, "qti-mapping") : undefined;
  if (!mapping) return null;
  return elements(mapping, "qti-map-entry").map((entry) => ({
    key: entry.attrs["map-key"] ?? "",
    value: number(entry.attrs["mapped-value"]) ?? 0,
    caseSensitive: entry.attrs["case-sensitive"] !== "false",
  }));
}

/**
 * The points of an item: MAXSCORE's default value, else SCORE's normal-maximum, else the mapping's upper
 * bound, else what its mapping can earn at most, else 1 (what match_correct gives).
 */
function pointsOf(root: XmlElement, declaration: XmlElement | undefined, entries: MapEntry[] | null): number {
  const max = outcomeDefault(root, "MAXSCORE");
  const fromMax = max ? number(declaredValues(max, "qti-default-value")[0]) : undefined;
  if (fromMax !== undefined) return fromMax;
  const score = outcomeDefault(root, "SCORE");
  const normal = number(score?.attrs["normal-maximum"]);
  if (normal !== undefined) return normal;
  const mapping = declaration ? child(declaration, "qti-mapping") : undefined;
  const upper = number(mapping?.attrs["upper-bound"]);
  if (upper !== undefined) return upper;
  if (entries && entries.length > 0) {
    // One response of single cardinality matches one entry; a multiple one may collect them all.
    const earned = entries.map((e) => Math.max(0, e.value));
    return declaration?.attrs.cardinality === "multiple" ? earned.reduce((a, b) => a + b, 0) : Math.max(...earned);
  }
  return 1;
}

const unsupported = (type: QuestionType | null, prompt: string, code: QtiItemProblem, detail?: string): ReadItem => ({
  ok: false,
  type,
  prompt,
  problem: detail === undefined ? { code } : { code, detail },
});

/**
 * One `qti-assessment-item` as a Holdfast question (docs/authoring.md, "QTI 3.0"): a choice interaction is
 * single or multiple choice by its cardinality, a text entry numeric (float or integer) or short text
 * (string), an extended text an essay. Anything else, or a question that breaks our rules, is reported
 * with the reason and never half-imported.
 */
export function readQtiItem(root: XmlElement): ReadItem {
  if (root.name !== "qti-assessment-item") return unsupported(null, "", "not_qti3", root.name);
  const body = child(root, "qti-item-body");
  const prompt = body ? plainText(body.children, { skipInteractions: true }) : "";
  const interactions = body ? descendantsWhere(body, (e) => isInteraction(e.name)) : [];
  if (interactions.length === 0) return unsupported(null, prompt, "no_interaction");
  const other = interactions.find((i) => !SUPPORTED.has(i.name));
  if (other) return unsupported(null, prompt, "interaction_unsupported", other.name);
  if (interactions.length > 1) return unsupported(null, prompt, "several_interactions", String(interactions.length));
  const interaction = interactions[0] as XmlElement;

  const responseId = interaction.attrs["response-identifier"];
  const declaration = elements(root, "qti-response-declaration").find((d) => d.attrs.identifier === responseId);
  const cardinality = declaration?.attrs.cardinality ?? "single";
  const baseType = declaration?.attrs["base-type"] ?? "string";
  const correct = declaredValues(declaration, "qti-correct-response");
  const entries = mapEntries(declaration);
  const processing = child(root, "qti-response-processing");
  const rule = templateOf(processing);
  const points = pointsOf(root, declaration, entries);

  let type: QuestionType;
  let raw: Record<string, unknown>;
  if (interaction.name === "qti-choice-interaction") {
    if (cardinality !== "single" && cardinality !== "multiple") {
      return unsupported(null, prompt, "scoring_unsupported", `cardinality ${cardinality}`);
    }
    type = cardinality === "multiple" ? "multiple_choice" : "single_choice";
    const choices = descendants(interaction, "qti-simple-choice");
    const idOf = new Map(
      choices.map((c) => [c.attrs.identifier ?? "", c.attrs[HOLDFAST.idAttr] ?? c.attrs.identifier ?? ""]),
    );
    const options = choices.map((c) => ({
      id: idOf.get(c.attrs.identifier ?? "") ?? "",
      label: plainText([c], { skipInteractions: false }),
    }));
    let key = correct.map((value) => idOf.get(value) ?? value);
    if (key.length === 0 && entries) key = entries.filter((e) => e.value > 0).map((e) => idOf.get(e.key) ?? e.key);
    // No key and nothing that scores: a survey item.
    const isUngraded = key.length === 0 && rule === null;
    if (type === "single_choice") {
      if (key.length > 1) return unsupported(type, prompt, "scoring_unsupported", "several correct choices");
      raw = { type, prompt, points, options, answerKey: key[0], ungraded: isUngraded };
    } else {
      const scoring = isUngraded
        ? interaction.attrs[HOLDFAST.scoringAttr] === "all_or_nothing"
          ? "all_or_nothing"
          : "partial"
        : entries !== null || rule === "map_response"
          ? "partial"
          : "all_or_nothing";
      raw = {
        type,
        prompt,
        points,
        options,
        answerKey: key.length > 0 ? key : undefined,
        scoring,
        ungraded: isUngraded,
      };
    }
  } else if (interaction.name === "qti-text-entry-interaction") {
    if (cardinality !== "single") return unsupported(null, prompt, "scoring_unsupported", `cardinality ${cardinality}`);
    if (baseType === "float" || baseType === "integer") {
      type = "numeric";
      const equal = processing ? descendants(processing, "qti-equal")[0] : undefined;
      const mode = equal?.attrs["tolerance-mode"] ?? "exact";
      if (mode !== "exact" && mode !== "absolute") {
        return unsupported(type, prompt, "scoring_unsupported", `tolerance-mode ${mode}`);
      }
      const bounds = (equal?.attrs.tolerance ?? "").trim().split(/\s+/).map(Number);
      const tolerance = mode === "absolute" ? bounds[0] : undefined;
      if (
        tolerance !== undefined &&
        (!Number.isFinite(tolerance) || (bounds[1] !== undefined && bounds[1] !== tolerance))
      ) {
        return unsupported(type, prompt, "scoring_unsupported", `tolerance ${equal?.attrs.tolerance ?? ""}`);
      }
      const key = number(correct[0]);
      if (correct.length > 0 && key === undefined) return unsupported(type, prompt, "invalid", "answerKey");
      raw = { type, prompt, points, answerKey: key, tolerance };
    } else if (baseType === "string") {
      type = "short_text";
      const positive = entries?.filter((e) => e.value > 0) ?? [];
      const accepted = entries && entries.length > 0 ? (positive.length > 0 ? positive : entries) : null;
      const answers = accepted ? accepted.map((e) => e.key) : correct;
      const exactMatch = accepted
        ? accepted.every((e) => e.caseSensitive)
        : answers.length > 0
          ? true // match_correct compares strings exactly
          : interaction.attrs[HOLDFAST.exactMatchAttr] === "true";
      raw = { type, prompt, points, answerKey: answers.length > 0 ? answers : undefined, exactMatch };
    } else {
      return unsupported(null, prompt, "scoring_unsupported", `base-type ${baseType}`);
    }
  } else {
    type = "essay";
    raw = { type, prompt, points };
  }

  // A rubric block for scorers is the graders' rubric (the prompt's text leaves every rubric block out).
  const rubric = body
    ? descendantsWhere(
        body,
        (e) => e.name === "qti-rubric-block" && (e.attrs.view ?? "").split(/\s+/).includes("scorer"),
      )
        .map((block) => plainText(block.children, { skipInteractions: true }))
        .filter((text) => text !== "")
        .join("\n\n")
    : "";
  const parsed = QuestionInputSchema.safeParse(rubric === "" ? raw : { ...raw, rubric });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return unsupported(type, prompt, "invalid", issue ? issue.path.join(".") || issue.message : undefined);
  }
  return { ok: true, type, prompt, input: parsed.data };
}

function descendantsWhere(node: XmlElement, test: (e: XmlElement) => boolean): XmlElement[] {
  const found: XmlElement[] = [];
  for (const c of elements(node)) {
    if (test(c)) {
      found.push(c);
      continue;
    }
    found.push(...descendantsWhere(c, test));
  }
  return found;
}
