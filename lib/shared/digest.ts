import type { AnswerValue } from "./schemas/attempts";

/**
 * Canonical JSON: objects with their keys sorted (recursively), arrays in order, no whitespace.
 * Numbers and strings use JSON.stringify, which is deterministic in every JavaScript engine.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") {
    if (typeof value === "number" && !Number.isFinite(value)) throw new Error("canonicalJson: non-finite number");
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

type NodeHash = { update(text: string, encoding: "utf8"): NodeHash; digest(encoding: "hex"): string };
type NodeCrypto = { createHash(algorithm: "sha256"): NodeHash };

/**
 * node:crypto on a server (Node 20.16+ gives built-in modules to code that cannot import them, as this module is also
 * bundled for the browser), else undefined. Web Crypto's digest costs a trip to the thread pool and a copy each way:
 * about an eighth of a submit's CPU on the server (docs/benchmarks/log/2026-12-03-exam-day.md, issue 17);
 * node:crypto's is the same SHA-256, computed in place.
 */
const nodeCrypto: NodeCrypto | undefined = (
  globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
).process?.getBuiltinModule?.("node:crypto") as NodeCrypto | undefined;

async function sha256Hex(text: string): Promise<string> {
  if (nodeCrypto) return nodeCrypto.createHash("sha256").update(text, "utf8").digest("hex");
  // Web Crypto is the same API in browsers and in Node (globalThis.crypto).
  const bytes = await globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The digest of an attempt's answers (contract: "digest"): SHA-256 hex of the canonical JSON of
 * `{ questionId: value }`, keys sorted, questions without an answer omitted (a cleared answer, `null`, is no
 * answer: the paper reads as if the question had never been answered). Computed identically by the browser
 * (before submit) and the server (of the frozen paper), so a difference means the paper the server froze is not
 * the one the device holds.
 */
export function answersDigest(answers: Iterable<{ questionId: string; value: AnswerValue }>): Promise<string> {
  const map: Record<string, AnswerValue> = {};
  for (const answer of answers) if (answer.value !== null) map[answer.questionId] = answer.value;
  return sha256Hex(canonicalJson(map));
}

/** SHA-256 hex of a request body's canonical JSON: tells a replay from a reused Idempotency-Key. */
export function requestHash(body: unknown): Promise<string> {
  return sha256Hex(canonicalJson(body));
}
