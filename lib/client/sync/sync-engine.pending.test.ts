import { afterEach, beforeEach, describe, expect, it } from "vitest";

import type { AttemptView } from "@/lib/shared/schemas/attempts";
import type { CandidateQuestion } from "@/lib/shared/schemas/exams";

import { listDrafts } from "../offline/drafts";
import { ATTEMPT_ID } from "@/test-support/client/fake-server";
import { testEnvironment } from "@/test-support/client/fake-tabs";
import { createHarness, type Harness } from "@/test-support/client/harness";

/**
 * The pending count after an offline reload (issue 11, defect 2): it is the number of questions whose latest
 * local edit the server has not acknowledged — in the snapshot (banner, sticky bar, navigator) and in the
 * heartbeat the proctor sees. An offline reload renders the copy of the page the service worker kept when
 * the page was last loaded online; its answers predate every acknowledgement since, and must not make the
 * acknowledged edits pending again.
 */

let h: Harness;
beforeEach(() => {
  h = createHarness();
  h.server.questions = NINE;
});
afterEach(async () => {
  await h.cleanup();
});

const NINE: CandidateQuestion[] = Array.from({ length: 9 }, (_, index) => ({
  id: `9a9a9a9a-0000-4000-8000-00000000000${index + 1}`,
  position: index + 1,
  type: index % 2 === 0 ? "short_text" : "essay",
  prompt: `Question ${index + 1}.`,
  points: 1,
}));
const ids = NINE.map((question) => question.id);
const EDITED_OFFLINE = [ids[1]!, ids[6]!];

const offlineTab = () => {
  const environment = testEnvironment();
  environment.setOnline(false);
  return environment;
};

/** Answers all nine online (every edit acknowledged), then goes offline and edits two again; the tab closes. */
async function nineAnsweredTwoEditedOffline(keptPage: AttemptView) {
  const first = h.engine({ initialView: keptPage });
  await first.engine.start();
  await h.settle();
  for (const id of ids) await first.engine.edit(id, `online answer to ${id}`);
  await h.advance(1_500);
  expect(first.engine.getSnapshot().pendingCount).toBe(0);
  expect(h.server.answers.size).toBe(9);

  h.server.reachable = false;
  first.env.setOnline(false);
  for (const id of EDITED_OFFLINE) await first.engine.edit(id, `offline edit of ${id}`);
  await h.advance(20_000);
  expect(first.engine.getSnapshot().pendingCount).toBe(2);
  first.engine.stop();
  await h.settle();
}

const pendingIds = (answers: Record<string, { status: string }>) =>
  Object.entries(answers)
    .filter(([, answer]) => answer.status === "pending")
    .map(([id]) => id)
    .sort();

describe("pending count after an offline reload", () => {
  it("counts only the two questions edited offline, in the snapshot and in the heartbeat, and sends only those", async () => {
    // The page as the service worker kept it: loaded once, online, before any answer.
    const keptPage = h.server.view();
    await nineAnsweredTwoEditedOffline(keptPage);

    const requestsBefore = h.server.requests.length;
    const reloaded = h.engine({ initialView: keptPage, environment: offlineTab() });
    await reloaded.engine.start();
    await h.settle();

    const snapshot = reloaded.engine.getSnapshot();
    expect(snapshot.ready).toBe(true);
    expect(Object.keys(snapshot.answers)).toHaveLength(9);
    expect(snapshot.pendingCount).toBe(2);
    expect(pendingIds(snapshot.answers)).toEqual([...EDITED_OFFLINE].sort());
    expect(snapshot.answers[ids[0]!]).toMatchObject({ status: "saved", value: `online answer to ${ids[0]}` });
    expect(snapshot.answers[ids[1]!]).toMatchObject({ status: "pending", value: `offline edit of ${ids[1]}` });
    // On the device too: a later tab or reload reads the same.
    expect(
      (await listDrafts(h.db, ATTEMPT_ID))
        .filter((draft) => draft.dirty === 1)
        .map((d) => d.questionId)
        .sort(),
    ).toEqual([...EDITED_OFFLINE].sort());

    // The heartbeat the proctor sees: sent as the tab takes the sync role (offline it fails, and once the
    // breaker opens none is sent; what counts is what each one says).
    await h.advance(15_000);
    const beats = h.server.requests.slice(requestsBefore).filter((request) => request.route === "heartbeat");
    expect(beats.length).toBeGreaterThanOrEqual(1);
    for (const beat of beats) expect(beat.body).toMatchObject({ pending: 2, online: false });

    // Back online: the two edits, and only they, are sent; nothing is left pending.
    const sentBefore = h.server.requests.length;
    h.server.reachable = true;
    reloaded.env.setOnline(true);
    await h.advance(2_000);
    const sent = h.server.requests
      .slice(sentBefore)
      .filter((request) => request.route === "answers")
      .flatMap((request) => (request.body.answers as { questionId: string }[]).map((answer) => answer.questionId));
    expect(sent.sort()).toEqual([...EDITED_OFFLINE].sort());
    expect(reloaded.engine.getSnapshot().pendingCount).toBe(0);
    for (const id of EDITED_OFFLINE) expect(h.server.answers.get(id)?.value).toBe(`offline edit of ${id}`);
    // What the proctor sees next: the device's report, carried by that autosave (ADR 022) or a heartbeat.
    await h.advance(5_000);
    const reports = h.server.requests.flatMap((request) =>
      request.route === "heartbeat"
        ? [request.body]
        : request.route === "answers" && request.body.device
          ? [request.body.device]
          : [],
    );
    expect(reports.at(-1)).toMatchObject({ pending: 0, online: true });
  });

  it("stays two after every further offline reload", async () => {
    const keptPage = h.server.view();
    await nineAnsweredTwoEditedOffline(keptPage);
    for (let reload = 0; reload < 2; reload += 1) {
      const tab = h.engine({ initialView: keptPage, environment: offlineTab() });
      await tab.engine.start();
      await h.settle();
      expect(tab.engine.getSnapshot().pendingCount).toBe(2);
      tab.engine.stop();
    }
  });

  it("still pushes again an acknowledged edit that a live read of the server no longer holds (a restored server)", async () => {
    const keptPage = h.server.view();
    await nineAnsweredTwoEditedOffline(keptPage);
    // The server lost everything after a restore; the page's render (kept or fresh) cannot tell, its GET can.
    h.server.answers.clear();
    h.server.reachable = true;
    const reloaded = h.engine({ initialView: keptPage });
    await reloaded.engine.start();
    await h.advance(2_000);
    expect(reloaded.engine.getSnapshot().pendingCount).toBe(0);
    expect(h.server.answers.size).toBe(9);
    expect(h.server.answers.get(ids[0]!)?.value).toBe(`online answer to ${ids[0]}`);
    expect(h.server.answers.get(ids[1]!)?.value).toBe(`offline edit of ${ids[1]}`);
  });
});
