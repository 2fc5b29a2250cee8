// The bad requests of `npm run bench -- bad-input`: every endpoint of the contract (and the app's own
// additions), every way a request can be wrong, generated deterministically from a seed.
//
// A case says what the request must get:
// - `reject` (almost all): a 4xx other than 429 with the contract's JSON error body, optionally one of
//   `statuses` where the contract names the status;
// - `allow`: a request that is not an error under the contract although it carries junk (a body on an
//   endpoint that takes none, a sign-out with a forged cookie, a join link that is not valid, unknown
//   fields next to an empty delta); it must get one of `statuses` and, like every case, change nothing.
import { randomUUID } from "node:crypto";

import { answerValueProblem } from "../../lib/shared/answers";
import type { EmergencyExportFile } from "../../lib/shared/emergency-export";
import { DEVICE_ID_PATTERN, LIMITS } from "../../lib/shared/limits";
import { CreateExamSchema } from "../../lib/shared/schemas/exams";
import { EnrollCandidatesSchema } from "../../lib/shared/schemas/enrollments";
import { HeartbeatSchema } from "../../lib/shared/schemas/heartbeat";
import type { RawRequest } from "./raw-http";

export type Expectation =
  | { kind: "reject"; statuses?: readonly number[] }
  | { kind: "allow"; statuses: readonly number[]; why: string; location?: RegExp; isCookieForbidden?: boolean };

export type BadCase = {
  /** "POST /api/attempts/{attemptId}/answers": the endpoint as the contract writes it. */
  endpoint: string;
  category: Category;
  /** What is wrong with it, in a few words. */
  label: string;
  request: RawRequest;
  expect: Expectation;
};

export const CATEGORIES = [
  "syntax",
  "empty-body",
  "content-type",
  "oversized",
  "limits",
  "field-type",
  "unknown-fields",
  "answer-shape",
  "ids",
  "path-params",
  "auth",
  "idempotency",
  "already-submitted",
  "method",
  "ignored-junk",
  "export-file",
] as const;
export type Category = (typeof CATEGORIES)[number];

export type FixtureQuestion = {
  id: string;
  type: "single_choice" | "multiple_choice" | "short_text" | "essay" | "numeric";
  optionIds: string[];
};
export type FixtureCandidate = { cookie: string; attemptId: string };

/** What the seeding made, through the API (and Postgres for what the API cannot make). */
export type Fixture = {
  adminToken: string;
  metricsToken: string;
  exam: { id: string; questions: FixtureQuestion[] };
  otherExam: { id: string; questions: FixtureQuestion[] };
  draftExam: { id: string };
  /** Candidates of `exam` with attempts in progress. */
  open: FixtureCandidate[];
  /** A candidate of `exam` whose attempt is submitted, with the exact key and body that submitted it. */
  submitted: FixtureCandidate & { idempotencyKey: string; body: Record<string, unknown> };
  /** A candidate of `otherExam`, started. */
  other: FixtureCandidate;
  /** A candidate of the draft exam, joined (no attempt: the exam cannot be started). */
  draftCookie: string;
  expiredCandidateCookie: string;
  expiredStaffCookie: string;
  adminCookie: string;
  /** A proctor assigned to `otherExam` only. */
  proctorCookie: string;
  staff: { adminEmail: string; proctorEmail: string };
  /** Real emergency files, encrypted to the server's key of the attempt they name. */
  exportFiles: {
    /** Names `open[0]`'s attempt; its answers are not questions of the exam: 422 for anyone allowed to upload. */
    invalidAnswers: EmergencyExportFile;
    /** Names `open[1]`'s attempt with valid answers: only an unauthorised uploader may be sent it. */
    validAnswers: EmergencyExportFile;
    /** Decrypt fine, name `open[0]`'s attempt, and carry one answer that is not valid. */
    badPayloads: { label: string; file: EmergencyExportFile }[];
  };
};

// A small seeded PRNG (mulberry32): the same seed gives the same cases in the same order.
export type Random = {
  next(): number;
  int(n: number): number;
  pick<T>(items: readonly T[]): T;
  shuffle<T>(items: T[]): T[];
};
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number): number => Math.floor(next() * n);
  return {
    next,
    int,
    pick: <T>(items: readonly T[]): T => items[int(items.length)] as T,
    shuffle: <T>(items: T[]): T[] => {
      for (let i = items.length - 1; i > 0; i -= 1) {
        const j = int(i + 1);
        [items[i], items[j]] = [items[j] as T, items[i] as T];
      }
      return items;
    },
  };
}

/** A deterministic UUID v4 from the PRNG (never one the server made). */
function fakeUuid(random: Random): string {
  const hex = Array.from({ length: 32 }, () => random.int(16).toString(16));
  hex[12] = "4";
  hex[16] = "89ab"[random.int(4)] ?? "8";
  const text = hex.join("");
  return `${text.slice(0, 8)}-${text.slice(8, 12)}-${text.slice(12, 16)}-${text.slice(16, 20)}-${text.slice(20)}`;
}

/** A well-formed token that names no session: 43 base64url characters, like a real one. */
function fakeToken(random: Random): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  return Array.from({ length: 43 }, () => alphabet[random.int(alphabet.length)]).join("");
}

// ---------------------------------------------------------------------------------------------------
// Junk values, as JSON text (so 2^53 + 1, 1e309 and lone surrogates reach the server as written).

const DEEP = 100_000;
export const JUNK: readonly { name: string; raw: string }[] = [
  { name: "string", raw: '"string"' },
  { name: "empty string", raw: '""' },
  { name: "blank string", raw: '"   "' },
  { name: "zero", raw: "0" },
  { name: "negative", raw: "-1" },
  { name: "float", raw: "1.5" },
  { name: "minus zero", raw: "-0" },
  { name: "2^31", raw: "2147483648" },
  { name: "2^53+1", raw: "9007199254740993" },
  { name: "1e309 (Infinity)", raw: "1e309" },
  { name: "-1e309", raw: "-1e309" },
  { name: "huge exponent", raw: "1e308" },
  { name: "null", raw: "null" },
  { name: "true", raw: "true" },
  { name: "false", raw: "false" },
  { name: "empty array", raw: "[]" },
  { name: "empty object", raw: "{}" },
  { name: "array of number", raw: "[1]" },
  { name: "nested arrays", raw: "[[[[[[[[[[[]]]]]]]]]]]" },
  { name: `${DEEP}-deep arrays`, raw: `${"[".repeat(DEEP)}${"]".repeat(DEEP)}` },
  { name: "__proto__ object", raw: '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}' },
  { name: '"NaN"', raw: '"NaN"' },
  { name: '"Infinity"', raw: '"Infinity"' },
  { name: '"-Infinity"', raw: '"-Infinity"' },
  { name: '"1e309"', raw: '"1e309"' },
  { name: "numeric string", raw: '"42"' },
  { name: "NUL", raw: '"\\u0000"' },
  { name: "NUL inside", raw: '"a\\u0000b"' },
  { name: "lone surrogate", raw: '"\\ud800"' },
  { name: "SQL-ish", raw: '"\' OR 1=1 --"' },
  { name: "SQL drop", raw: '"x\'); DROP TABLE attempts; --"' },
  { name: "markup", raw: '"<script>alert(1)</script>"' },
  { name: "unicode junk", raw: '"\\u202e\\ud83d\\ude00 \\uff46\\uff55\\uff4c\\uff4c \\u0301\\ufeff"' },
  { name: "10k string", raw: JSON.stringify("x".repeat(10_000)) },
];

/** A string Postgres cannot store as text or jsonb (NUL), or that is not Unicode (a lone surrogate). */
export function hasUnstorableText(value: unknown, depth = 0): boolean {
  if (depth > 64) return false;
  if (typeof value === "string")
    return /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(value);
  if (Array.isArray(value)) return value.some((item) => hasUnstorableText(item, depth + 1));
  if (value !== null && typeof value === "object")
    return Object.entries(value).some(
      ([key, item]) => hasUnstorableText(key, depth + 1) || hasUnstorableText(item, depth + 1),
    );
  return false;
}

const SENTINEL = "\u0001junk\u0001";

type Path = readonly (string | number)[];

/** `base` as JSON text with the value at `path` replaced by `raw` JSON text, or removed (`raw` undefined). */
function mutate(base: unknown, path: Path, raw: string | undefined): string {
  const copy = structuredClone(base) as Record<string | number, unknown>;
  let parent: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (raw === undefined) {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
    return JSON.stringify(copy);
  }
  parent[last] = SENTINEL;
  return JSON.stringify(copy).replace(JSON.stringify(SENTINEL), raw);
}

// ---------------------------------------------------------------------------------------------------

