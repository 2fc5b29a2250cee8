import { z } from "@/lib/shared/zod";

import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from "../text";
import { UuidSchema } from "./attempts";
import { DeviceIdSchema } from "./sync";

export const ANNOUNCEMENT_LIMITS = { maxMessageLength: 2000, maxRecipients: 10_000, maxReceiptIds: 500 } as const;

/** `POST /api/proctor/exams/{examId}/announcements`. No `enrollmentIds`: every candidate of the exam. */
export const SendAnnouncementSchema = z.object({
  message: z
    .string()
    .trim()
    .min(1, "write a message")
    .max(ANNOUNCEMENT_LIMITS.maxMessageLength, "must be at most 2000 characters")
    .refine(isStorableText, UNSTORABLE_TEXT_MESSAGE),
  enrollmentIds: z
    .array(UuidSchema)
    .min(1, "select at least one candidate, or leave the list out to reach everyone")
    .max(ANNOUNCEMENT_LIMITS.maxRecipients, "at most 10,000 candidates at once")
    .optional(),
});
export type SendAnnouncementBody = z.infer<typeof SendAnnouncementSchema>;

/** `POST /api/attempts/{attemptId}/announcements/receipts`: the announcements this device has stored. */
export const AnnouncementReceiptsSchema = z.object({
  deviceId: DeviceIdSchema,
  ids: z.array(UuidSchema).min(1, "name at least one announcement").max(ANNOUNCEMENT_LIMITS.maxReceiptIds),
});
export type AnnouncementReceiptsBody = z.infer<typeof AnnouncementReceiptsSchema>;

/** An announcement as its candidates see it (the attempt view, the `announcement` event, the local store). */
export type CandidateAnnouncement = { id: string; message: string; sentAt: string };

/** The 201 of a send (and of its replays). `enrollmentIds` null: every candidate of the exam. */
export type SentAnnouncement = CandidateAnnouncement & { enrollmentIds: string[] | null };

/** One entry of `GET /api/proctor/exams/{examId}/announcements`, newest first. */
export type StaffAnnouncement = SentAnnouncement & {
  /** Who sent it, as proctors read it ("Ada Lovelace <ada@…>" or "API token"). */
  sentBy: string;
  /** Candidates it is for, whether they have started or not. */
  recipients: number;
  /** Candidates with at least one device that has stored it. */
  receivedCandidates: number;
  receivedDevices: number;
};
