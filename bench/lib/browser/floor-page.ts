// The floor for `client`'s keystroke figure: the least any exam page must do per key, measured on the same
// machine, browser and typing as the real page, so the real page's figure reads as a ratio against it.
//
// A bare page of 20 questions (12 short-text inputs, then essays, as in the bench exam; one heading and a
// prompt each, no styles, no framework). On every `input` event it does what step E1 of the protocol
// requires of any client (docs/sync-protocol.md): one read-write transaction with strict durability over
// `attempts` and `drafts` that reads the attempt, moves its clock and writes the draft. Nothing else: no
// rendering beyond the browser's own, no queue, no sync. The page is served by the harness (Playwright's
// routing) under the app's origin, in a context of its own, with its own IndexedDB database.
//
// The script is a string, not a function (see idb-commit-probe.ts).

export const FLOOR_PATH = "/__bench/floor";

const QUESTIONS = 20;
const SHORT_TEXT = 8;
const ESSAYS_UNTIL = 12;

function field(position: number): string {
  const id = `floor-q${position}`;
  const control =
    position <= SHORT_TEXT || position > ESSAYS_UNTIL
      ? `<input id="${id}-answer" type="text" autocomplete="off" spellcheck="false">`
      : `<textarea id="${id}-answer" rows="8" spellcheck="false"></textarea>`;
  return (
    `<li><article aria-labelledby="question-${id}"><h2 id="question-${id}">Question ${position}</h2>` +
    `<p>Write your answer to question ${position} below.</p>` +
    `<label for="${id}-answer">Your answer</label> ${control}</article></li>`
  );
}

const SCRIPT = String.raw`
(() => {
  const attemptId = "floor-attempt";
  const opening = indexedDB.open("holdfast-floor", 1);
  opening.onupgradeneeded = () => {
    const db = opening.result;
    db.createObjectStore("attempts", { keyPath: "attemptId" });
    db.createObjectStore("drafts", { keyPath: ["attemptId", "questionId"] });
  };
  opening.onsuccess = () => {
    const db = opening.result;
    const seed = db.transaction(["attempts"], "readwrite", { durability: "strict" });
    seed.objectStore("attempts").put({ attemptId, clock: 0 });
    seed.oncomplete = () => { document.body.dataset.ready = "true"; };
    document.addEventListener("input", (event) => {
      const target = event.target;
      const article = target.closest("article[aria-labelledby]");
      const questionId = article.getAttribute("aria-labelledby").replace(/^question-/, "");
      const value = target.value;
      const transaction = db.transaction(["attempts", "drafts"], "readwrite", { durability: "strict" });
      const attempts = transaction.objectStore("attempts");
      attempts.get(attemptId).onsuccess = (read) => {
        const attempt = read.target.result;
        const version = attempt.clock + 1;
        attempts.put({ ...attempt, clock: version });
        transaction.objectStore("drafts").put({ attemptId, questionId, value, version, dirty: 1, editedAt: Date.now() });
      };
    });
  };
})();
`;

export function floorPageHtml(): string {
  const items = Array.from({ length: QUESTIONS }, (_, index) => field(index + 1)).join("\n");
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Keystroke floor</title></head>` +
    `<body><main><h1>Keystroke floor</h1><ol>\n${items}\n</ol></main><script>${SCRIPT}</script></body></html>`
  );
}
