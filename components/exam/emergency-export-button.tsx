"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";

import { makeEmergencyFile } from "@/lib/client/emergency-export";
import type { EmergencyExportFile } from "@/lib/shared/emergency-export";

import { EMERGENCY_EXPORT_ID } from "./ids";

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
  const t = useTranslations("exam.emergency");
  const Heading = headingLevel === 3 ? "h3" : "h2";
  const [message, setMessage] = useState<string | null>(null);
  const [isWorking, setIsWorking] = useState(false);

  const onDownload = async () => {
    setIsWorking(true);
    setMessage(null);
    try {
      const outcome = await makeEmergencyFile(attemptId);
      if (!outcome.ok) {
        setMessage(outcome.reason === "no-key" ? t("noKey") : t("nothingToExport"));
        return;
      }
      download(outcome.file);
      setMessage(t("made", { count: outcome.count }));
    } catch {
      setMessage(t("failed"));
    } finally {
      setIsWorking(false);
    }
  };

  return (
    <section className="notice notice--warn" aria-labelledby={EMERGENCY_EXPORT_ID}>
      <Heading id={EMERGENCY_EXPORT_ID} tabIndex={-1}>
        {t("title")}
      </Heading>
      <p>{t("text", { count: pendingCount })}</p>
      <p>
        <button type="button" className="button button--primary" onClick={() => void onDownload()} disabled={isWorking}>
          {t("download")}
        </button>
      </p>
      {message ? <p role="status">{message}</p> : null}
    </section>
  );
}
