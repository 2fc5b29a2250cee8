import { clearSubmitErrorRecord, storeFinalDelta } from "./job-submit";
import type { SyncKernel } from "./kernel";
import type { SyncSnapshot } from "./sync-state";

/** What the Submit click needs from the engine around it. */
export type SubmitClickHost = {
  /** The engine's start (the local state loaded), or null when stopped. */
  started(): Promise<void> | null;
  running(): boolean;
  snapshot(): SyncSnapshot;
  emit(): void;
  afterLocalWrite(questionIds: string[] | null, work: boolean): void;
  /** Send now (the stored submit goes first). */
  sendNow(): void;
};

/**
 * Step S1 — the Submit click: stores the final delta and the digest as the exact request body (editing is
 * refused from then on, in every tab) and waits for the outcome; sending it is a job of the scheduler (S2).
 */
export class SubmitClick {
  /** Clicked in this tab, body not stored yet: the button and editing lock on the click itself. */
  requested = false;
  private promise: Promise<SyncSnapshot> | null = null;
  private readonly waiters = new Set<() => void>();

  constructor(
    private readonly kernel: SyncKernel,
    private readonly host: SubmitClickHost,
  ) {}

  /**
   * Resolves when the attempt is submitted, or when the server gave a final answer (`submitError`; calling
   * submit again sends the same body again). A second call while one is running returns the same promise.
   */
  submit(): Promise<SyncSnapshot> {
    if (this.promise) return this.promise;
    if (this.kernel.attempt?.submitState === "unsubmitted") {
      // The button locks on the click itself, before any await.
      this.requested = true;
      this.host.emit();
    }
    const promise = this.run().finally(() => {
      if (this.promise === promise) this.promise = null;
    });
    this.promise = promise;
    return promise;
  }

  /** S5 — forget a final answer to the submit: the stored body is sent again. */
  async clearError(): Promise<void> {
    await clearSubmitErrorRecord(this.kernel);
    this.host.emit();
    this.host.afterLocalWrite(null, true);
  }

  /** After every emit: a waiting click may be done. */
  notify(): void {
    for (const check of [...this.waiters]) check();
  }

  /** The engine stopped: every waiting click resolves. */
  release(): void {
    for (const resolve of this.waiters) resolve();
    this.waiters.clear();
  }

  private async run(): Promise<SyncSnapshot> {
    await this.host.started();
    const current = this.kernel.attempt;
    if (!current || !this.kernel.deviceId || current.submitState === "submitted") {
      this.requested = false;
      this.host.emit();
      return this.host.snapshot();
    }

    if (current.submitState === "unsubmitted") {
      // S1. Editing is locked in this tab (submit() set `requested`); store the body, which locks every tab.
      this.requested = true;
      try {
        await storeFinalDelta(this.kernel);
      } finally {
        this.requested = false;
      }
      this.host.emit();
      this.host.afterLocalWrite(null, true);
    } else if (current.submitError) {
      // A click after a final answer: send the same body again, once.
      await this.clearError();
    }

    if (this.kernel.attempt?.submitState !== "submitting") return this.host.snapshot();
    this.host.sendNow();
    return this.waitForOutcome();
  }

  private waitForOutcome(): Promise<SyncSnapshot> {
    return new Promise((resolve) => {
      const check = () => {
        const snapshot = this.host.snapshot();
        if (!this.host.running() || snapshot.submitState === "submitted" || snapshot.submitError !== null) {
          this.waiters.delete(check);
          resolve(snapshot);
        }
      };
      this.waiters.add(check);
      check();
    });
  }
}
