import Link from "next/link";

import { SiteHeader } from "@/components/site-header";

export default function NotFound() {
  return (
    <>
      <SiteHeader width="narrow" />
      <main className="page page--narrow">
        <h1>Page not found</h1>
        <p>There is nothing at this address, or it is not yours to see.</p>
        <p>
          Taking an exam? Open the personal join link from your invitation; it brings you to your exam. Exam staff can{" "}
          <Link href="/signin">sign in</Link>.
        </p>
        <p>
          <Link href="/">Go to the Holdfast home page</Link>
        </p>
      </main>
    </>
  );
}
