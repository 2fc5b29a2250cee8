// The sample exam of every test that needs a paper: one question of every type, the shape of a real paper, in
// English and in Chinese. The e2e specs and screens build their exams from this (e2e/fixtures.ts `createExam` takes
// all five by default), and so do the integration tests (test-support/server/fixtures.ts `createExam` takes all
// five; test-support/server/results.ts `scoredPapers` the objective ones). The options choose the variations the
// tests really need:
// - `types`: which questions, in which order (objective only, so no person marks the paper; an essay first, for
//   grading);
// - `language`: the prompts and options in the candidate's language;
// - `rubric`: the essay carries a rubric for its graders;
// - `answerKeys`: another key for a type (a key that is wrong until an admin corrects it).
//
// Keys, for the values a test submits and the figures it expects: single choice "b" (1 point), multiple choice "a"
// and "b" (2 points, partly right gets part), short text "ARP" (1), essay marked by a person (5), numeric 6 (1, no
// tolerance). All five: 10 points; the objective three: 4.

export type SampleQuestionType = "single_choice" | "multiple_choice" | "short_text" | "essay" | "numeric";
export type SampleLanguage = "en" | "zh-CN";

export type SampleQuestion = Record<string, unknown> & { type: SampleQuestionType; prompt: string; points: number };

export const SAMPLE_QUESTION_TYPES: readonly SampleQuestionType[] = [
  "single_choice",
  "multiple_choice",
  "short_text",
  "essay",
  "numeric",
];

/** The objective questions: a paper of these is scored whole without a person. */
export const OBJECTIVE_TYPES: readonly SampleQuestionType[] = ["single_choice", "multiple_choice", "numeric"];

/** What a question is, whatever the language: its key and its points. */
const KEYS: Record<SampleQuestionType, Record<string, unknown> & { points: number }> = {
  single_choice: { answerKey: "b", points: 1 },
  multiple_choice: { answerKey: ["a", "b"], points: 2 },
  short_text: { answerKey: "ARP", points: 1 },
  essay: { points: 5 },
  numeric: { answerKey: 6, tolerance: 0, points: 1 },
};

/** What a question says in each language: its prompt, and its options' labels in the order of ids a, b, c. */
const TEXT: Record<SampleLanguage, Record<SampleQuestionType, { prompt: string; labels?: string[] }>> = {
  en: {
    single_choice: {
      prompt: "Which layer of the OSI model routes packets between networks?",
      labels: ["Data link", "Network", "Transport"],
    },
    multiple_choice: {
      prompt: "Which of these are private IPv4 ranges?",
      labels: ["10.0.0.0/8", "172.16.0.0/12", "8.8.8.0/24"],
    },
    short_text: { prompt: "Name the protocol that maps IPv4 addresses to MAC addresses." },
    essay: { prompt: "Explain, in a few paragraphs, why TCP needs a three-way handshake." },
    numeric: { prompt: "How many usable host addresses does a /29 subnet have?" },
  },
  "zh-CN": {
    single_choice: { prompt: "OSI 模型中哪一层负责在网络之间路由数据包？", labels: ["数据链路层", "网络层", "传输层"] },
    multiple_choice: {
      prompt: "以下哪些是私有 IPv4 地址段？",
      labels: ["10.0.0.0/8", "172.16.0.0/12", "8.8.8.0/24"],
    },
    short_text: { prompt: "把 IPv4 地址映射为 MAC 地址的协议叫什么？" },
    essay: { prompt: "请用几段话解释 TCP 为什么需要三次握手。" },
    numeric: { prompt: "一个 /29 子网有多少个可用的主机地址？" },
  },
};

const OPTION_IDS = ["a", "b", "c"];

/** One question in one language: the keys are the same in both, so a spec's answers score alike in either. */
function paperQuestion(language: SampleLanguage, type: SampleQuestionType): SampleQuestion {
  const { prompt, labels } = TEXT[language][type];
  return {
    type,
    prompt,
    ...(labels ? { options: labels.map((label, index) => ({ id: OPTION_IDS[index]!, label })) } : {}),
    ...structuredClone(KEYS[type]),
  };
}

const RUBRIC: Record<SampleLanguage, string> = {
  en: "5: both sides' sequence numbers agreed, and why. 3: the idea without the why. 0: nothing relevant.",
  "zh-CN": "5 分：说明双方序号如何确认以及原因。3 分：只说明过程。0 分：答非所问。",
};

/** The sample exam's questions, fresh copies each call (a spec may change its own). */
export function sampleQuestions(
  options: {
    types?: readonly SampleQuestionType[];
    language?: SampleLanguage;
    rubric?: boolean;
    answerKeys?: Partial<Record<SampleQuestionType, unknown>>;
  } = {},
): SampleQuestion[] {
  const language = options.language ?? "en";
  return (options.types ?? SAMPLE_QUESTION_TYPES).map((type) => {
    const question = paperQuestion(language, type);
    if (options.rubric && type === "essay") question.rubric = RUBRIC[language];
    if (options.answerKeys && type in options.answerKeys) question.answerKey = options.answerKeys[type];
    return question;
  });
}

/** The essay's rubric in `language` (the one `rubric: true` sets). */
export function sampleRubric(language: SampleLanguage): string {
  return RUBRIC[language];
}
