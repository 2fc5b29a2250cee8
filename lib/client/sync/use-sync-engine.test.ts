import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";

import { FakeServer, Q } from "@/test-support/client/fake-server";
import { FakeClock } from "@/test-support/client/fake-clock";
import { useSyncEngine } from "./use-sync-engine";

describe("useSyncEngine", () => {
  it("renders on the server from the page's view, touching neither IndexedDB nor the network", () => {
    const server = new FakeServer(new FakeClock());
    server.put(Q.text, "saved on the server", 2, "phone");
    const requests: string[] = [];
    const fetch = (input: string) => {
      requests.push(input);
      return Promise.reject(new Error("no network during a server render"));
    };

    function Probe() {
      const { state } = useSyncEngine({
        attemptId: server.attemptId,
        initialView: server.view(),
        engineOptions: { fetch },
      });
      return createElement(
        "p",
        null,
        `${state.examTitle} · ${state.questions.length} questions · ${String(state.answers[Q.text]?.value)} · ${state.submitState} · ready=${String(state.ready)}`,
      );
    }

    const html = renderToString(createElement(Probe));
    expect(html).toContain("Networking 101 · 5 questions · saved on the server · unsubmitted · ready=false");
    expect(requests).toEqual([]);
  });
});
