// Bodies that are not JSON, not the declared type, too large or broken field by field; emergency files that
// must not be stored.

import { LIMITS } from "../../../../lib/shared/limits";
import type { RawRequest } from "../../load/raw-http";
import { JUNK, mutate } from "./junk";
import { bodyEndpoints, JSON_TYPE, post, REJECT, reject, withAuth } from "./requests";
import type { BadCase, Category, Expectation, Fixture, Random } from "./types";

export function bodyCases(fixture: Fixture, random: Random): BadCase[] {
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

/** Emergency files that decrypt to nothing, or to something that must not be stored. */
export function exportFileCases(fixture: Fixture): BadCase[] {
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
