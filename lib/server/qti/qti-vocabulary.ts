import "server-only";

/** The QTI 3.0 namespaces, resource types and response processing templates Holdfast writes and reads. */
export const QTI = {
  itemNamespace: "http://www.imsglobal.org/xsd/imsqtiasi_v3p0",
  packageNamespace: "http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1",
  itemSchema: "https://purl.imsglobal.org/spec/qti/v3p0/schema/xsd/imsqti_asiv3p0p1_v1p0.xsd",
  itemResourceType: "imsqti_item_xmlv3p0",
  testResourceType: "imsqti_test_xmlv3p0",
  matchCorrect: "https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/match_correct.xml",
  mapResponse: "https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/map_response.xml",
} as const;

/**
 * Holdfast's own marks, for what QTI has no standard place for. All are `data-*` attributes (QTI 3.0 allows
 * them on body elements and other tools ignore them) or a class:
 * - `holdfast-text` on the prompt's `div` and on each choice: its text is ours, written as typed (line
 *   breaks as `<br/>`), so an import reads it back exactly instead of reflowing it as HTML;
 * - `data-holdfast-id` on a choice whose option id is not an XML name (it starts with a digit or `-`);
 * - `data-holdfast-scoring="all_or_nothing"` on an ungraded multiple choice interaction (with a key the
 *   response processing says it);
 * - `data-holdfast-exact-match="true"` on a short text interaction without accepted answers (with answers the
 *   map entries' `case-sensitive` says it).
 */
export const HOLDFAST = {
  textClass: "holdfast-text",
  promptClass: "holdfast-prompt",
  idAttr: "data-holdfast-id",
  scoringAttr: "data-holdfast-scoring",
  exactMatchAttr: "data-holdfast-exact-match",
} as const;
