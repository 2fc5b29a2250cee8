import Link from "next/link";

import { SiteHeader } from "./site-header";

/** What a candidate sees on an exam page their session does not open: the way in is their own link. */
export function JoinLinkNeeded() {
  return (
    <>
      <SiteHeader width="narrow" />
      <main className="page page--narrow">
        <h1>Open your personal join link</h1>
        <p>
          This exam page opens only through the personal join link in your invitation. Open that link on this device and
          you will come straight back here, to your own exam.
        </p>
        <p>
          Lost the link, or it does not work? Ask your exam organiser to send it again. Each candidate has their own
          link; someone else&apos;s will not show you their exam.
        </p>
        <p className="muted">
          Exam staff: <Link href="/signin">sign in here</Link>.
        </p>
      </main>
    </>
  );
}