const JSON_TYPE = { "content-type": "application/json" };

function post(
  path: string,
  headers: Record<string, string>,
  body?: string | Buffer,
  extra: Partial<RawRequest> = {},
): RawRequest {
  return {
    method: "POST",
    path,
    headers,
    body: body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(body, "utf8"),
    ...extra,
  };
}

function get(path: string, headers: Record<string, string>): RawRequest {
  return { method: "GET", path, headers };
}

const REJECT: Expectation = { kind: "reject" };
const reject = (...statuses: number[]): Expectation => ({ kind: "reject", statuses });

/** A JSON endpoint, with what makes a request to it valid apart from the part a case breaks. */
type BodyEndpoint = {
  endpoint: string;
  path: string;
  /** Credentials that are good for this endpoint. */
  auth: Record<string, string>;
  /** Headers the endpoint needs besides auth (a fresh Idempotency-Key). */
  extraHeaders?: () => Record<string, string>;
  /** A body the endpoint would accept (or, where accepting it would change data, one refused for another reason). */
  validBody: Record<string, unknown>;
  /** Top-level and nested fields to break, one at a time. */
  fields: Path[];
  /** True when the body with this value at this path would be a legal request (so it is not a bad case). */
  isLegal: (body: unknown) => boolean;
};

function candidateCookie(candidate: FixtureCandidate): Record<string, string> {
  return { cookie: candidate.cookie };
}

function validValue(question: FixtureQuestion): unknown {
  switch (question.type) {
    case "single_choice":
      return question.optionIds[0];
    case "multiple_choice":
      return question.optionIds.slice(0, 2);
    case "short_text":
      return "a valid short answer";
    case "essay":
      return "a valid essay";
    case "numeric":
      return 42;
  }
}

function deltaItemIsLegal(item: unknown, questions: readonly FixtureQuestion[]): boolean {
  if (item === null || typeof item !== "object" || Array.isArray(item)) return false;
  const { questionId, value, version, editedAt } = item as Record<string, unknown>;
  const question = questions.find((candidate) => candidate.id === questionId);
  if (!question) return false;
  if (typeof version !== "number" || !Number.isInteger(version) || version < 1 || version > LIMITS.maxVersion)
    return false;
  if (
    editedAt !== undefined &&
    (typeof editedAt !== "string" ||
      Number.isNaN(Date.parse(editedAt)) ||
      !/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/.test(editedAt))
  )
    return false;
  if (value === null || value === undefined) return false;
  if (hasUnstorableText(value)) return false;
  try {
    const options = question.optionIds.map((id) => ({ id, label: id }));
    return answerValueProblem({ type: question.type, options }, value) === null;
  } catch {
    // A value too deeply nested for the check to describe is not a legal answer.
    return false;
  }
}

/** The contract's rule for a delta body (autosave, submit), independent of the app's own schema. */
function deltaBodyIsLegal(body: unknown, questions: readonly FixtureQuestion[], isSubmit: boolean): boolean {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return false;
  const { deviceId, answers, digest } = body as Record<string, unknown>;
  if (typeof deviceId !== "string" || !DEVICE_ID_PATTERN.test(deviceId)) return false;
  if (isSubmit && answers === undefined)
    return digest === undefined || (typeof digest === "string" && /^[0-9a-f]{64}$/.test(digest));
  if (!Array.isArray(answers) || answers.length > questions.length) return false;
  if (!answers.every((item) => deltaItemIsLegal(item, questions))) return false;
  if (isSubmit && digest !== undefined && (typeof digest !== "string" || !/^[0-9a-f]{64}$/.test(digest))) return false;
  return true;
}

function bodyEndpoints(fixture: Fixture, random: Random): BodyEndpoint[] {
  const { exam } = fixture;
  const own = (): FixtureCandidate => random.pick(fixture.open);
  const delta = exam.questions.map((question, index) => ({
    questionId: question.id,
    value: validValue(question),
    version: 1_000 + index,
  }));
  const heartbeat = {
    deviceId: "bench-bad",
    online: true,
    pending: 0,
    oldestPendingMs: 0,
    lastAckRevision: 1,
    clock: 1,
    consecutiveFailures: 0,
    storagePersisted: true,
  };
  const exam0 = {
    title: "Bad input",
    durationSeconds: 3600,
    graceSeconds: 60,
    opensAt: "2026-01-01T00:00:00Z",
    closesAt: "2036-01-01T00:00:00Z",
    status: "published",
    questions: [
      {
        type: "single_choice",
        prompt: "?",
        options: [
          { id: "a", label: "A" },
          { id: "b", label: "B" },
        ],
        answerKey: "a",
        points: 1,
      },
      { type: "numeric", prompt: "?", answerKey: 42, tolerance: 0.5, points: 1 },
    ],
  };
  const isLegalExam = (body: unknown): boolean => CreateExamSchema.safeParse(body).success && !hasUnstorableText(body);
  const isLegalEnroll = (body: unknown): boolean =>
    EnrollCandidatesSchema.safeParse(body).success && !hasUnstorableText(body);
  const fileFields: Path[] = ["format", "v", "attemptId", "deviceId", "ephemeralPublicKey", "iv", "ciphertext"].map(
    (field) => [field],
  );
  const candidate = own();
  const submitter = own();
  return [
    {
      endpoint: "POST /api/attempts/{attemptId}/answers",
      path: `/api/attempts/${candidate.attemptId}/answers`,
      auth: candidateCookie(candidate),
      validBody: { deviceId: "bench-bad", answers: delta.slice(0, 2) },
      fields: [
        ["deviceId"],
        ["answers"],
        ["answers", 0],
        ["answers", 0, "questionId"],
        ["answers", 0, "version"],
        ["answers", 0, "editedAt"],
        ["answers", 0, "value"],
        ["answers", 1, "value"],
        ["answers", 1, "version"],
      ],
      isLegal: (body) => deltaBodyIsLegal(body, exam.questions, false),
    },
    {
      endpoint: "POST /api/attempts/{attemptId}/submit",
      path: `/api/attempts/${submitter.attemptId}/submit`,
      auth: candidateCookie(submitter),
      extraHeaders: () => ({ "idempotency-key": randomUUID() }),
      validBody: { deviceId: "bench-bad", answers: delta.slice(1, 3), digest: "0".repeat(64) },
      fields: [
        ["deviceId"],
        ["answers"],
        ["answers", 0],
        ["answers", 0, "questionId"],
        ["answers", 0, "version"],
        ["answers", 0, "editedAt"],
        ["answers", 0, "value"],
        ["answers", 1, "value"],
        ["digest"],
      ],
      isLegal: (body) => deltaBodyIsLegal(body, exam.questions, true),
    },
    {
      endpoint: "POST /api/attempts/{attemptId}/heartbeat",
      path: `/api/attempts/${own().attemptId}/heartbeat`,
      auth: {},
      validBody: heartbeat,
      fields: Object.keys(heartbeat).map((field) => [field]),
      isLegal: (body) => HeartbeatSchema.safeParse(body).success,
    },
    {
      endpoint: "POST /api/admin/exams",
      path: "/api/admin/exams",
      auth: { authorization: `Bearer ${fixture.adminToken}` },
      validBody: exam0,
      fields: [
        ["title"],
        ["description"],
        ["rules"],
        ["durationSeconds"],
        ["graceSeconds"],
        ["opensAt"],
        ["closesAt"],
        ["status"],
        ["questions"],
        ["questions", 0],
        ["questions", 0, "type"],
        ["questions", 0, "prompt"],
        ["questions", 0, "points"],
        ["questions", 0, "options"],
        ["questions", 0, "options", 0, "id"],
        ["questions", 0, "options", 0, "label"],
        ["questions", 0, "answerKey"],
        ["questions", 1, "answerKey"],
        ["questions", 1, "tolerance"],
      ],
      isLegal: isLegalExam,
    },
    {
      endpoint: "POST /api/admin/exams/{examId}/candidates",
      path: `/api/admin/exams/${exam.id}/candidates`,
      auth: { authorization: `Bearer ${fixture.adminToken}` },
      validBody: { candidates: [{ name: "Bad Input", email: "bad-input@holdfast.test", extraSeconds: 0 }] },
      fields: [
        ["candidates"],
        ["candidates", 0],
        ["candidates", 0, "name"],
        ["candidates", 0, "email"],
        ["candidates", 0, "extraSeconds"],
      ],
      isLegal: isLegalEnroll,
    },
    {
      endpoint: "POST /api/session",
      path: "/api/session",
      auth: {},
      validBody: { joinToken: fakeToken(random) },
      fields: [["joinToken"]],
      // No junk value is anyone's join token.
      isLegal: () => false,
    },
    {
      endpoint: "POST /api/staff/session",
      path: "/api/staff/session",
      auth: {},
      validBody: { email: fixture.staff.adminEmail, password: "not the password" },
      fields: [["email"], ["password"]],
      isLegal: () => false,
    },
    {
      endpoint: "POST /api/admin/emergency-exports",
      path: "/api/admin/emergency-exports",
      auth: { authorization: `Bearer ${fixture.adminToken}` },
      // Decrypts, but names questions of no exam: 422 whatever else is right.
      validBody: fixture.exportFiles.invalidAnswers,
      fields: fileFields,
      isLegal: () => false,
    },
  ];
}

