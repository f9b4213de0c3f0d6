import { hashToken } from "@tidemark/auth";
import { findPendingInvitation } from "@tidemark/db/organizations";
import { notFound } from "next/navigation";
import { AuthCard } from "~/components/auth-card";
import { SignOutButton } from "~/components/sign-out-button";
import { currentSession } from "~/server/current-session";
import { getDatabase } from "~/server/database";
import { invitationToken } from "./invitation-token";
import { InviteActions } from "./invite-actions";

export const dynamic = "force-dynamic";

/**
 * Where an invitation link lands: sign in or create the invited account, then join. A malformed,
 * unknown, used or expired link is a 404 saying so (not-found.tsx), never an error.
 */
export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const token = invitationToken((await params).token);
  if (!token) notFound();
  const invitation = await findPendingInvitation(await getDatabase(), hashToken(token));
  if (!invitation) notFound();
  const session = await currentSession();
  return (
    <AuthCard>
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
        <InviteActions token={token} email={invitation.email} signedIn={session !== null} />
      )}
    </AuthCard>
  );
}
