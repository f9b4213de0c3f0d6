import Link from "next/link";

/** A page or a record that does not exist (or not in the active organisation). */
export default function NotFound() {
  return (
    <section className="panel not-found">
      <h1>Not found</h1>
      <p className="muted">There is no such page here, or it belongs to an organisation you are not working in.</p>
      <p>
        <Link href="/">Back to the overview</Link>
      </p>
    </section>
  );
}
