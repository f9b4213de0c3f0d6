import type { Database } from "@tidemark/db/client";
import { findSession, type Role } from "@tidemark/db/organizations";
import { createTestOrg, createTestSession, testPrisma } from "@tidemark/db/testing";
import { createCaller } from "../src/index.ts";

/** A caller signed in as `userId` (a browser session) with `organizationId` active. */
export async function sessionCaller(db: Database, userId: string, organizationId: string) {
  const tokenHash = await createTestSession(db, userId, organizationId);
  return createCaller({ db, session: await findSession(db, tokenHash), sameOrigin: true });
}

/**
 * A signed-in member with `role`, calling the API as the web app does: of a fresh organisation,
 * or (given its id) of an existing one.
 */
export async function signedInMember(db: Database, role: Role, organizationId?: string) {
  const { organization, user } = await createTestOrg(db, role);
  const orgId = organizationId ?? organization.id;
  if (organizationId) await testPrisma(db).membership.create({ data: { userId: user.id, organizationId, role } });
  return { organizationId: orgId, organization, user, caller: await sessionCaller(db, user.id, orgId) };
}
