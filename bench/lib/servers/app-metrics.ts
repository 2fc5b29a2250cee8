// What the app itself measured: its request-duration histograms (GET /api/metrics, lib/server/metrics/registry.ts),
// read from every worker after a run. A candidate's latency, as the load generator measures it, also holds the time
// its request spent in the generator's own event loop, the fault proxy and the kernel's queues; the app's histogram
// starts when the route handler runs. Side by side they say which side of the socket a tail is on.
import { request } from "node:http";

/** One endpoint's histogram, summed over the workers: cumulative counts at each upper bound (seconds). */
export type AppHistogram = { bounds: number[]; cumulative: number[]; count: number };

/** Reads one exposition on a connection of its own (node:cluster hands each connection to one worker). */
function scrapeOnce(port: number, token: string | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { connection: "close" };
    if (token) headers.authorization = `Bearer ${token}`;
    const sent = request(
      { host: "127.0.0.1", port, path: "/api/metrics", agent: false, timeout: 10_000, headers },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () =>
          response.statusCode === 200 ? resolve(text) : reject(new Error(`/api/metrics: ${response.statusCode}`)),
        );
      },
    );
    sent.on("timeout", () => sent.destroy(new Error("/api/metrics: timed out")));
    sent.on("error", reject);
    sent.end();
  });
}

/**
 * `metric`'s buckets in one worker's exposition, keyed by upper bound (`+Inf` as Infinity), for the series whose one
 * label besides `le` is `label` (`outcome="ok"`, say), or for the series with no other label when `label` is null;
 * and the lines that identify the worker (its start time and its histogram: two workers never hold identical ones).
 * A string `label` is an outcome.
 */
export function parseHistogram(
  text: string,
  metric: string,
  label: string | { name: string; value: string } | null,
): { buckets: Map<number, number>; identity: string } {
  const buckets = new Map<number, number>();
  const identity: string[] = [];
  const named = typeof label === "string" ? { name: "outcome", value: label } : label;
  const series = named ? `,${named.name}="${named.value}"` : "";
  const pattern = new RegExp(`^${metric}_bucket\\{le="([^"]+)"${series}\\} (\\d+(?:\\.\\d+)?)$`);
  for (const line of text.split("\n")) {
    if (line.startsWith("process_start_time_seconds ")) identity.push(line);
    const match = pattern.exec(line);
    if (!match) continue;
    identity.push(line);
    buckets.set(match[1] === "+Inf" ? Infinity : Number(match[1]), Number(match[2]));
  }
  return { buckets, identity: identity.join("\n") };
}

/** One histogram series of the app: `metric`, for the series `label` (null: its one series; a string: an outcome). */
export type AppSeries = { metric: string; label: string | { name: string; value: string } | null };

/**
 * The app's `holdfast_{endpoint}_request_duration_seconds` for outcome `outcome` (or another series), summed over
 * its `workers` worker processes (readAppHistograms). Null when fewer answered or none had the metric.
 */
export async function readAppHistogram(
  options: {
    port: number;
    workers: number;
    metricsToken?: string;
  } & ({ endpoint: "autosave" | "submit" | "heartbeat"; outcome?: string } | AppSeries),
): Promise<AppHistogram | null> {
  const series: AppSeries =
    "metric" in options
      ? { metric: options.metric, label: options.label }
      : { metric: `holdfast_${options.endpoint}_request_duration_seconds`, label: options.outcome ?? "ok" };
  const [histogram] = await readAppHistograms(options, [series]);
  return histogram ?? null;
}

/**
 * Several of the app's histogram series from the same scrapes, each summed over its `workers` worker processes: up
 * to 8 scrapes per worker on fresh connections until that many distinct workers answered (a worker is told apart by
 * its start time and its histograms: two workers never hold identical ones). One entry per series, null when fewer
 * workers answered (the figure would be a part passed off as the whole) or none had it.
 */
export async function readAppHistograms(
  options: { port: number; workers: number; metricsToken?: string },
  series: readonly AppSeries[],
): Promise<(AppHistogram | null)[]> {
  const seen = new Map<string, Map<number, number>[]>();
  for (let attempt = 0; attempt < options.workers * 8 && seen.size < options.workers; attempt += 1) {
    const text = await scrapeOnce(options.port, options.metricsToken).catch(() => null);
    if (text === null) continue;
    const parsed = series.map(({ metric, label }) => parseHistogram(text, metric, label));
    if (parsed.every(({ buckets }) => buckets.size === 0)) continue;
    seen.set(
      parsed.map(({ identity }) => identity).join("\n"),
      parsed.map(({ buckets }) => buckets),
    );
  }
  if (seen.size < options.workers) return series.map(() => null);
  return series.map((_, index) => {
    const workers = [...seen.values()].map((buckets) => buckets[index]!);
    const bounds = [...new Set(workers.flatMap((buckets) => [...buckets.keys()]))].sort((a, b) => a - b);
    if (bounds.length === 0) return null;
    const cumulative = bounds.map((bound) => workers.reduce((sum, buckets) => sum + (buckets.get(bound) ?? 0), 0));
    return { bounds, cumulative, count: cumulative.at(-1) ?? 0 };
  });
}

/**
 * The upper bound (seconds) of the bucket holding quantile `q` (0–1): the p99 is "at most this". Infinity when it
 * lies past the last finite bound; null for an empty histogram.
 */
export function quantileUpperBound(histogram: AppHistogram, q: number): number | null {
  if (histogram.count === 0) return null;
  const rank = Math.ceil(q * histogram.count);
  const index = histogram.cumulative.findIndex((count) => count >= rank);
  return histogram.bounds[index] ?? Infinity;
}

/** "≤ 2.5 s" style text for a quantile's bucket. */
export function formatUpperBound(seconds: number | null): string {
  if (seconds === null) return "n/a";
  if (seconds === Infinity) return "> the last bucket";
  return seconds < 1 ? `≤ ${Math.round(seconds * 1000)} ms` : `≤ ${seconds} s`;
}