/** The heartbeat's cookie must own the attempt in its path; the others carry theirs in `auth`. */
function withAuth(endpoint: BodyEndpoint, fixture: Fixture): Record<string, string> {
  if (endpoint.endpoint !== "POST /api/attempts/{attemptId}/heartbeat") return endpoint.auth;
  const owner = fixture.open.find((candidate) => endpoint.path.includes(candidate.attemptId));
  return owner ? candidateCookie(owner) : {};
}

// ---------------------------------------------------------------------------------------------------

function bodyCases(fixture: Fixture, random: Random): BadCase[] {
  const cases: BadCase[] = [];
  for (const endpoint of bodyEndpoints(fixture, random)) {
    const headers = (): Record<string, string> => ({
      ...JSON_TYPE,
      ...withAuth(endpoint, fixture),
      ...(endpoint.extraHeaders?.() ?? {}),
    });
    const valid = JSON.stringify(endpoint.validBody);
    const add = (category: Category, label: string, request: RawRequest, expect: Expectation = REJECT): void => {
      cases.push({ endpoint: endpoint.endpoint, category, label, request, expect });
    };

    // Syntax: not JSON at all, or JSON cut short.
    const malformed = [
      "{",
      '{"deviceId":',
      '{"a":1,}',
      "{'a':1}",
      "[1,2",
      "nul",
      '{"a":1}}',
      '{"a":NaN}',
      '{"a":Infinity}',
      '{"a":undefined}',
      '{"a":0x10}',
      '{"a":01}',
      '{"a":"\\x41"}',
      '{"a":"unterminated}',
      `${valid}garbage`,
      `${valid},${valid}`,
      "<html><body>hello</body></html>",
      "deviceId=x&answers=y",
      "\u0000",
    ];
    for (const text of malformed)
      add(
        "syntax",
        `malformed JSON ${JSON.stringify(text.slice(0, 40))}`,
        post(endpoint.path, headers(), text),
        reject(400),
      );
    add(
      "syntax",
      "byte-order mark before valid JSON",
      post(endpoint.path, headers(), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(valid)])),
      reject(400),
    );
    add("syntax", "UTF-16 encoded JSON", post(endpoint.path, headers(), Buffer.from(valid, "utf16le")), reject(400));
    const bytes = Buffer.from(Array.from({ length: 64 }, () => random.int(256)));
    add("syntax", "random bytes", post(endpoint.path, headers(), bytes), reject(400));
    // Invalid UTF-8 inside a string of an otherwise valid body: not JSON (RFC 8259 is UTF-8), however lenient a decoder.
    const broken = Buffer.from(
      valid.replace(/"bench-bad"|"Bad input"|"Bad Input"|"not the password"|"holdfast-emergency-export"/, '"\u0001"'),
    );
    const at = broken.indexOf(1);
    if (at !== -1) {
      broken[at] = 0xff;
      add("syntax", "invalid UTF-8 byte inside a string", post(endpoint.path, headers(), broken), reject(400));
    }
    for (let i = 0; i < 4; i += 1) {
      const cut = 1 + random.int(valid.length - 1);
      add(
        "syntax",
        `truncated at ${cut}/${valid.length}`,
        post(endpoint.path, headers(), valid.slice(0, cut)),
        reject(400),
      );
    }

    // Empty bodies.
    add("empty-body", "no body", { method: "POST", path: endpoint.path, headers: headers() }, reject(400));
    add("empty-body", "zero-length body", post(endpoint.path, headers(), ""), reject(400));
    add("empty-body", "whitespace body", post(endpoint.path, headers(), " \n\t "), reject(400));

    // Wrong content types on an otherwise valid body: the contract's bodies are JSON.
    const auth = { ...withAuth(endpoint, fixture), ...(endpoint.extraHeaders?.() ?? {}) };
    for (const type of [
      "text/plain",
      "text/plain;charset=UTF-8",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=xyz",
      "application/xml",
      "application/jsonx",
      "image/png",
    ]) {
      add(
        "content-type",
        `valid body as ${type}`,
        post(endpoint.path, { ...auth, "content-type": type }, valid),
        reject(415),
      );
    }
    add("content-type", "valid body without Content-Type", post(endpoint.path, { ...auth }, valid), reject(415));

    // Oversized: just over 1 MB, well over it, streamed without a length, and a declared length alone.
    const padding = (bytes: number): string => {
      const empty = mutate(endpoint.validBody, ["padding"], '""');
      return mutate(
        endpoint.validBody,
        ["padding"],
        JSON.stringify("x".repeat(Math.max(0, Math.floor(bytes) - Buffer.byteLength(empty)))),
      );
    };
    add("oversized", "1 MB + 1 byte", post(endpoint.path, headers(), padding(LIMITS.maxBodyBytes + 1)), reject(413));
    add("oversized", "3 MB", post(endpoint.path, headers(), padding(3 * LIMITS.maxBodyBytes)), reject(413));
    add(
      "oversized",
      "1.5 MB chunked, no Content-Length",
      post(endpoint.path, headers(), padding(1.5 * LIMITS.maxBodyBytes), { chunkBytes: 64 * 1024 }),
      reject(413),
    );
    add(
      "oversized",
      "Content-Length: 5 MB declared",
      post(endpoint.path, { ...headers(), "content-length": String(5 * LIMITS.maxBodyBytes) }, "{}"),
      reject(413),
    );

    // The root of the wrong type.
    for (const root of ["[]", '"string"', "1", "null", "true", "[{}]"])
      add("field-type", `body ${root}`, post(endpoint.path, headers(), root));

    // Every field: every junk value that is not legal there, and the field missing.
    for (const path of endpoint.fields) {
      const where = path.join(".");
      for (const junk of JUNK) {
        const text = mutate(endpoint.validBody, path, junk.raw);
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          continue;
        }
        if (endpoint.isLegal(parsed)) continue;
        add("field-type", `${where} = ${junk.name}`, post(endpoint.path, headers(), text));
      }
      const without = mutate(endpoint.validBody, path, undefined);
      if (!endpoint.isLegal(JSON.parse(without)))
        add("field-type", `${where} missing`, post(endpoint.path, headers(), without));
    }

    // Unknown fields and prototype keys, next to one broken field: the extra keys must not change the outcome.
    const firstField = endpoint.fields[0] ?? ["x"];
    const brokenBody = JSON.parse(mutate(endpoint.validBody, firstField, "[[[]]]")) as Record<string, unknown>;
    for (const extra of [
      '"__proto__":{"admin":true}',
      '"constructor":{"prototype":{"admin":true}}',
      '"id":"00000000-0000-4000-8000-000000000000"',
      '"status":"submitted"',
      '"role":"admin"',
      '"revision":999999',
    ]) {
      const text = `{${extra},${JSON.stringify(brokenBody).slice(1)}`;
      add(
        "unknown-fields",
        `{${extra.slice(0, 30)}…} with ${firstField.join(".")} broken`,
        post(endpoint.path, headers(), text),
      );
    }
  }
  return cases;
}

