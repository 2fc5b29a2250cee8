import type { CandidateAnnouncement } from "@/lib/shared/schemas/announcements";

import type { AnnouncementRecord, HoldfastDb } from "./db";

/** The attempt's announcements on this device, oldest first. */
export async function listAnnouncements(db: HoldfastDb, attemptId: string): Promise<AnnouncementRecord[]> {
  const records = await db.announcements.allBy("attemptId", attemptId);
  return records.sort((a, b) => a.sentAt.localeCompare(b.sentAt) || a.id.localeCompare(b.id));
}

/**
 * Keeps announcements the server sent (pushed or caught up). One already stored keeps its local state
 * (dismissed, acknowledged): the server's copy never changes, so only new ones are written. Returns the new ones.
 */
export function storeAnnouncements(
  db: HoldfastDb,
  attemptId: string,
  announcements: readonly CandidateAnnouncement[],
): Promise<AnnouncementRecord[]> {
  return db.transaction("rw", ["announcements"], async (tx) => {
    const stored = await tx.announcements.bulkGet(announcements.map(({ id }) => [attemptId, id] as [string, string]));
    const added = announcements
      .filter((_, index) => stored[index] === undefined)
      .map(({ id, message, sentAt }): AnnouncementRecord => ({
        attemptId,
        id,
        message,
        sentAt,
        dismissed: 0,
        acknowledged: 0,
      }));
    await tx.announcements.bulkPut(added);
    return added;
  });
}

/** Sets the local flags of stored announcements (an unknown id is skipped). */
export function updateAnnouncements(
  db: HoldfastDb,
  attemptId: string,
  ids: readonly string[],
  change: Partial<Pick<AnnouncementRecord, "dismissed" | "acknowledged">>,
): Promise<void> {
  return db.transaction("rw", ["announcements"], async (tx) => {
    const stored = await tx.announcements.bulkGet(ids.map((id) => [attemptId, id] as [string, string]));
    await tx.announcements.bulkPut(
      stored.filter((record) => record !== undefined).map((record) => ({ ...record, ...change })),
    );
  });
}
