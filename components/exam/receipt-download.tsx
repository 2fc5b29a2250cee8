"use client";

import { useTranslations } from "next-intl";

import { receiptFile, type ReceiptFacts } from "./receipt";

function download(facts: ReceiptFacts) {
  const blob = new Blob([`${JSON.stringify(receiptFile(facts), null, 2)}\n`], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = `holdfast-receipt-${facts.attemptId}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has handed the file to the browser.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** "Download receipt": the receipt as a file (JSON), with the server's signature when this screen holds it. */
export function ReceiptDownload({ facts }: { facts: ReceiptFacts }) {
  const t = useTranslations("exam.receipt");
  return (
    <button type="button" className="button button--primary" onClick={() => download(facts)}>
      {t("download")}
    </button>
  );
}