/** The contract's limits, each just past its edge, on a request otherwise valid. */
function limitCases(fixture: Fixture, random: Random): BadCase[] {
  const cases: BadCase[] = [];
  const { exam } = fixture;
  const byType = (type: FixtureQuestion["type"]): FixtureQuestion =>
    exam.questions.find((question) => question.type === type) as FixtureQuestion;
  const answers = (
    candidate: FixtureCandidate,
    items: unknown[],
    label: string,
    category: Category = "limits",
    deviceId = "bench-bad",
  ): void => {
    cases.push({
      endpoint: "POST /api/attempts/{attemptId}/answers",
      category,
      label,
      request: post(
        `/api/attempts/${candidate.attemptId}/answers`,
        { ...JSON_TYPE, cookie: candidate.cookie },
        JSON.stringify({ deviceId, answers: items }),
      ),
      expect: reject(422),
    });
  };
  const submit = (
    candidate: FixtureCandidate,
    items: unknown[],
    label: string,
    category: Category = "limits",
  ): void => {
    cases.push({
      endpoint: "POST /api/attempts/{attemptId}/submit",
      category,
      label,
      request: post(
        `/api/attempts/${candidate.attemptId}/submit`,
        { ...JSON_TYPE, cookie: candidate.cookie, "idempotency-key": randomUUID() },
        JSON.stringify({ deviceId: "bench-bad", answers: items }),
      ),
      expect: reject(422),
    });
  };
  const own = (): FixtureCandidate => random.pick(fixture.open);
  const shortText = byType("short_text");
  const essay = byType("essay");
  const single = byType("single_choice");
  const multiple = byType("multiple_choice");
  const numeric = byType("numeric");
  const version = (): number => 2_000 + random.int(1_000);

  for (const send of [answers, submit]) {
    send(
      own(),
      [{ questionId: shortText.id, value: "x".repeat(LIMITS.shortTextChars + 1), version: version() }],
      `short text of ${LIMITS.shortTextChars + 1} characters`,
    );
    send(
      own(),
      [{ questionId: shortText.id, value: "é".repeat(LIMITS.shortTextChars + 1), version: version() }],
      `short text of ${LIMITS.shortTextChars + 1} two-byte characters`,
    );
    send(
      own(),
      [{ questionId: essay.id, value: "x".repeat(LIMITS.essayChars + 1), version: version() }],
      `essay of ${LIMITS.essayChars + 1} characters`,
    );
    send(
      own(),
      [{ questionId: essay.id, value: "y".repeat(LIMITS.essayChars * 3), version: version() }],
      `essay of ${LIMITS.essayChars * 3} characters (under 1 MB)`,
    );
    send(own(), [{ questionId: single.id, value: "a", version: LIMITS.maxVersion + 1 }], "version 2^31");
    send(
      own(),
      Array.from({ length: exam.questions.length + 1 }, (_, index) => {
        const question = exam.questions[index % exam.questions.length] as FixtureQuestion;
        return { questionId: question.id, value: validValue(question), version: version() };
      }),
      `${exam.questions.length + 1} answers for ${exam.questions.length} questions`,
    );
    send(
      own(),
      Array.from({ length: LIMITS.maxQuestionsPerExam + 1 }, () => ({
        questionId: single.id,
        value: "a",
        version: version(),
      })),
      `${LIMITS.maxQuestionsPerExam + 1} answers`,
    );
    send(
      own(),
      Array.from({ length: 10_000 }, () => ({ questionId: single.id, value: "a", version: 1 })),
      "10,000 answers (under 1 MB)",
    );
  }
  answers(
    own(),
    [{ questionId: single.id, value: "a", version: version() }],
    "deviceId of 65 characters",
    "limits",
    "d".repeat(65),
  );
  answers(
    own(),
    [{ questionId: single.id, value: "a", version: version() }],
    "deviceId with a space",
    "limits",
    "my device",
  );
  answers(
    own(),
    [{ questionId: single.id, value: "a", version: version() }],
    "deviceId with unicode",
    "limits",
    "gerät",
  );
  answers(own(), [{ questionId: single.id, value: "a", version: version() }], "empty deviceId", "limits", "");

  // Answer shapes per question type: each value wrong for its question, sent alone and next to a valid
  // answer with a high version (nothing of the request may be applied).
  const wrong: [FixtureQuestion, unknown, string][] = [
    [single, "z", "option that does not exist"],
    [single, "A", "option id in the wrong case"],
    [single, " a", "option id with a space"],
    [single, "", "empty option id"],
    [single, ["a"], "array for single choice"],
    [single, { id: "a" }, "object for single choice"],
    [single, 1, "number for single choice"],
    [single, true, "boolean for single choice"],
    [multiple, ["a", "a"], "duplicate options"],
    [multiple, ["a", "z"], "one option that does not exist"],
    [multiple, ["a", "b", "c", "d", "e"], "more options than the question has"],
    [multiple, "a", "string for multiple choice"],
    [multiple, [1, 2], "numbers for multiple choice"],
    [multiple, [["a"]], "nested array for multiple choice"],
    [multiple, [null], "null option"],
    [multiple, [{ id: "a" }], "object option"],
    [multiple, {}, "object for multiple choice"],
    [shortText, 42, "number for short text"],
    [shortText, ["text"], "array for short text"],
    [shortText, { text: "x" }, "object for short text"],
    [shortText, false, "boolean for short text"],
    [shortText, "a\u0000b", "NUL in short text"],
    [shortText, "\ud800", "lone surrogate in short text"],
    [essay, 1, "number for essay"],
    [essay, "essay\u0000", "NUL in essay"],
    [essay, "\udfff essay", "lone low surrogate in essay"],
    [numeric, "42", "numeric string"],
    [numeric, "NaN", '"NaN"'],
    [numeric, "Infinity", '"Infinity"'],
    [numeric, [], "array for numeric"],
    [numeric, {}, "object for numeric"],
    [numeric, true, "boolean for numeric"],
  ];
  for (const [question, value, label] of wrong) {
    answers(
      own(),
      [{ questionId: question.id, value, version: version() }],
      `${question.type}: ${label}`,
      "answer-shape",
    );
    answers(
      own(),
      [
        { questionId: numeric.id, value: 7, version: LIMITS.maxVersion },
        { questionId: question.id, value, version: version() },
      ],
      `${question.type}: ${label}, next to a valid answer`,
      "answer-shape",
    );
    submit(
      own(),
      [{ questionId: question.id, value, version: version() }],
      `${question.type}: ${label}`,
      "answer-shape",
    );
  }
  // Values only JSON text can carry: 1e309 is Infinity once parsed.
  for (const raw of ["1e309", "-1e309"]) {
    const candidate = own();
    cases.push({
      endpoint: "POST /api/attempts/{attemptId}/answers",
      category: "answer-shape",
      label: `numeric: ${raw}`,
      request: post(
        `/api/attempts/${candidate.attemptId}/answers`,
        { ...JSON_TYPE, cookie: candidate.cookie },
        `{"deviceId":"bench-bad","answers":[{"questionId":"${numeric.id}","value":${raw},"version":${version()}}]}`,
      ),
      expect: reject(422),
    });
  }
  // Questions that are not this exam's.
  const foreignQuestion = fixture.otherExam.questions[0] as FixtureQuestion;
  for (const send of [answers, submit]) {
    send(
      own(),
      [{ questionId: foreignQuestion.id, value: validValue(foreignQuestion), version: version() }],
      "question of another exam",
      "ids",
    );
    send(
      own(),
      [{ questionId: fakeUuid(random), value: "a", version: version() }],
      "question id that does not exist",
      "ids",
    );
    send(own(), [{ questionId: exam.id, value: "a", version: version() }], "the exam's own id as a question id", "ids");
    send(
      own(),
      [
        { questionId: numeric.id, value: 1, version: version() },
        { questionId: fakeUuid(random), value: "a", version: version() },
      ],
      "one unknown question next to a valid answer",
      "ids",
    );
  }
  return cases;
}

