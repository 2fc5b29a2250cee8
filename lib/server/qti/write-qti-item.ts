import "server-only";

import type { QuestionData } from "../exams/question-data";
import { HOLDFAST, QTI } from "./qti-vocabulary";
import { attributes as attrs, escapeXml } from "./xml";

/** An XML name (NCName) a QTI identifier must be. */
const NC_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/** Text as typed, as XHTML: escaped, each line break a `<br/>`. */
function typedText(text: string): string {
  return text.split("\n").map(escapeXml).join("<br/>");
}

/** A number as xs:double writes it: JavaScript's shortest form reads back to the same number. */
const num = (value: number): string => String(value);

/** QTI identifiers for a choice question's option ids: the id itself when it is an XML name. */
function choiceIdentifiers(options: QuestionData["options"]): Map<string, string> {
  const used = new Set(options.map((o) => o.id).filter((id) => NC_NAME.test(id)));
  const map = new Map<string, string>();
  options.forEach((option, index) => {
    if (NC_NAME.test(option.id)) {
      map.set(option.id, option.id);
      return;
    }
    let candidate = `choice-${index + 1}`;
    while (used.has(candidate)) candidate = `${candidate}-x`;
    used.add(candidate);
    map.set(option.id, candidate);
  });
  return map;
}

function values(list: string[]): string {
  return list.map((value) => `<qti-value>${escapeXml(value)}</qti-value>`).join("");
}

function outcomes(points: number): string {
  return [
    `<qti-outcome-declaration${attrs({ identifier: "SCORE", cardinality: "single", "base-type": "float", "normal-maximum": points > 0 ? num(points) : undefined })}>`,
    `<qti-default-value><qti-value>0</qti-value></qti-default-value></qti-outcome-declaration>`,
    `<qti-outcome-declaration identifier="MAXSCORE" cardinality="single" base-type="float">`,
    `<qti-default-value><qti-value>${num(points)}</qti-value></qti-default-value></qti-outcome-declaration>`,
  ].join("\n");
}

const template = (href: string) => `<qti-response-processing${attrs({ template: href })}/>`;

