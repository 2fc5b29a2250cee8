// Bad and replayed Idempotency-Keys, and writes to the submitted attempt.

import { randomUUID } from "node:crypto";

import { JSON_TYPE, post, reject, validValue } from "./requests";
import type { BadCase, Category, Fixture, FixtureQuestion, Random } from "./types";

export function idempotencyCases(fixture: Fixture, random: Random): BadCase[] {
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
