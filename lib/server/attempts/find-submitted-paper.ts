import "server-only";

import { answersDigest } from "@/lib/shared/digest";
import type { AttemptView } from "@/lib/shared/schemas/attempts";

import { db } from "../db/client";
import { findAttemptView } from "./attempt-view";

export type SubmittedPaper = {
  view: AttemptView;
  submission: NonNullable<AttemptView["submission"]> & {
    source: NonNullable<NonNullable<AttemptView["submission"]>["source"]>;
  };
  /** The server's signed receipt (HMAC over attempt id, submission time and digest; docs/sync-protocol.md). */
  receipt: string;
  /** The digest of the answers as they are now equals the submission's: the paper below is the one frozen. */
  isDigestConfirmed: boolean;
};

/**
 * The candidate's submitted paper as the server froze it, with its signed receipt: read-only, for the page
 * that shows it. Scoped to the candidate's enrollment like every candidate read (someone else's id is null),
 * and null while the attempt is not submitted. The answers table holds the frozen paper (answers that arrive
 * later are kept apart, as late answers), and the digest is computed again to show it still matches.
 */
export async function findSubmittedPaper(options: {
  attemptId: string;
  enrollmentId: string;
}): Promise<SubmittedPaper | null> {
  const view = await findAttemptView(options);
  if (!view?.submission || view.status !== "submitted") return null;
  const row = await db.submission.findUnique({
    where: { attemptId: view.attemptId },
    select: { receipt: true, source: true },
  });
  if (!row) return null;
  const digest = await answersDigest(view.answers);
  return {
    view,
    submission: { ...view.submission, source: row.source },
    receipt: row.receipt,
    isDigestConfirmed: digest === view.submission.digest,
  };
}