/** Ids in paths: malformed, unknown, someone else's, the wrong kind. */
function idCases(fixture: Fixture, random: Random): BadCase[] {
  const cases: BadCase[] = [];
  const { exam, otherExam, open, submitted, other } = fixture;
  const me = (): FixtureCandidate => random.pick(open);
  const junkIds = [
    "not-a-uuid",
    "123",
    "00000000-0000-0000-0000-000000000000",
    "ffffffff-ffff-ffff-ffff-ffffffffffff",
    `${fakeUuid(random)}0`,
    fakeUuid(random).replaceAll("-", ""),
    encodeURIComponent("' OR '1'='1"),
    encodeURIComponent("1; DROP TABLE attempts; --"),
    "%00",
    "%ZZ",
    "%E2%98%83",
    "%C0%AF",
    "..%2F..%2Fetc%2Fpasswd",
    "x".repeat(2_000),
    encodeURIComponent("{{7*7}}"),
  ];
  const delta = (questions: readonly FixtureQuestion[]): string =>
    JSON.stringify({
      deviceId: "bench-bad",
      answers: questions.slice(0, 2).map((question) => ({
        questionId: question.id,
        value: validValue(question),
        version: 3_000 + random.int(1_000),
      })),
    });
  const heartbeat = JSON.stringify({
    deviceId: "bench-bad",
    online: true,
    pending: 0,
    oldestPendingMs: 0,
    lastAckRevision: 1,
    clock: 1,
    consecutiveFailures: 0,
  });

  type AttemptEndpoint = {
    endpoint: string;
    request: (attemptId: string, cookie: string, questions: readonly FixtureQuestion[]) => RawRequest;
  };
  const attemptEndpoints: AttemptEndpoint[] = [
    { endpoint: "GET /api/attempts/{attemptId}", request: (id, cookie) => get(`/api/attempts/${id}`, { cookie }) },
    {
      endpoint: "GET /api/attempts/{attemptId}/export-key",
      request: (id, cookie) => get(`/api/attempts/${id}/export-key`, { cookie }),
    },
    {
      endpoint: "POST /api/attempts/{attemptId}/answers",
      request: (id, cookie, questions) =>
        post(`/api/attempts/${id}/answers`, { ...JSON_TYPE, cookie }, delta(questions)),
    },
    {
      endpoint: "POST /api/attempts/{attemptId}/submit",
      request: (id, cookie, questions) =>
        post(`/api/attempts/${id}/submit`, { ...JSON_TYPE, cookie, "idempotency-key": randomUUID() }, delta(questions)),
    },
    {
      endpoint: "POST /api/attempts/{attemptId}/heartbeat",
      request: (id, cookie) => post(`/api/attempts/${id}/heartbeat`, { ...JSON_TYPE, cookie }, heartbeat),
    },
  ];
  for (const { endpoint, request } of attemptEndpoints) {
    // Valid bodies: only the id is wrong, so anything but 404 is a leak or a write.
    const neighbour = open.find((candidate) => candidate !== open[0]) as FixtureCandidate;
    cases.push({
      endpoint,
      category: "ids",
      label: "another candidate's attempt, same exam",
      request: request(neighbour.attemptId, (open[0] as FixtureCandidate).cookie, exam.questions),
      expect: reject(404),
    });
    cases.push({
      endpoint,
      category: "ids",
      label: "another candidate's submitted attempt",
      request: request(submitted.attemptId, me().cookie, exam.questions),
      expect: reject(404),
    });
    cases.push({
      endpoint,
      category: "ids",
      label: "an attempt of another exam",
      request: request(other.attemptId, me().cookie, otherExam.questions),
      expect: reject(404),
    });
    cases.push({
      endpoint,
      category: "ids",
      label: "own attempt id from another exam's candidate",
      request: request(me().attemptId, other.cookie, exam.questions),
      expect: reject(404),
    });
    cases.push({
      endpoint,
      category: "ids",
      label: "unknown attempt id",
      request: request(fakeUuid(random), me().cookie, exam.questions),
      expect: reject(404),
    });
    cases.push({
      endpoint,
      category: "ids",
      label: "the exam's id as an attempt id",
      request: request(exam.id, me().cookie, exam.questions),
      expect: reject(404),
    });
    for (const id of junkIds) {
      cases.push({
        endpoint,
        category: "path-params",
        label: `attempt id ${JSON.stringify(id.slice(0, 40))}`,
        request: request(id, me().cookie, exam.questions),
        expect: REJECT,
      });
    }
  }

  // Starting an attempt.
  const start = (examId: string, cookie: string): RawRequest => post(`/api/exams/${examId}/attempts`, { cookie });
  const startEndpoint = "POST /api/exams/{examId}/attempts";
  cases.push({
    endpoint: startEndpoint,
    category: "ids",
    label: "another exam's id",
    request: start(otherExam.id, me().cookie),
    expect: reject(404),
  });
  cases.push({
    endpoint: startEndpoint,
    category: "ids",
    label: "unknown exam id",
    request: start(fakeUuid(random), me().cookie),
    expect: reject(404),
  });
  cases.push({
    endpoint: startEndpoint,
    category: "ids",
    label: "an attempt id as the exam id",
    request: start(me().attemptId, me().cookie),
    expect: reject(404),
  });
  cases.push({
    endpoint: startEndpoint,
    category: "ids",
    label: "a draft exam (not published)",
    request: start(fixture.draftExam.id, fixture.draftCookie),
    expect: reject(409),
  });
  for (const id of junkIds)
    cases.push({
      endpoint: startEndpoint,
      category: "path-params",
      label: `exam id ${JSON.stringify(id.slice(0, 40))}`,
      request: start(id, me().cookie),
      expect: REJECT,
    });

  // Enrolling into an exam that does not exist, with a valid roster.
  const roster = JSON.stringify({ candidates: [{ name: "Nobody", email: "nobody@holdfast.test" }] });
  const enroll = (examId: string): RawRequest =>
    post(
      `/api/admin/exams/${examId}/candidates`,
      { ...JSON_TYPE, authorization: `Bearer ${fixture.adminToken}` },
      roster,
    );
  const enrollEndpoint = "POST /api/admin/exams/{examId}/candidates";
  cases.push({
    endpoint: enrollEndpoint,
    category: "ids",
    label: "unknown exam id",
    request: enroll(fakeUuid(random)),
    expect: reject(404),
  });
  cases.push({
    endpoint: enrollEndpoint,
    category: "ids",
    label: "an attempt id as the exam id",
    request: enroll(me().attemptId),
    expect: reject(404),
  });
  for (const id of junkIds)
    cases.push({
      endpoint: enrollEndpoint,
      category: "path-params",
      label: `exam id ${JSON.stringify(id.slice(0, 40))}`,
      request: enroll(id),
      expect: REJECT,
    });
  return cases;
}

