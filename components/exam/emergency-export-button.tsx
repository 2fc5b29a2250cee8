"use client";

import { useState } from "react";

import { makeEmergencyFile } from "@/lib/client/emergency-export";
import type { EmergencyExportFile } from "@/lib/shared/emergency-export";

function download(file: EmergencyExportFile) {
  const blob = new Blob([`${JSON.stringify(file, null, 2)}\n`], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = `holdfast-emergency-${file.attemptId}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has handed the file to the browser.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

const NO_KEY_MESSAGE =
  "This device cannot make the file: it was never online while this exam was open. Your answers stay on this device; tell your proctor.";

/**
 * "Download emergency file" (docs/sync-protocol.md, "Emergency export"): the answers still waiting on this
 * device, encrypted in the browser for the server, to hand to a proctor when the network is gone for good.
 */
export function EmergencyExport({
  attemptId,
  pendingCount,
  headingLevel = 2,
}: {
  attemptId: string;
  pendingCount: number;
  /** 3 inside the final screen, whose own heading is an h2. */
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 3 ? "h3" : "h2";
  const [message, setMessage] = useState<string | null>(null);
  const [isWorking, setIsWorking] = useState(false);

  const onDownload = async () => {
    setIsWorking(true);
    setMessage(null);
    try {
      const outcome = await makeEmergencyFile(attemptId);
      if (!outcome.ok) {
        setMessage(
          outcome.reason === "no-key"
            ? NO_KEY_MESSAGE
            : "Every answer on this device has reached the server: no file is needed.",
        );
        return;
      }
      download(outcome.file);
      setMessage(
        `The file holds ${outcome.count} ${outcome.count === 1 ? "answer" : "answers"}. Give it to your proctor; it is encrypted, so only Holdfast can read it.`,
      );
    } catch {
      setMessage("The file could not be made in this browser. Your answers stay on this device; tell your proctor.");
    } finally {
      setIsWorking(false);
    }
  };

  return (
    <section className="notice notice--warn" aria-labelledby="emergency-export-title">
      <Heading id="emergency-export-title">Answers still on this device</Heading>
      <p>
        {pendingCount} {pendingCount === 1 ? "answer has" : "answers have"} not reached the server, and the time is up.
        Download an emergency file and give it to your proctor: they can add it to your exam.
      </p>
      <p>
        <button type="button" className="button button--primary" onClick={() => void onDownload()} disabled={isWorking}>
          Download emergency file
        </button>
      </p>
      {message ? <p role="status">{message}</p> : null}
    </section>
  );
}
