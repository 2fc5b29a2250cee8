// Progress goes to stderr, figures to stdout, so `npm run bench -- sync > figures.txt` keeps only figures.

export function say(message: string): void {
  process.stderr.write(`bench: ${message}\n`);
}

/** A problem that must not scroll by unnoticed. */
export function shout(message: string): void {
  const bar = "!".repeat(100);
  process.stderr.write(`${bar}\n!!! ${message.split("\n").join("\n!!! ")}\n${bar}\n`);
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}
