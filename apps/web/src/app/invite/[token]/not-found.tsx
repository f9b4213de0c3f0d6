import Link from "next/link";
import { AuthCard } from "~/components/auth-card";

/** A malformed, unknown, used or expired invitation link (answered 404). */
export default function InvitationNotFound() {
  return (
    <AuthCard>
      <p role="alert" className="error">
        This invitation link is unknown, already used or expired.
      </p>
      <p className="muted">Ask an admin of the organisation for a new one.</p>
      <p className="muted auth-switch">
        <Link href="/sign-in">Sign in</Link>
      </p>
    </AuthCard>
  );
}
