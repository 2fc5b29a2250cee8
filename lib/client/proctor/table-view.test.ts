import { describe, expect, it } from "vitest";

import { candidateFacts, deviceFacts, NOW } from "@/test-support/shared/candidate-facts";
import { countRows, deriveRows, DEFAULT_VIEW, viewRows, type TableView } from "./table-view";

const names = (view: TableView, rows = deriveRows(mixedClass(), NOW)) =>
  viewRows(rows, view).map((row) => row.facts.name);

/** One candidate in each state a proctor tells apart. */
function mixedClass() {
  return [
    candidateFacts({ name: "Bea Online", email: "bea@example.org", answered: 2 }),
    candidateFacts({
      name: "Cem Offline",
      email: "cem@example.org",
      answered: 4,
      devices: [
        deviceFacts({
          online: false,
          pending: 2,
          oldestPendingMs: 8_000,
          offlineSince: NOW - 10_000,
          lastHeartbeatAt: NOW - 5_000,
        }),
      ],
    }),
    candidateFacts({
      name: "Dana At Risk",
      email: "dana@example.org",
      answered: 1,
      devices: [
        deviceFacts({
          online: false,
          pending: 3,
          oldestPendingMs: 20_000,
          offlineSince: NOW - 40_000,
          lastHeartbeatAt: NOW - 10_000,
        }),
      ],
    }),
    candidateFacts({
      name: "Émile Submitted",
      email: "emile@example.org",
      phase: "submitted",
      submittedAt: NOW - 60_000,
      deadline: null,
    }),
    candidateFacts({
      name: "Ana Not Started",
      email: "ana@example.org",
      phase: "not_started",
      attemptId: null,
      devices: [],
      startedAt: null,
      deadline: null,
      answered: 0,
    }),
    candidateFacts({
      name: "Finn Quiet",
      email: "finn@example.org",
      answered: 5,
      devices: [deviceFacts({ lastHeartbeatAt: NOW - 60_000 })],
    }),
  ];
}

describe("the candidates table's view", () => {
  it("puts at-risk candidates first by default, then pending work, then everyone by name", () => {
    expect(names(DEFAULT_VIEW)).toEqual([
      "Dana At Risk",
      "Finn Quiet",
      "Cem Offline",
      "Ana Not Started",
      "Bea Online",
      "Émile Submitted",
    ]);
  });

  it("each counter button filters to exactly the candidates it counts", () => {
    const rows = deriveRows(mixedClass(), NOW);
    const counters = countRows(rows);
    expect(counters).toMatchObject({
      online: 1,
      offline: 2,
      unreachable: 1,
      pending: 2,
      atRisk: 2,
      submitted: 1,
      notStarted: 1,
    });

    expect(names({ ...DEFAULT_VIEW, filter: "online", sort: "name" }, rows)).toEqual(["Bea Online"]);
    expect(names({ ...DEFAULT_VIEW, filter: "offline", sort: "name" }, rows)).toEqual([
      "Cem Offline",
      "Dana At Risk",
      "Finn Quiet",
    ]);
    expect(names({ ...DEFAULT_VIEW, filter: "pending", sort: "name" }, rows)).toEqual(["Cem Offline", "Dana At Risk"]);
    expect(names({ ...DEFAULT_VIEW, filter: "atRisk", sort: "name" }, rows)).toEqual(["Dana At Risk", "Finn Quiet"]);
    expect(names({ ...DEFAULT_VIEW, filter: "submitted" }, rows)).toEqual(["Émile Submitted"]);
    expect(names({ ...DEFAULT_VIEW, filter: "notStarted" }, rows)).toEqual(["Ana Not Started"]);
    // The offline counter includes the unreachable, as its button says.
    expect(counters.offline + counters.unreachable).toBe(3);
  });

  it("searches name and email, ignoring case and accents", () => {
    expect(names({ ...DEFAULT_VIEW, search: "emile" })).toEqual(["Émile Submitted"]);
    expect(names({ ...DEFAULT_VIEW, search: "CEM@EXAMPLE" })).toEqual(["Cem Offline"]);
    expect(names({ ...DEFAULT_VIEW, search: "  nobody " })).toEqual([]);
  });

  it("sorts by every column both ways, with missing values last", () => {
    expect(names({ ...DEFAULT_VIEW, sort: "name", direction: "asc" })[0]).toBe("Ana Not Started");
    // Names compare as people read them: É sorts with E.
    expect(names({ ...DEFAULT_VIEW, sort: "name", direction: "desc" }).slice(0, 2)).toEqual([
      "Finn Quiet",
      "Émile Submitted",
    ]);
    expect(names({ ...DEFAULT_VIEW, sort: "answered", direction: "desc" }).slice(0, 2)).toEqual([
      "Finn Quiet",
      "Cem Offline",
    ]);
    expect(names({ ...DEFAULT_VIEW, sort: "oldestPending", direction: "asc" }).slice(0, 2)).toEqual([
      "Dana At Risk",
      "Cem Offline",
    ]);
    expect(names({ ...DEFAULT_VIEW, sort: "connection", direction: "asc" })[0]).toBe("Finn Quiet");
    expect(names({ ...DEFAULT_VIEW, sort: "status", direction: "asc" }).at(-1)).toBe("Émile Submitted");
    const timeLeft = names({ ...DEFAULT_VIEW, sort: "timeLeft", direction: "desc" });
    expect(timeLeft.slice(-2).sort()).toEqual(["Ana Not Started", "Émile Submitted"]);
  });

  it("never reorders the rows it was given", () => {
    const rows = deriveRows(mixedClass(), NOW);
    const before = rows.map((row) => row.facts.name);
    viewRows(rows, { ...DEFAULT_VIEW, sort: "name", direction: "desc" });
    expect(rows.map((row) => row.facts.name)).toEqual(before);
  });
});