/** The response declaration, the interaction and the response processing of one question. */
function interactionParts(q: QuestionData): { declaration: string; interaction: string; processing: string } {
  switch (q.type) {
    case "single_choice":
    case "multiple_choice": {
      const ids = choiceIdentifiers(q.options);
      const key = q.answerKey === null ? [] : [q.answerKey].flat().map(String);
      const isMultiple = q.type === "multiple_choice";
      const isPartial = isMultiple && q.scoring === "partial";
      const share = key.length > 0 ? q.points / key.length : 0;
      const mapping =
        isPartial && key.length > 0
          ? `<qti-mapping${attrs({ "lower-bound": "0", "upper-bound": num(q.points), "default-value": "0" })}>` +
            q.options
              .map(
                (o) =>
                  `<qti-map-entry${attrs({ "map-key": ids.get(o.id), "mapped-value": num(key.includes(o.id) ? share : -share) })}/>`,
              )
              .join("") +
            `</qti-mapping>`
          : "";
      const correct =
        key.length > 0 ? `<qti-correct-response>${values(key.map((k) => ids.get(k) ?? k))}</qti-correct-response>` : "";
      const choices = q.options
        .map(
          (o) =>
            `<qti-simple-choice${attrs({
              identifier: ids.get(o.id),
              class: HOLDFAST.textClass,
              [HOLDFAST.idAttr]: ids.get(o.id) === o.id ? undefined : o.id,
            })}>${typedText(o.label)}</qti-simple-choice>`,
        )
        .join("\n");
      return {
        declaration: `<qti-response-declaration${attrs({ identifier: "RESPONSE", cardinality: isMultiple ? "multiple" : "single", "base-type": "identifier" })}>${correct}${mapping}</qti-response-declaration>`,
        interaction: `<qti-choice-interaction${attrs({
          "response-identifier": "RESPONSE",
          shuffle: "false",
          "max-choices": isMultiple ? "0" : "1",
          [HOLDFAST.scoringAttr]: q.ungraded && q.scoring === "all_or_nothing" ? "all_or_nothing" : undefined,
        })}>\n${choices}\n</qti-choice-interaction>`,
        // An ungraded (survey) question has no key and nothing to score: no response processing at all.
        processing: q.ungraded ? "" : template(isPartial ? QTI.mapResponse : QTI.matchCorrect),
      };
    }
    case "numeric": {
      const correct =
        typeof q.answerKey === "number"
          ? `<qti-correct-response><qti-value>${num(q.answerKey)}</qti-value></qti-correct-response>`
          : "";
      const comparison =
        q.tolerance === null
          ? `<qti-equal tolerance-mode="exact">`
          : `<qti-equal${attrs({ "tolerance-mode": "absolute", tolerance: `${num(q.tolerance)} ${num(q.tolerance)}` })}>`;
      return {
        declaration: `<qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="float">${correct}</qti-response-declaration>`,
        interaction: `<p><qti-text-entry-interaction response-identifier="RESPONSE" expected-length="15"/></p>`,
        processing: [
          `<qti-response-processing><qti-response-condition><qti-response-if>`,
          `${comparison}<qti-variable identifier="RESPONSE"/><qti-correct identifier="RESPONSE"/></qti-equal>`,
          `<qti-set-outcome-value identifier="SCORE"><qti-variable identifier="MAXSCORE"/></qti-set-outcome-value>`,
          `</qti-response-if></qti-response-condition></qti-response-processing>`,
        ].join("\n"),
      };
    }
    case "short_text": {
      const accepted = Array.isArray(q.answerKey) ? q.answerKey : [];
      const caseSensitive = q.exactMatch ? "true" : "false";
      const mapping =
        accepted.length > 0
          ? `<qti-mapping${attrs({ "lower-bound": "0", "upper-bound": num(q.points), "default-value": "0" })}>` +
            accepted
              .map(
                (answer) =>
                  `<qti-map-entry${attrs({ "map-key": answer, "mapped-value": num(q.points), "case-sensitive": caseSensitive })}/>`,
              )
              .join("") +
            `</qti-mapping>`
          : "";
      const correct =
        accepted.length > 0 ? `<qti-correct-response>${values([accepted[0] ?? ""])}</qti-correct-response>` : "";
      return {
        declaration: `<qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="string">${correct}${mapping}</qti-response-declaration>`,
        interaction: `<p><qti-text-entry-interaction${attrs({
          "response-identifier": "RESPONSE",
          "expected-length": "30",
          [HOLDFAST.exactMatchAttr]: accepted.length === 0 && q.exactMatch ? "true" : undefined,
        })}/></p>`,
        processing: template(QTI.mapResponse),
      };
    }
    case "essay":
      return {
        declaration: `<qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="string"/>`,
        interaction: `<qti-extended-text-interaction response-identifier="RESPONSE" expected-lines="10"/>`,
        // Scored by a person: no response processing.
        processing: "",
      };
  }
}

/** A short title for an item: the prompt's first line, cut at 80 characters. */
function itemTitle(prompt: string): string {
  const line = prompt.split("\n")[0] ?? "";
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

/** One question as a QTI 3.0 `qti-assessment-item` document (docs/authoring.md, "QTI 3.0"). */
export function writeQtiItem(question: QuestionData, identifier: string): string {
  const parts = interactionParts(question);
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<qti-assessment-item${attrs({
      xmlns: QTI.itemNamespace,
      "xmlns:xsi": "http://www.w3.org/2001/XMLSchema-instance",
      "xsi:schemaLocation": `${QTI.itemNamespace} ${QTI.itemSchema}`,
      identifier,
      title: itemTitle(question.prompt),
      adaptive: "false",
      "time-dependent": "false",
    })}>`,
    parts.declaration,
    outcomes(question.points),
    `<qti-item-body>`,
    // The graders' rubric: a QTI rubric block for scorers only (never shown to a candidate by a QTI player).
    question.rubric === ""
      ? ""
      : `<qti-rubric-block use="scoring" view="scorer"><qti-content-body><div class="${HOLDFAST.textClass}">${typedText(question.rubric)}</div></qti-content-body></qti-rubric-block>`,
    `<div class="${HOLDFAST.promptClass} ${HOLDFAST.textClass}">${typedText(question.prompt)}</div>`,
    parts.interaction,
    `</qti-item-body>`,
    parts.processing,
    `</qti-assessment-item>`,
    "",
  ]
    .filter((line) => line !== "")
    .join("\n");
}
