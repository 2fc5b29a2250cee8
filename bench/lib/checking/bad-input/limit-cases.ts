// Each contract limit just past its edge, and wrong answer shapes per question type.

import { randomUUID } from "node:crypto";

import { LIMITS } from "../../../../lib/shared/limits";
import { JSON_TYPE, post, reject, validValue } from "./requests";
import {
  type BadCase,
  type Category,
  fakeUuid,
  type Fixture,
  type FixtureCandidate,
  type FixtureQuestion,
  type Random,
} from "./types";

export function limitCases(fixture: Fixture, random: Random): BadCase[] {
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
