import { hashPassword, issueToken } from "@tidemark/auth";
import type { Database } from "@tidemark/db/client";
import { createSession, createUser } from "@tidemark/db/organizations";

/**
 * A user with an organisation of their own and a day-long browser session: a benchmark's signed-in
 * caller. `session.secret` is the `tm_session` cookie's value.
 */
export async function benchUserSession(db: Database, label: string) {
  const { user, organization } = await createUser(db, {
    email: `bench-${label.toLowerCase().replaceAll(" ", "-")}-${Date.now()}@tidemark.invalid`,
    name: `${label} bench`,
    passwordHash: await hashPassword(issueToken("tm_session").secret),
    organizationName: `${label} bench ${Date.now()}`,
  });
  if (!organization) throw new Error("createUser made no organisation");
  const session = issueToken("tm_session");
  await createSession(db, {
    tokenHash: session.hash,
    userId: user.id,
    organizationId: organization.id,
    expiresAt: new Date(Date.now() + 86_400_000),
  });
  return { user, organization, session };
}