/** Missing, forged, expired and wrong-role credentials, each on a request otherwise valid. */
function authCases(fixture: Fixture, random: Random): BadCase[] {
  const cases: BadCase[] = [];
  const candidate = random.pick(fixture.open);
  const questions = fixture.exam.questions;
  const delta = JSON.stringify({
    deviceId: "bench-bad",
    answers: [
      {
        questionId: (questions[0] as FixtureQuestion).id,
        value: validValue(questions[0] as FixtureQuestion),
        version: 5_000,
      },
    ],
  });
  const heartbeat = JSON.stringify({
    deviceId: "bench-bad",
    online: true,
    pending: 0,
    oldestPendingMs: 0,
    lastAckRevision: 1,
    clock: 1,
    consecutiveFailures: 0,
  });
  const exam = JSON.stringify({
    title: "Never",
    durationSeconds: 3600,
    status: "published",
    questions: [{ type: "essay", prompt: "?" }],
  });
  const roster = JSON.stringify({ candidates: [{ name: "Never", email: "never@holdfast.test" }] });

  const forgedCandidate = `holdfast_candidate=${fakeToken(random)}`;
  const forgedStaff = `holdfast_staff=${fakeToken(random)}`;
  const candidateIds: [string, Record<string, string>][] = [
    ["no cookie", {}],
    ["forged candidate cookie", { cookie: forgedCandidate }],
    ["expired candidate cookie", { cookie: fixture.expiredCandidateCookie }],
    ["cookie with broken percent-encoding", { cookie: "holdfast_candidate=%E0%A4%A" }],
    ["empty candidate cookie", { cookie: "holdfast_candidate=" }],
    ["cookie under another name", { cookie: candidate.cookie.replace("holdfast_candidate", "holdfast_candidat") }],
    ["staff (admin) cookie", { cookie: fixture.adminCookie }],
    ["admin bearer token instead of a cookie", { authorization: `Bearer ${fixture.adminToken}` }],
    ["SQL-ish cookie", { cookie: `holdfast_candidate=${encodeURIComponent("' OR 1=1 --")}` }],
    ["8 KB cookie", { cookie: `holdfast_candidate=${"a".repeat(8_000)}` }],
  ];
  const candidateRequests: [string, (headers: Record<string, string>) => RawRequest][] = [
    ["POST /api/exams/{examId}/attempts", (headers) => post(`/api/exams/${fixture.exam.id}/attempts`, headers)],
    ["GET /api/attempts/{attemptId}", (headers) => get(`/api/attempts/${candidate.attemptId}`, headers)],
    [
      "GET /api/attempts/{attemptId}/export-key",
      (headers) => get(`/api/attempts/${candidate.attemptId}/export-key`, headers),
    ],
    [
      "POST /api/attempts/{attemptId}/answers",
      (headers) => post(`/api/attempts/${candidate.attemptId}/answers`, { ...JSON_TYPE, ...headers }, delta),
    ],
    [
      "POST /api/attempts/{attemptId}/submit",
      (headers) =>
        post(
          `/api/attempts/${candidate.attemptId}/submit`,
          { ...JSON_TYPE, ...headers, "idempotency-key": randomUUID() },
          delta,
        ),
    ],
    [
      "POST /api/attempts/{attemptId}/heartbeat",
      (headers) => post(`/api/attempts/${candidate.attemptId}/heartbeat`, { ...JSON_TYPE, ...headers }, heartbeat),
    ],
  ];
  for (const [endpoint, request] of candidateRequests) {
    for (const [label, headers] of candidateIds)
      cases.push({ endpoint, category: "auth", label, request: request(headers), expect: reject(401) });
  }

  const staffIds: [string, Record<string, string>, number][] = [
    ["no credentials", {}, 401],
    ["forged bearer token", { authorization: `Bearer ${fakeToken(random)}` }, 401],
    ["empty bearer token", { authorization: "Bearer " }, 401],
    ["bearer token with a suffix", { authorization: `Bearer ${fixture.adminToken}x` }, 401],
    ["bearer token cut short", { authorization: `Bearer ${fixture.adminToken.slice(0, -1)}` }, 401],
    [
      "Basic credentials",
      { authorization: `Basic ${Buffer.from(`admin:${fixture.adminToken}`).toString("base64")}` },
      401,
    ],
    ["the metrics token as bearer", { authorization: `Bearer ${fixture.metricsToken}` }, 401],
    ["forged staff cookie", { cookie: forgedStaff }, 401],
    ["expired staff cookie", { cookie: fixture.expiredStaffCookie }, 401],
    ["candidate cookie", { cookie: candidate.cookie }, 401],
    [
      "candidate token in the staff cookie",
      { cookie: candidate.cookie.replace("holdfast_candidate", "holdfast_staff") },
      401,
    ],
  ];
  const adminRequests: [string, (headers: Record<string, string>) => RawRequest][] = [
    ["POST /api/admin/exams", (headers) => post("/api/admin/exams", { ...JSON_TYPE, ...headers }, exam)],
    [
      "POST /api/admin/exams/{examId}/candidates",
      (headers) => post(`/api/admin/exams/${fixture.exam.id}/candidates`, { ...JSON_TYPE, ...headers }, roster),
    ],
  ];
  for (const [endpoint, request] of adminRequests) {
    for (const [label, headers, status] of staffIds)
      cases.push({ endpoint, category: "auth", label, request: request(headers), expect: reject(status) });
    cases.push({
      endpoint,
      category: "auth",
      label: "proctor cookie on an admin route",
      request: request({ cookie: fixture.proctorCookie }),
      expect: reject(403),
    });
  }
  const uploadEndpoint = "POST /api/admin/emergency-exports";
  const upload = (headers: Record<string, string>): RawRequest =>
    post(
      "/api/admin/emergency-exports",
      { ...JSON_TYPE, ...headers },
      JSON.stringify(fixture.exportFiles.validAnswers),
    );
  for (const [label, headers, status] of staffIds)
    cases.push({
      endpoint: uploadEndpoint,
      category: "auth",
      label: `${label} (a valid file)`,
      request: upload(headers),
      expect: reject(status),
    });
  cases.push({
    endpoint: uploadEndpoint,
    category: "auth",
    label: "a proctor not assigned to the attempt's exam (a valid file)",
    request: upload({ cookie: fixture.proctorCookie }),
    expect: reject(404),
  });

  const metricsIds: [string, Record<string, string>][] = [
    ["no credentials (METRICS_TOKEN set)", {}],
    ["forged bearer token", { authorization: `Bearer ${fakeToken(random)}` }],
    ["metrics token with a suffix", { authorization: `Bearer ${fixture.metricsToken}x` }],
    ["candidate cookie", { cookie: candidate.cookie }],
    ["forged staff cookie", { cookie: forgedStaff }],
    ["expired staff cookie", { cookie: fixture.expiredStaffCookie }],
  ];
  for (const [label, headers] of metricsIds)
    cases.push({
      endpoint: "GET /api/metrics",
      category: "auth",
      label,
      request: get("/api/metrics", headers),
      expect: reject(401),
    });

  // Sign-in with the wrong secret: a well-formed request that must change nothing.
  const signIn = (email: string, password: string): RawRequest =>
    post("/api/staff/session", JSON_TYPE, JSON.stringify({ email, password }));
  const signInEndpoint = "POST /api/staff/session";
  cases.push({
    endpoint: signInEndpoint,
    category: "auth",
    label: "admin, wrong password",
    request: signIn(fixture.staff.adminEmail, "wrong password"),
    expect: reject(401),
  });
  cases.push({
    endpoint: signInEndpoint,
    category: "auth",
    label: "proctor, wrong password",
    request: signIn(fixture.staff.proctorEmail, "wrong password"),
    expect: reject(401),
  });
  cases.push({
    endpoint: signInEndpoint,
    category: "auth",
    label: "unknown email",
    request: signIn("nobody@holdfast.test", "whatever"),
    expect: reject(401),
  });
  cases.push({
    endpoint: signInEndpoint,
    category: "auth",
    label: "admin email in upper case, wrong password",
    request: signIn(fixture.staff.adminEmail.toUpperCase(), "x"),
    expect: reject(401),
  });
  cases.push({
    endpoint: signInEndpoint,
    category: "auth",
    label: "password of 1,001 characters",
    request: signIn(fixture.staff.adminEmail, "p".repeat(1_001)),
    expect: reject(422),
  });
  cases.push({
    endpoint: "POST /api/session",
    category: "auth",
    label: "well-formed unknown join token",
    request: post("/api/session", JSON_TYPE, JSON.stringify({ joinToken: fakeToken(random) })),
    expect: reject(404),
  });
  cases.push({
    endpoint: "POST /api/session",
    category: "limits",
    label: "join token of 257 characters",
    request: post("/api/session", JSON_TYPE, JSON.stringify({ joinToken: "t".repeat(257) })),
    expect: reject(422),
  });
  cases.push({
    endpoint: "POST /api/session",
    category: "auth",
    label: "a session cookie instead of a join token",
    request: post("/api/session", JSON_TYPE, JSON.stringify({ joinToken: candidate.cookie.split("=")[1] })),
    expect: reject(404),
  });
  return cases;
}

/** Idempotency-Key problems, and writes to a submitted attempt. */
function idempotencyCases(fixture: Fixture, random: Random): BadCase[] {
  const cases: BadCase[] = [];
  const endpoint = "POST /api/attempts/{attemptId}/submit";
  const candidate = random.pick(fixture.open);
  const questions = fixture.exam.questions;
  const body = JSON.stringify({
    deviceId: "bench-bad",
    answers: [
      {
        questionId: (questions[2] as FixtureQuestion).id,
        value: validValue(questions[2] as FixtureQuestion),
        version: 6_000,
      },
    ],
  });
  const keys: [string, string | undefined][] = [
    ["missing Idempotency-Key", undefined],
    ["empty Idempotency-Key", ""],
    ["Idempotency-Key of 256 characters", "k".repeat(256)],
    ["Idempotency-Key of 4,000 characters", "k".repeat(4_000)],
    ["Idempotency-Key with a tab", "abc\tdef"],
    ["Idempotency-Key with a Latin-1 byte", "cl\u00e9"],
    ["Idempotency-Key with bytes of UTF-8", Buffer.from("ключ", "utf8").toString("latin1")],
  ];
  for (const [label, key] of keys) {
    const headers: Record<string, string> = { ...JSON_TYPE, cookie: candidate.cookie };
    if (key !== undefined) headers["idempotency-key"] = key;
    cases.push({
      endpoint,
      category: "idempotency",
      label,
      request: post(`/api/attempts/${candidate.attemptId}/submit`, headers, body),
      expect: reject(400),
    });
  }

  // The submitted attempt: its key with other bodies, and other keys.
  const { submitted } = fixture;
  const original = submitted.body as { deviceId: string; answers: unknown[]; digest?: string };
  const replay = (
    headers: Record<string, string>,
    text: string,
    label: string,
    statuses: number[],
    category: Category,
  ): void => {
    cases.push({
      endpoint,
      category,
      label,
      request: post(
        `/api/attempts/${submitted.attemptId}/submit`,
        { ...JSON_TYPE, cookie: submitted.cookie, ...headers },
        text,
      ),
      expect: reject(...statuses),
    });
  };
  const sameKey = { "idempotency-key": submitted.idempotencyKey };
  replay(
    sameKey,
    JSON.stringify({ ...original, deviceId: "another-device" }),
    "replayed key, another deviceId",
    [422],
    "idempotency",
  );
  replay(sameKey, JSON.stringify({ ...original, answers: [] }), "replayed key, an empty delta", [422], "idempotency");
  replay(
    sameKey,
    JSON.stringify({ ...original, digest: "f".repeat(64) }),
    "replayed key, another digest",
    [422],
    "idempotency",
  );
  replay(
    sameKey,
    JSON.stringify({ deviceId: original.deviceId }),
    "replayed key, only the deviceId",
    [422],
    "idempotency",
  );
  replay(
    sameKey,
    JSON.stringify({
      ...original,
      answers: [{ questionId: (questions[4] as FixtureQuestion).id, value: 1, version: 9_999 }],
    }),
    "replayed key, another answer",
    [422],
    "idempotency",
  );
  replay(
    sameKey,
    JSON.stringify({
      ...original,
      answers: [{ questionId: (questions[0] as FixtureQuestion).id, value: "zzz", version: 9_999 }],
    }),
    "replayed key, an invalid answer",
    [422],
    "idempotency",
  );
  replay(
    { "idempotency-key": `${submitted.idempotencyKey} ` },
    JSON.stringify({ ...original, deviceId: "x", answers: [] }),
    "replayed key with a trailing space, another body",
    [409, 422],
    "idempotency",
  );
  replay(
    { "idempotency-key": submitted.idempotencyKey.toUpperCase() },
    JSON.stringify({ ...original, answers: [] }),
    "the key in upper case, an empty delta",
    [409],
    "already-submitted",
  );
  // A different key on a submitted attempt: 409 ALREADY_SUBMITTED. An empty delta, so no late answer is due.
  replay(
    { "idempotency-key": randomUUID() },
    JSON.stringify({ deviceId: "bench-bad", answers: [] }),
    "another key, an empty delta",
    [409],
    "already-submitted",
  );
  replay(
    { "idempotency-key": randomUUID() },
    JSON.stringify({ deviceId: "bench-bad" }),
    "another key, no answers field",
    [409],
    "already-submitted",
  );
  replay(
    { "idempotency-key": randomUUID() },
    JSON.stringify({
      ...original,
      answers: [{ questionId: (questions[0] as FixtureQuestion).id, value: "zzz", version: 9 }],
    }),
    "another key, an invalid answer",
    [422],
    "already-submitted",
  );
  replay({}, JSON.stringify(original), "the original body without its key", [400], "idempotency");
  cases.push({
    endpoint: "POST /api/attempts/{attemptId}/answers",
    category: "already-submitted",
    label: "an empty delta to a submitted attempt",
    request: post(
      `/api/attempts/${submitted.attemptId}/answers`,
      { ...JSON_TYPE, cookie: submitted.cookie },
      JSON.stringify({ deviceId: "bench-bad", answers: [] }),
    ),
    expect: reject(409),
  });
  cases.push({
    endpoint: "POST /api/attempts/{attemptId}/answers",
    category: "already-submitted",
    label: "an invalid answer to a submitted attempt",
    request: post(
      `/api/attempts/${submitted.attemptId}/answers`,
      { ...JSON_TYPE, cookie: submitted.cookie },
      JSON.stringify({
        deviceId: "bench-bad",
        answers: [{ questionId: (questions[0] as FixtureQuestion).id, value: "zzz", version: 9 }],
      }),
    ),
    expect: reject(422),
  });
  return cases;
}

