import Link from "next/link";

/** A malformed, unknown, used or expired invitation link (answered 404). */
export default function InvitationNotFound() {
  return (
    <main className="auth-page">
      <div className="auth-card">
        <h1 className="brand">
          <span className="brand-mark">≋</span> Tidemark
        </h1>
        <p role="alert" className="error">
          This invitation link is unknown, already used or expired.
        </p>
        <p className="muted">Ask an admin of the organisation for a new one.</p>
        <p className="muted auth-switch">
          <Link href="/sign-in">Sign in</Link>
        </p>
      </div>
    </main>
  );
}
