import Link from "next/link";

export default function HomePage() {
  return (
    <main style={{ maxWidth: 640, margin: "10vh auto", padding: "0 1.5rem" }}>
      <h1>Holdfast</h1>
      <p>Online exams where a candidate never loses an answer and never submits twice.</p>
      <p>
        Candidates: open the personal link your exam organiser sent you. Staff: <Link href="/signin">sign in</Link>.
      </p>
    </main>
  );
}
