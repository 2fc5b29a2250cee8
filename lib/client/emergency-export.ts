import {
  encryptEmergencyExport,
  type EmergencyExportFile,
  type ExportKeyResponse,
} from "@/lib/shared/emergency-export";

import { getDb } from "./offline/db";
import { readExportMaterial, saveExportKey } from "./offline/emergency-export";

/**
 * The candidate's side of the emergency export (docs/sync-protocol.md, "Emergency export"; ADR 006).
 *
 * 1. While online, fetch the attempt's public key once and keep it on the attempt's IndexedDB record.
 * 2. When asked, read the unsynced drafts, encrypt them to that key in the browser, and hand back the file.
 */

/** Step 1. Returns true once the key is on the device. Network failures are quiet: it is tried again later. */
export async function fetchAndKeepExportKey(attemptId: string): Promise<boolean> {
  const db = getDb();
  const existing = await db.attempts.get(attemptId);
  if (!existing) return false;
  if (existing.exportKey) return true;
  let response: Response;
  try {
    response = await fetch(`/api/attempts/${encodeURIComponent(attemptId)}/export-key`, {
      credentials: "same-origin",
      cache: "no-store",
    });
  } catch {
    return false;
  }
  if (!response.ok) return false;
  const body = (await response.json().catch(() => null)) as ExportKeyResponse | null;
  if (!body || body.attemptId !== attemptId || typeof body.publicKey !== "string") return false;
  return saveExportKey(db, attemptId, body.publicKey);
}

export type EmergencyFileOutcome =
  { ok: true; file: EmergencyExportFile; count: number } | { ok: false; reason: "no-key" | "nothing-to-export" };

/** Step 2. */
export async function makeEmergencyFile(attemptId: string, now: Date = new Date()): Promise<EmergencyFileOutcome> {
  const material = await readExportMaterial(getDb(), attemptId);
  if (!material.exportKey || !material.deviceId) return { ok: false, reason: "no-key" };
  if (material.drafts.length === 0) return { ok: false, reason: "nothing-to-export" };
  const file = await encryptEmergencyExport({
    publicKey: material.exportKey,
    payload: {
      v: 1,
      attemptId,
      deviceId: material.deviceId,
      createdAt: now.toISOString(),
      answers: material.drafts.map((draft) => ({
        questionId: draft.questionId,
        value: draft.value,
        version: draft.version,
        ...(draft.editedAt > 0 ? { editedAt: new Date(draft.editedAt).toISOString() } : {}),
      })),
    },
  });
  return { ok: true, file, count: material.drafts.length };
}