/** Emergency files that decrypt to nothing, or to something that must not be stored. */
function exportFileCases(fixture: Fixture): BadCase[] {
  const cases: BadCase[] = [];
  const endpoint = "POST /api/admin/emergency-exports";
  const admin = { ...JSON_TYPE, authorization: `Bearer ${fixture.adminToken}` };
  const file = fixture.exportFiles.invalidAnswers;
  const flip = (text: string, at: number): string =>
    `${text.slice(0, at)}${text[at] === "A" ? "B" : "A"}${text.slice(at + 1)}`;
  const variants: [string, unknown][] = [
    ["valid file, answers to no question of the exam", file],
    ["ciphertext with one character changed", { ...file, ciphertext: flip(file.ciphertext, 5) }],
    ["ciphertext's tag changed", { ...file, ciphertext: flip(file.ciphertext, file.ciphertext.length - 3) }],
    ["ciphertext cut short", { ...file, ciphertext: file.ciphertext.slice(0, 20) }],
    ["iv changed", { ...file, iv: flip(file.iv, 0) }],
    ["another attempt named in the header", { ...file, attemptId: fixture.open[1]?.attemptId }],
    ["another device named in the header", { ...file, deviceId: "another-device" }],
    ["ephemeral key not on the curve", { ...file, ephemeralPublicKey: "B".repeat(87) }],
    ["ephemeral key changed", { ...file, ephemeralPublicKey: flip(file.ephemeralPublicKey, 10) }],
    [
      "valid-answers file with its header moved to another attempt",
      { ...fixture.exportFiles.validAnswers, attemptId: fixture.open[0]?.attemptId },
    ],
    ["a file of version 2", { ...file, v: 2 }],
    ["another format", { ...file, format: "holdfast-emergency-export-v0" }],
    ["an unknown attempt", { ...file, attemptId: "7c9e6679-7425-40de-944b-e07fc1f90ae7" }],
  ];
  for (const { label, file: bad } of fixture.exportFiles.badPayloads)
    variants.push([`decrypts, but holds ${label}`, bad]);
  for (const [label, body] of variants)
    cases.push({
      endpoint,
      category: "export-file",
      label,
      request: post("/api/admin/emergency-exports", admin, JSON.stringify(body)),
      expect: reject(422, 404),
    });
  cases.push({
    endpoint,
    category: "export-file",
    label: "the invalid-answers file from the admin's session",
    request: post("/api/admin/emergency-exports", { ...JSON_TYPE, cookie: fixture.adminCookie }, JSON.stringify(file)),
    expect: reject(422),
  });
  return cases;
}

type MethodTarget = { endpoint: string; path: string; allowed: readonly string[]; headers: Record<string, string> };

/** Methods an endpoint does not have, with good credentials. */
function methodCases(fixture: Fixture, random: Random): BadCase[] {
  const candidate = random.pick(fixture.open);
  const admin = { authorization: `Bearer ${fixture.adminToken}` };
  const cookie = { cookie: candidate.cookie };
  const targets: MethodTarget[] = [
    { endpoint: "POST /api/admin/exams", path: "/api/admin/exams", allowed: ["POST"], headers: admin },
    {
      endpoint: "POST /api/admin/exams/{examId}/candidates",
      path: `/api/admin/exams/${fixture.exam.id}/candidates`,
      allowed: ["POST"],
      headers: admin,
    },
    {
      endpoint: "POST /api/admin/emergency-exports",
      path: "/api/admin/emergency-exports",
      allowed: ["POST"],
      headers: admin,
    },
    { endpoint: "POST /api/session", path: "/api/session", allowed: ["POST", "DELETE"], headers: {} },
    { endpoint: "POST /api/staff/session", path: "/api/staff/session", allowed: ["POST", "DELETE"], headers: {} },
    {
      endpoint: "POST /api/exams/{examId}/attempts",
      path: `/api/exams/${fixture.exam.id}/attempts`,
      allowed: ["POST"],
      headers: cookie,
    },
    {
      endpoint: "GET /api/attempts/{attemptId}",
      path: `/api/attempts/${candidate.attemptId}`,
      allowed: ["GET"],
      headers: cookie,
    },
    {
      endpoint: "GET /api/attempts/{attemptId}/export-key",
      path: `/api/attempts/${candidate.attemptId}/export-key`,
      allowed: ["GET"],
      headers: cookie,
    },
    {
      endpoint: "POST /api/attempts/{attemptId}/answers",
      path: `/api/attempts/${candidate.attemptId}/answers`,
      allowed: ["POST"],
      headers: cookie,
    },
    {
      endpoint: "POST /api/attempts/{attemptId}/submit",
      path: `/api/attempts/${candidate.attemptId}/submit`,
      allowed: ["POST"],
      headers: cookie,
    },
    {
      endpoint: "POST /api/attempts/{attemptId}/heartbeat",
      path: `/api/attempts/${candidate.attemptId}/heartbeat`,
      allowed: ["POST"],
      headers: cookie,
    },
    { endpoint: "GET /api/health", path: "/api/health", allowed: ["GET"], headers: {} },
    {
      endpoint: "GET /api/metrics",
      path: "/api/metrics",
      allowed: ["GET"],
      headers: { authorization: `Bearer ${fixture.metricsToken}` },
    },
  ];
  const cases: BadCase[] = [];
  for (const target of targets) {
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
      if (target.allowed.includes(method)) continue;
      const hasBody = method !== "GET";
      cases.push({
        endpoint: target.endpoint,
        category: "method",
        label: `${method} ${target.path.replace(/[0-9a-f-]{36}/g, "{id}")}`,
        request: {
          method,
          path: target.path,
          headers: hasBody ? { ...target.headers, ...JSON_TYPE } : target.headers,
          body: hasBody ? Buffer.from("{}") : undefined,
        },
        expect: reject(405),
      });
    }
  }
  return cases;
}

