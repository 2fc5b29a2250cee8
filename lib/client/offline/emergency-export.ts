import type { DraftRecord, HoldfastDb } from "./db";

/**
 * Dexie operations for the emergency export (docs/sync-protocol.md, "Emergency export"). No fetch and no
 * crypto run inside these transactions; the caller encrypts after reading.
 */

/** Keeps the attempt's export key on the record. False when the record does not exist yet. */
export async function saveExportKey(db: HoldfastDb, attemptId: string, exportKey: string): Promise<boolean> {
  const updated = await db.attempts.update(attemptId, { exportKey });
  return updated === 1;
}

export type ExportMaterial = {
  exportKey: string | null;
  deviceId: string | null;
  /** This device's edits the server has not acknowledged (rejected ones left out: the server refused them). */
  drafts: DraftRecord[];
};

/** What an emergency file holds, read in one transaction so the key, device and drafts agree. */
export async function readExportMaterial(db: HoldfastDb, attemptId: string): Promise<ExportMaterial> {
  return db.transaction("r", db.attempts, db.device, db.drafts, async () => {
    const attempt = await db.attempts.get(attemptId);
    const device = await db.device.get("device");
    const deviceId = device?.deviceId ?? null;
    const dirty = await db.drafts.where("[attemptId+dirty]").equals([attemptId, 1]).toArray();
    return {
      exportKey: attempt?.exportKey ?? null,
      deviceId,
      drafts: dirty
        .filter((draft) => draft.rejected === null && draft.deviceId === deviceId)
        .sort((a, b) => a.editedAt - b.editedAt),
    };
  });
}
