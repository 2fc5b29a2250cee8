import type { DraftRecord, HoldfastDb } from "./db";

/**
 * IndexedDB operations for the emergency export (docs/sync-protocol.md, "Emergency export"). No fetch and no
 * crypto run inside these transactions; the caller encrypts after reading.
 */

/** Keeps the attempt's export key on the record. False when the record does not exist yet. */
export async function saveExportKey(db: HoldfastDb, attemptId: string, exportKey: string): Promise<boolean> {
  return db.transaction("rw", ["attempts"], async (tx) => {
    const attempt = await tx.attempts.get(attemptId);
    if (!attempt) return false;
    if (attempt.exportKey !== exportKey) await tx.attempts.put({ ...attempt, exportKey });
    return true;
  });
}

export type ExportMaterial = {
  exportKey: string | null;
  deviceId: string | null;
  /** This device's edits the server has not acknowledged (rejected ones left out: the server refused them). */
  drafts: DraftRecord[];
};

/** What an emergency file holds, read in one transaction so the key, device and drafts agree. */
export async function readExportMaterial(db: HoldfastDb, attemptId: string): Promise<ExportMaterial> {
  return db.transaction("r", ["attempts", "device", "drafts"], async (tx) => {
    const attempt = await tx.attempts.get(attemptId);
    const device = await tx.device.get("device");
    const deviceId = device?.deviceId ?? null;
    const dirty = await tx.drafts.allBy("[attemptId+dirty]", [attemptId, 1]);
    return {
      exportKey: attempt?.exportKey ?? null,
      deviceId,
      drafts: dirty
        .filter((draft) => draft.rejected === null && draft.deviceId === deviceId)
        .sort((a, b) => a.editedAt - b.editedAt),
    };
  });
}
