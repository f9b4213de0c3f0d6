import { hashToken } from "@tidemark/auth";
import { findPendingInvitation } from "@tidemark/db";
import Link from "next/link";
import { SignOutButton } from "~/components/sign-out-button";
import { currentSession } from "~/server/current-session";
import { getDatabase } from "~/server/database";
import { InviteActions } from "./invite-actions";

export const dynamic = "force-dynamic";

/** Where an invitation link lands: sign in or create the invited account, then join. */
export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const invitation = await findPendingInvitation(await getDatabase(), hashToken(decodeURIComponent(token)));
  const session = await currentSession();
  return (
    <main className="auth-page">
      <div className="auth-card">
        <h1 className="brand">
          <span className="brand-mark">≋</span> Tidemark
        </h1>
        {!invitation ? (
          <>
            <p role="alert" className="error">
              This invitation link is unknown, already used or expired.
            </p>
            <p className="muted">Ask an admin of the organisation for a new one.</p>
            <p className="muted auth-switch">
              <Link href="/sign-in">Sign in</Link>
            </p>
          </>
        ) : (
          <>
            <p>
              You are invited to join <strong>{invitation.organizationName}</strong> as <strong>{invitation.role}</strong>.
            </p>
            <p className="muted">The invitation is for {invitation.email}.</p>
            {session && session.email.toLowerCase() !== invitation.email ? (
              <>
                <p role="alert" className="error">
                  You are signed in as {session.email}. Sign out, then open this link again to join as {invitation.email}.
                </p>
                <SignOutButton />
              </>
            ) : (
              <InviteActions token={decodeURIComponent(token)} email={invitation.email} signedIn={session !== null} />
            )}
          </>
        )}
      </div>
    </main>
  );
}
