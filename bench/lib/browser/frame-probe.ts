import type { Page } from "@playwright/test";

// An init script that measures responsiveness inside the page, the way a browser's own tooling would:
// every long task (> 50 ms on the main thread, PerformanceObserver `longtask`) and the interval between
// consecutive animation frames. `takeFrames` returns and clears what was recorded since the last take.
// It also notes when the dashboard's first data row appeared (performance.now(), navigation-relative).

export type FrameTake = { longTasks: number[]; frameIntervals: number[]; firstRowsAt: number | null; spanMs: number };

declare global {
  interface Window {
    __frameProbe?: { longTasks: number[]; frameIntervals: number[]; firstRowsAt: number | null; since: number };
  }
}

/**
 * Plain JavaScript, not a function handed to Playwright: tsx compiles functions with esbuild's `__name`
 * helper, which does not exist in the page, and the probe would die after its first statement.
 */
const FRAME_PROBE_SCRIPT = `(() => {
  const probe = { longTasks: [], frameIntervals: [], firstRowsAt: null, since: performance.now() };
  window.__frameProbe = probe;
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) probe.longTasks.push(entry.duration);
    }).observe({ type: "longtask", buffered: true });
  } catch (error) {
    // No longtask support: the frame intervals still tell the story.
  }
  let last = -1;
  const frame = (at) => {
    if (last >= 0) probe.frameIntervals.push(at - last);
    last = at;
    if (probe.firstRowsAt === null && document.querySelector('[role="row"][aria-rowindex="2"]')) probe.firstRowsAt = performance.now();
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})();`;

export async function installFrameProbe(page: Page): Promise<void> {
  await page.addInitScript({ content: FRAME_PROBE_SCRIPT });
}

export async function takeFrames(page: Page): Promise<FrameTake> {
  const take = (await page.evaluate(`(() => {
    const probe = window.__frameProbe;
    if (!probe) return null;
    const now = performance.now();
    const take = { longTasks: probe.longTasks.splice(0), frameIntervals: probe.frameIntervals.splice(0), firstRowsAt: probe.firstRowsAt, spanMs: now - probe.since };
    probe.since = now;
    return take;
  })()`)) as FrameTake | null;
  if (!take) throw new Error("the frame probe is not installed in the page (addInitScript did not run?)");
  return take;
}

export type FrameSummary = {
  spanS: number;
  frames: number;
  fps: number;
  frameP50Ms: number;
  frameP95Ms: number;
  frameP99Ms: number;
  frameMaxMs: number;
  /** Frames that took longer than two 60 Hz frames (> 33.4 ms): visible stutter. */
  slowFrames: number;
  longTasks: number;
  longTaskTotalMs: number;
  longTaskMaxMs: number;
};

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

const round = (value: number) => Math.round(value * 10) / 10;

export function summariseFrames(take: FrameTake): FrameSummary {
  const sorted = [...take.frameIntervals].sort((a, b) => a - b);
  return {
    spanS: round(take.spanMs / 1000),
    frames: sorted.length,
    fps: round(sorted.length / (take.spanMs / 1000)),
    frameP50Ms: round(percentile(sorted, 50)),
    frameP95Ms: round(percentile(sorted, 95)),
    frameP99Ms: round(percentile(sorted, 99)),
    frameMaxMs: round(sorted.at(-1) ?? 0),
    slowFrames: sorted.filter((interval) => interval > 33.4).length,
    longTasks: take.longTasks.length,
    longTaskTotalMs: round(take.longTasks.reduce((sum, duration) => sum + duration, 0)),
    longTaskMaxMs: round(Math.max(0, ...take.longTasks)),
  };
}
