import { answerValueProblem } from "@/lib/shared/answers";
import type { AnswerValue } from "@/lib/shared/schemas/attempts";

import { writeEdit } from "../offline/drafts";
import type { SyncKernel } from "./kernel";
import { EDIT_REFUSAL_MESSAGES, type EditResult } from "./sync-state";

/** An edit's write waiting its turn: it writes the newest `value`, and clears the optimistic value of `token`. */
type WaitingWrite = { value: AnswerValue; token: object; result: Promise<EditResult> };

/** What the editor needs from the engine around it. */
export type EditorHost = {
  /** The device's state is loaded. */
  ready(): boolean;
  /** The Submit button was clicked in this tab. */
  submitRequested(): boolean;
  emit(): void;
  /** After a write to IndexedDB: tell the other tabs; `work` schedules a send. */
  afterLocalWrite(questionIds: string[] | null, work: boolean): void;
  /** IndexedDB refused the write: re-read the attempt record, then emit. */
  reloadAttempt(): void;
};

/** Step E — the candidate's edits: validated, shown at once (optimistic), written to IndexedDB one at a time. */
export class Editor {
  /** Edits shown before their IndexedDB write finished (the token says which edit put it there). */
  readonly optimistic = new Map<string, { value: AnswerValue; at: number; token: object }>();
  private readonly waitingWrites = new Map<string, WaitingWrite>();

  constructor(
    private readonly kernel: SyncKernel,
    private readonly host: EditorHost,
  ) {}

  /**
   * Step E1 — an edit: validated like the server does (`answerValueProblem`), shown at once, written to IndexedDB in
   * one transaction (clock + 1, dirty, this device's id), then sent 1.5 s after the last edit (debounce).
   *
   * Writes run one at a time (`serial`). A keystroke made while its question's write is still waiting for its
   * turn joins that write (the write takes the newest text, and both calls get its result): a burst of typing
   * costs one transaction per turn, not one per key, so the device never falls behind the candidate, and a
   * crash right after typing loses at most the keystrokes of the transaction then committing.
   */
  edit(questionId: string, value: AnswerValue): Promise<EditResult> {
    const kernel = this.kernel;
    const refusal = this.refusal(questionId, value);
    if (refusal) return Promise.resolve(refusal);
    const deviceId = kernel.deviceId!;
    const token = {};
    this.optimistic.set(questionId, { value, at: kernel.now(), token });
    this.host.emit();

    const waiting = this.waitingWrites.get(questionId);
    if (waiting) {
      waiting.value = value;
      waiting.token = token;
      return waiting.result;
    }
    const write: WaitingWrite = { value, token, result: Promise.resolve({ ok: true, version: 0 }) };
    this.waitingWrites.set(questionId, write);

    const run = kernel.serial(async () => {
      // From here on a new keystroke queues a write of its own.
      if (this.waitingWrites.get(questionId) === write) this.waitingWrites.delete(questionId);
      const outcome = await writeEdit(kernel.db, {
        attemptId: kernel.attemptId,
        questionId,
        value: write.value,
        deviceId,
        now: kernel.now(),
      });
      if (outcome.kind === "written") {
        kernel.attempt = outcome.attempt;
        kernel.drafts.set(questionId, outcome.draft);
      }
      return outcome;
    });
    const clearOptimistic = () => {
      if (this.optimistic.get(questionId)?.token === write.token) this.optimistic.delete(questionId);
    };
    write.result = kernel.track(
      run.then(
        (outcome): EditResult => {
          clearOptimistic();
          if (outcome.kind === "refused") {
            if (outcome.reason !== "no-attempt") this.host.reloadAttempt();
            this.host.emit();
            return { ok: false, reason: outcome.reason, message: EDIT_REFUSAL_MESSAGES[outcome.reason] };
          }
          this.host.emit();
          this.host.afterLocalWrite([questionId], true);
          return { ok: true, version: outcome.draft.version };
        },
        (): EditResult => {
          clearOptimistic();
          this.host.emit();
          return { ok: false, reason: "storage", message: EDIT_REFUSAL_MESSAGES.storage };
        },
      ),
    );
    return write.result;
  }

  private refusal(questionId: string, value: AnswerValue): EditResult | null {
    const refuse = (reason: Exclude<EditResult, { ok: true }>["reason"], message?: string): EditResult => ({
      ok: false,
      reason,
      message: message ?? EDIT_REFUSAL_MESSAGES[reason],
    });
    const attempt = this.kernel.attempt;
    if (!this.host.ready() || !this.kernel.deviceId || !attempt) return refuse("not-ready");
    const question = attempt.questions.find((candidate) => candidate.id === questionId);
    if (!question) return refuse("unknown-question");
    const problem = answerValueProblem(question, value);
    if (problem) return refuse("invalid", `This answer ${problem}.`);
    if (this.host.submitRequested() || attempt.submitState === "submitting") return refuse("submitting");
    if (attempt.submitState === "submitted") return refuse("submitted");
    if (attempt.closed) return refuse("closed");
    return null;
  }
}