/** The proctor endpoints of the contract: foreign credentials, bodies meant for no action, and bad ids. */
function proctorCases(fixture: Fixture, random: Random): BadCase[] {
  const cases: BadCase[] = [];
  const attempt = random.pick(fixture.open).attemptId;
  const endpoints: [string, string, string][] = [
    ["GET /api/proctor/exams/{examId}/candidates", "GET", `/api/proctor/exams/${fixture.exam.id}/candidates`],
    ["GET /api/proctor/exams/{examId}/events", "GET", `/api/proctor/exams/${fixture.exam.id}/events`],
    ["POST /api/proctor/attempts/{attemptId}/extend", "POST", `/api/proctor/attempts/${attempt}/extend`],
    ["POST /api/proctor/attempts/{attemptId}/force-submit", "POST", `/api/proctor/attempts/${attempt}/force-submit`],
  ];
  const extendBodies = [
    '{"seconds":-60,"reason":"x"}',
    '{"seconds":"60"}',
    '{"seconds":1e309,"reason":"x"}',
    "{",
    "[]",
    '{"seconds":60,"reason":"\\u0000"}',
  ];
  for (const [endpoint, method, path] of endpoints) {
    const credentials: [string, Record<string, string>, number[]][] = [
      ["no credentials", {}, [401, 404]],
      ["candidate cookie", { cookie: random.pick(fixture.open).cookie }, [401, 404]],
      ["forged bearer token", { authorization: `Bearer ${fakeToken(random)}` }, [401, 404]],
      ["a proctor of another exam", { cookie: fixture.proctorCookie }, [404]],
    ];
    for (const [label, headers, statuses] of credentials) {
      const body = method === "POST" ? Buffer.from('{"seconds":600,"reason":"bench"}') : undefined;
      cases.push({
        endpoint,
        category: "auth",
        label,
        request: { method, path, headers: body ? { ...headers, ...JSON_TYPE } : headers, body },
        expect: reject(...statuses),
      });
    }
    if (method === "POST") {
      for (const text of extendBodies) {
        cases.push({
          endpoint,
          category: "field-type",
          label: `body ${text}`,
          request: post(path, { ...JSON_TYPE, authorization: `Bearer ${fixture.adminToken}` }, text),
          expect: REJECT,
        });
      }
    }
    for (const id of ["not-a-uuid", "%00", fakeUuid(random)]) {
      const bad = path.replace(/[0-9a-f-]{36}/, id);
      cases.push({
        endpoint,
        category: "path-params",
        label: `id ${id}`,
        request: { method, path: bad, headers: { authorization: `Bearer ${fixture.adminToken}` } },
        expect: reject(400, 404, 422),
      });
    }
  }
  return cases;
}

/** Junk that the contract lets through without an error; it must change nothing. */
function ignoredJunkCases(fixture: Fixture, random: Random): BadCase[] {
  const cases: BadCase[] = [];
  const candidate = random.pick(fixture.open);
  const cookie = { cookie: candidate.cookie };
  const junkBodies = ["{", '{"status":"submitted","revision":99}', "x".repeat(2_000)];
  for (const body of junkBodies) {
    const why = "the endpoint takes no body; it is ignored";
    cases.push({
      endpoint: "GET /api/attempts/{attemptId}",
      category: "ignored-junk",
      label: `GET with a body ${JSON.stringify(body.slice(0, 30))}`,
      request: {
        method: "GET",
        path: `/api/attempts/${candidate.attemptId}`,
        headers: { ...cookie, ...JSON_TYPE },
        body: Buffer.from(body),
      },
      expect: { kind: "allow", statuses: [200], why },
    });
    cases.push({
      endpoint: "POST /api/exams/{examId}/attempts",
      category: "ignored-junk",
      label: `resume with a body ${JSON.stringify(body.slice(0, 30))}`,
      request: post(`/api/exams/${fixture.exam.id}/attempts`, { ...cookie, ...JSON_TYPE }, body),
      expect: { kind: "allow", statuses: [200], why: `${why} (resuming is idempotent)` },
    });
    cases.push({
      endpoint: "GET /api/health",
      category: "ignored-junk",
      label: `health with a body ${JSON.stringify(body.slice(0, 30))}`,
      request: { method: "GET", path: "/api/health?x=%00&__proto__=1", headers: JSON_TYPE, body: Buffer.from(body) },
      expect: { kind: "allow", statuses: [200], why },
    });
  }
  cases.push({
    endpoint: "GET /api/attempts/{attemptId}",
    category: "ignored-junk",
    label: "query string junk",
    request: get(
      `/api/attempts/${candidate.attemptId}?attemptId=${fixture.other.attemptId}&__proto__[x]=1&%ZZ`,
      cookie,
    ),
    expect: { kind: "allow", statuses: [200], why: "query strings are not read" },
  });

  // Unknown fields beside an empty delta: zod strips them (forward compatible); they must have no effect.
  for (const extra of [
    '"status":"submitted"',
    '"revision":999999',
    '"__proto__":{"status":"submitted"}',
    '"submission":{"submissionId":"x"}',
    '"version":2147483647',
  ]) {
    cases.push({
      endpoint: "POST /api/attempts/{attemptId}/answers",
      category: "ignored-junk",
      label: `unknown field {${extra.slice(0, 40)}} beside an empty delta`,
      request: post(
        `/api/attempts/${candidate.attemptId}/answers`,
        { ...JSON_TYPE, ...cookie },
        `{${extra},"deviceId":"bench-bad","answers":[]}`,
      ),
      expect: { kind: "allow", statuses: [200], why: "unknown fields are ignored; an empty delta changes nothing" },
    });
  }

  // Sign-out with credentials that name no session: 204, idempotent, nothing to delete.
  for (const [endpoint, path, name] of [
    ["DELETE /api/session", "/api/session", "holdfast_candidate"],
    ["DELETE /api/staff/session", "/api/staff/session", "holdfast_staff"],
  ] as const) {
    for (const [label, value] of [
      ["forged", fakeToken(random)],
      ["SQL-ish", encodeURIComponent("' OR 1=1 --")],
      ["broken encoding", "%E0%A4%A"],
      ["none", ""],
    ] as const) {
      cases.push({
        endpoint,
        category: "ignored-junk",
        label: `sign-out, ${label} cookie`,
        request: { method: "DELETE", path, headers: value ? { cookie: `${name}=${value}` } : {} },
        expect: {
          kind: "allow",
          statuses: [204],
          why: "signing out is idempotent; an unknown session is already signed out",
        },
      });
    }
  }

  // Join links that are not valid land on the page that says so, with no cookie.
  const tokens = [
    fakeToken(random),
    "x",
    "%00",
    "%ZZ",
    encodeURIComponent("' OR 1=1 --"),
    "t".repeat(300),
    encodeURIComponent("<script>"),
    "%E2%98%83",
    fixture.adminToken,
  ];
  for (const token of tokens) {
    cases.push({
      endpoint: "GET /join/{token}",
      category: "ignored-junk",
      label: `join link ${JSON.stringify(token.slice(0, 30))}`,
      request: get(`/join/${token}`, {}),
      expect: {
        kind: "allow",
        statuses: [303],
        why: "a bad join link lands on /join-problem (a page, not JSON)",
        location: /^(https?:\/\/[^/]+)?\/join-problem\?reason=invalid$/,
        isCookieForbidden: true,
      },
    });
  }
  for (const method of ["POST", "PUT", "DELETE"]) {
    cases.push({
      endpoint: "GET /join/{token}",
      category: "method",
      label: `${method} /join/{token}`,
      request: { method, path: `/join/${fakeToken(random)}`, headers: {} },
      expect: { kind: "allow", statuses: [405], why: "not an API route: no JSON body is promised" },
    });
  }
  return cases;
}

/** Every bad request, in a deterministic order for `seed`. */
export function generateCases(fixture: Fixture, seed: number): BadCase[] {
  const random = seededRandom(seed);
  const cases = [
    ...bodyCases(fixture, random),
    ...limitCases(fixture, random),
    ...idCases(fixture, random),
    ...authCases(fixture, random),
    ...idempotencyCases(fixture, random),
    ...exportFileCases(fixture),
    ...methodCases(fixture, random),
    ...proctorCases(fixture, random),
    ...ignoredJunkCases(fixture, random),
  ];
  return random.shuffle(cases);
}

/**
 * At most `cap` cases, taken round-robin over endpoints and categories, so a small run still touches
 * every endpoint and every kind of bad input.
 */
export function capCases(cases: readonly BadCase[], cap: number): BadCase[] {
  if (cases.length <= cap) return [...cases];
  const groups = new Map<string, BadCase[]>();
  for (const item of cases) {
    const key = `${item.endpoint}|${item.category}`;
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  const queues = [...groups.values()];
  const picked: BadCase[] = [];
  for (let round = 0; picked.length < cap; round += 1) {
    for (const queue of queues) {
      const item = queue[round];
      if (item && picked.length < cap) picked.push(item);
    }
  }
  return picked;
}
