// Three objective questions (single choice key a, multiple choice key a+c with partial credit, numeric key 32):
// a paper the rules score whole, with no person. The integration tests' scored papers (test-support/server/results.ts)
// read their figures off these keys; the e2e specs use the sample exam's (test-support/shared/sample-exam.ts).
export const OBJECTIVE_QUESTIONS = [
  {
    type: "single_choice",
    prompt: "Which layer routes packets?",
    options: [
      { id: "a", label: "Network" },
      { id: "b", label: "Link" },
    ],
    answerKey: "a",
    points: 1,
  },
  {
    type: "multiple_choice",
    prompt: "Which are transport protocols?",
    options: [
      { id: "a", label: "TCP" },
      { id: "b", label: "IP" },
      { id: "c", label: "UDP" },
    ],
    answerKey: ["a", "c"],
    points: 2,
  },
  { type: "numeric", prompt: "How many bits in an IPv4 address?", answerKey: 32, tolerance: 0, points: 1 },
];
