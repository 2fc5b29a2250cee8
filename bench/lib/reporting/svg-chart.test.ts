import { describe, expect, it } from "vitest";

import { latencyDistributionChart, latencyTimeChart, throughputChart, type ChartSeries } from "./svg-chart";

// A strict little XML reader (Node has no DOMParser): elements, attributes, text and the five entities.
// It throws on anything a browser's XML parser would reject in these charts: unbalanced or misnested tags,
// an unquoted or repeated attribute, a bare `&` or `<`.
type XmlElement = { name: string; attributes: Record<string, string>; children: XmlElement[]; text: string };

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decode(raw: string): string {
  return raw.replace(/&([^;]*);?/g, (match, name: string) => {
    if (!match.endsWith(";")) throw new Error(`bare & in ${JSON.stringify(raw)}`);
    if (/^#\d+$/.test(name)) return String.fromCodePoint(Number(name.slice(1)));
    if (/^#x[0-9a-f]+$/i.test(name)) return String.fromCodePoint(parseInt(name.slice(2), 16));
    const value = ENTITIES[name];
    if (value === undefined) throw new Error(`unknown entity &${name};`);
    return value;
  });
}

function parseXml(source: string): XmlElement {
  const root: XmlElement = { name: "#document", attributes: {}, children: [], text: "" };
  const stack = [root];
  let at = 0;
  const name = /[A-Za-z_][\w.:-]*/y;
  const expectName = (): string => {
    name.lastIndex = at;
    const match = name.exec(source);
    if (!match) throw new Error(`a name expected at ${at}: ${source.slice(at, at + 30)}`);
    at = name.lastIndex;
    return match[0];
  };
  const skipSpace = (): void => {
    while (/\s/.test(source[at] ?? "")) at += 1;
  };
  while (at < source.length) {
    const current = stack.at(-1);
    if (!current) throw new Error("content after the root element was closed");
    if (source[at] !== "<") {
      const end = source.indexOf("<", at);
      const raw = source.slice(at, end === -1 ? source.length : end);
      if (current === root && raw.trim()) throw new Error(`text outside the root: ${raw.trim().slice(0, 30)}`);
      current.text += decode(raw);
      at = end === -1 ? source.length : end;
      continue;
    }
    if (source.startsWith("</", at)) {
      at += 2;
      const closing = expectName();
      skipSpace();
      if (source[at] !== ">") throw new Error(`> expected after </${closing}`);
      at += 1;
      if (current.name !== closing) throw new Error(`</${closing}> closes <${current.name}>`);
      stack.pop();
      continue;
    }
    at += 1;
    const element: XmlElement = { name: expectName(), attributes: {}, children: [], text: "" };
    if (current === root && root.children.length) throw new Error("a second root element");
    current.children.push(element);
    for (;;) {
      skipSpace();
      if (source.startsWith("/>", at)) {
        at += 2;
        break;
      }
      if (source[at] === ">") {
        at += 1;
        stack.push(element);
        break;
      }
      const attribute = expectName();
      if (attribute in element.attributes) throw new Error(`attribute ${attribute} twice on <${element.name}>`);
      skipSpace();
      if (source[at] !== "=") throw new Error(`= expected after ${attribute}`);
      at += 1;
      skipSpace();
      const quote = source[at];
      if (quote !== '"' && quote !== "'") throw new Error(`unquoted value of ${attribute}`);
      const end = source.indexOf(quote, at + 1);
      if (end === -1) throw new Error(`unterminated value of ${attribute}`);
      const raw = source.slice(at + 1, end);
      if (raw.includes("<")) throw new Error(`< in the value of ${attribute}`);
      element.attributes[attribute] = decode(raw);
      at = end + 1;
    }
  }
  if (stack.length !== 1) throw new Error(`<${stack.at(-1)?.name}> is never closed`);
  const [svg] = root.children;
  if (!svg) throw new Error("no root element");
  return svg;
}

function all(element: XmlElement): XmlElement[] {
  return [element, ...element.children.flatMap(all)];
}

function texts(svg: XmlElement): string[] {
  return all(svg)
    .filter((element) => element.name === "text")
    .map((element) => element.text);
}

const GEOMETRY = ["x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "width", "height"];

/** Parses the SVG and checks every coordinate is a finite number; returns the tree. */
function checkedSvg(source: string): XmlElement {
  const svg = parseXml(source);
  expect(svg.name).toBe("svg");
  expect(svg.attributes.xmlns).toBe("http://www.w3.org/2000/svg");
  expect(svg.children[0]?.name).toBe("title");
  expect(source).not.toMatch(/NaN|Infinity|undefined|<script/);
  for (const element of all(svg)) {
    for (const attribute of GEOMETRY) {
      const value = element.attributes[attribute];
      if (value !== undefined)
        expect(Number.isFinite(Number(value)), `${element.name} ${attribute}="${value}"`).toBe(true);
    }
    const d = element.attributes.d;
    if (d !== undefined) {
      expect(d).toMatch(/^M/);
      for (const token of d.split(/[MLHVZ\s]+/).filter(Boolean))
        expect(Number.isFinite(Number(token)), `d token ${token}`).toBe(true);
    }
  }
  return svg;
}

function lineCount(svg: XmlElement): number {
  return all(svg).filter(
    (element) =>
      element.name === "path" && element.attributes.fill === "none" && element.attributes["stroke-width"] === "2",
  ).length;
}

const EVENTS = [
  { t: 40, label: "kill app" },
  { t: 90, until: 100, label: "Redis paused" },
  { t: 140, label: "Postgres restart" },
];

function timeSeries(name: string, at: (t: number) => number): ChartSeries {
  return { name, points: Array.from({ length: 180 }, (_, t) => [t, at(t)] as const) };
}

describe("latencyTimeChart", () => {
  it("draws each series, each event and the axis ticks in well-formed SVG", () => {
    const source = latencyTimeChart({
      title: "Autosave latency <during> faults & restarts",
      series: [timeSeries("app p50", () => 20), timeSeries("app p99", (t) => (t >= 90 && t < 100 ? 2000 : 200))],
      events: EVENTS,
    });
    const svg = checkedSvg(source);
    expect(svg.children[0]?.text).toBe("Autosave latency <during> faults & restarts");
    const labels = texts(svg);
    expect(labels).toEqual(
      expect.arrayContaining(["app p50", "app p99", "kill app", "Redis paused", "Postgres restart"]),
    );
    // 20 to 2000 ms spans two decades: a log axis by default, with 1-2-5 ticks.
    expect(labels).toEqual(expect.arrayContaining(["20", "50", "100", "200", "500", "1,000", "2,000"]));
    expect(labels).not.toContain("10");
    expect(labels).toEqual(
      expect.arrayContaining(["0", "20", "40", "160", "180", "seconds since start", "latency (ms), log scale"]),
    );
    expect(lineCount(svg)).toBe(2);
    expect(all(svg).filter((element) => element.attributes["stroke-dasharray"] === "5 4")).toHaveLength(3);
    expect(all(svg).filter((element) => element.name === "rect" && element.attributes["fill-opacity"])).toHaveLength(1);
    expect(all(svg).find((element) => element.name === "desc")?.text).toContain("Redis paused from 90.0 to 100.0 s");
  });

  it("uses a linear axis from zero when the values stay within one range", () => {
    const svg = checkedSvg(latencyTimeChart({ title: "t", series: [timeSeries("p50", (t) => 15 + (t % 10))] }));
    expect(texts(svg)).toEqual(expect.arrayContaining(["0", "5", "10", "15", "20", "25", "latency (ms)"]));
  });

  it("clips a far outlier on a linear axis, marks it and says so", () => {
    const series = timeSeries("p99", (t) => (t === 60 ? 90_000 : 180 + (t % 7)));
    const svg = checkedSvg(latencyTimeChart({ title: "t", series: [series], logScale: false }));
    const labels = texts(svg);
    expect(
      labels.some((label) => label.startsWith("Note: 1 value above 300 ms clipped (▲), the highest 90,000 ms")),
    ).toBe(true);
    expect(labels).not.toContain("90,000");
    expect(all(svg).filter((element) => element.name === "path" && element.attributes.d?.endsWith("Z"))).toHaveLength(
      1,
    );
  });

  it("puts zeros on the floor of a log axis and says so", () => {
    const svg = checkedSvg(
      latencyTimeChart({ title: "t", series: [timeSeries("p50", (t) => (t % 30 === 0 ? 0 : 20))], logScale: true }),
    );
    expect(
      texts(svg).some((label) => label === "Note: 6 values of 0 ms or less drawn on the bottom edge (log scale)"),
    ).toBe(true);
  });

  it("leaves gaps at NaN, draws a lone point as a dot, and survives empty and degenerate input", () => {
    const gappy: ChartSeries = {
      name: "gappy",
      points: [
        [0, 10],
        [1, 12],
        [2, NaN],
        [3, 11],
        [4, Infinity],
        [5, 13],
        [6, 14],
        [NaN, 3],
      ],
    };
    const svg = checkedSvg(
      latencyTimeChart({
        title: "t",
        series: [gappy, { name: "lone", points: [[3, 50]] }, { name: "empty", points: [] }],
        events: EVENTS,
      }),
    );
    expect(lineCount(svg)).toBe(2);
    expect(all(svg).filter((element) => element.name === "circle")).toHaveLength(2);
    expect(texts(svg)).toContain("empty (no data)");

    for (const series of [
      [],
      [{ name: "none", points: [] }],
      [{ name: "nan", points: [[NaN, NaN] as const] }],
      [{ name: "one", points: [[5, 0] as const] }],
    ]) {
      for (const logScale of [undefined, true, false]) {
        const empty = checkedSvg(latencyTimeChart({ title: "t", series, logScale }));
        expect(texts(empty).length).toBeGreaterThan(3);
      }
    }
    expect(texts(checkedSvg(latencyTimeChart({ title: "t", series: [] })))).toContain("no data");
    // Events alone set the time axis, and an event without a finite time is left out.
    const eventsOnly = checkedSvg(
      latencyTimeChart({ title: "t", series: [], events: [...EVENTS, { t: NaN, label: "lost" }] }),
    );
    expect(texts(eventsOnly)).toEqual(expect.arrayContaining(["kill app", "Postgres restart"]));
    expect(texts(eventsOnly)).not.toContain("lost");
  });

  it("shows minutes on a long run", () => {
    const svg = checkedSvg(
      latencyTimeChart({
        title: "t",
        series: [
          {
            name: "p50",
            points: [
              [0, 10],
              [3_600, 12],
            ],
          },
        ],
      }),
    );
    expect(texts(svg)).toEqual(expect.arrayContaining(["minutes since start", "0", "30", "60"]));
  });

  it("keeps series apart past the seven colours with dash patterns", () => {
    const series = Array.from({ length: 9 }, (_, index) => timeSeries(`op ${index}`, () => 10 + index));
    const svg = checkedSvg(latencyTimeChart({ title: "t", series }));
    const strokes = all(svg)
      .filter((element) => element.name === "path" && element.attributes["stroke-width"] === "2")
      .map((element) => `${element.attributes.stroke} ${element.attributes["stroke-dasharray"] ?? ""}`);
    expect(new Set(strokes).size).toBe(9);
  });
});

describe("throughputChart", () => {
  it("starts at zero and shows a dip at the kill", () => {
    const source = throughputChart({
      title: "Throughput",
      series: [
        timeSeries("ok/s", (t) => (t >= 40 && t < 47 ? 0 : 400)),
        timeSeries("errors/s", (t) => (t >= 40 && t < 47 ? 30 : 0)),
      ],
      events: EVENTS,
    });
    const svg = checkedSvg(source);
    expect(texts(svg)).toEqual(
      expect.arrayContaining(["ok/s", "errors/s", "kill app", "0", "100", "400", "requests per second"]),
    );
    expect(lineCount(svg)).toBe(2);
  });
});

describe("latencyDistributionChart", () => {
  const sortedSamples = (count: number, scale: number): Float64Array =>
    Float64Array.from({ length: count }, (_, index) => scale * (1 + 1 / (1 - index / count) ** 0.8)).sort();

  it("plots each series on a nines axis, with its p50, p99 and max in the legend", () => {
    const svg = checkedSvg(
      latencyDistributionChart({
        title: "Autosave latency",
        series: [
          { name: "app", samplesSortedMs: sortedSamples(20_000, 10) },
          { name: "baseline", samplesSortedMs: sortedSamples(20_000, 4) },
        ],
      }),
    );
    const labels = texts(svg);
    expect(labels).toEqual(expect.arrayContaining(["0%", "50%", "90%", "99%", "99.9%", "99.99%"]));
    expect(labels.some((label) => label.startsWith("app: p50 ") && label.includes("(n=20,000)"))).toBe(true);
    expect(labels.some((label) => label.startsWith("baseline: p50 "))).toBe(true);
    expect(lineCount(svg)).toBe(2);
  });

  it("stops the axis at the nines the samples can tell apart", () => {
    const labels = texts(
      checkedSvg(
        latencyDistributionChart({ title: "t", series: [{ name: "few", samplesSortedMs: sortedSamples(500, 10) }] }),
      ),
    );
    expect(labels).toContain("99.9%");
    expect(labels).not.toContain("99.99%");
  });

  it("ends a curve of more than 10,000 samples with its 99.99%, leaving the max to the legend", () => {
    const samples = Float64Array.from({ length: 100_000 }, (_, index) =>
      index === 99_999 ? 100_000 : 10 + index / 10_000,
    );
    const labels = texts(
      checkedSvg(
        latencyDistributionChart({ title: "t", series: [{ name: "s", samplesSortedMs: samples }], logScale: false }),
      ),
    );
    expect(labels).toContain("s: p50 15.0 ms · p99 19.9 ms · max 100,000 ms (n=100,000)");
    expect(labels).toContain("20");
    expect(labels.filter((label) => label.includes("100,000") || label.startsWith("Note:"))).toHaveLength(1);
  });

  it("sorts unsorted samples, skips non-finite ones, and survives none or one", () => {
    const unsorted = [30, 10, NaN, 20, Infinity, 40];
    const svg = checkedSvg(
      latencyDistributionChart({ title: "t", series: [{ name: "mixed", samplesSortedMs: unsorted }] }),
    );
    expect(texts(svg)).toContain("mixed: p50 20.0 ms · p99 40.0 ms · max 40.0 ms (n=4)");

    for (const samples of [[], [5], [0, 0, 0]]) {
      for (const logScale of [undefined, true, false]) {
        checkedSvg(
          latencyDistributionChart({ title: "t", series: [{ name: "s", samplesSortedMs: samples }], logScale }),
        );
      }
    }
    expect(
      texts(checkedSvg(latencyDistributionChart({ title: "t", series: [{ name: "s", samplesSortedMs: [] }] }))),
    ).toContain("s (no samples)");
    checkedSvg(latencyDistributionChart({ title: "t", series: [] }));
  });
});

describe("the XML reader these tests rely on", () => {
  it("rejects what a browser would", () => {
    for (const bad of [
      "<svg><g></svg>",
      "<svg><g></g>",
      "<svg a=1/>",
      '<svg a="1" a="2"/>',
      "<svg>a & b</svg>",
      "<svg/><svg/>",
      '<svg a="<"/>',
      "<svg>&nbsp;</svg>",
    ]) {
      expect(() => parseXml(bad), bad).toThrow();
    }
    expect(parseXml('<svg a="x &amp; y"><text>1 &lt; 2</text><g/></svg>')).toMatchObject({
      attributes: { a: "x & y" },
      children: [{ text: "1 < 2" }, { name: "g" }],
    });
  });
});
