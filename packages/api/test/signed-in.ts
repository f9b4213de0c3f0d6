import { type Database, findSession, type Role } from "@tidemark/db";
import { createTestOrg } from "../../db/test/helpers.ts";
import { createCaller } from "../src/index.ts";

/**
 * A signed-in member with `role`, calling the API as the web app does: of a fresh organisation,
 * or (given its id) of an existing one.
 */
export async function signedInMember(db: Database, role: Role, organizationId?: string) {
  const { organization, user } = await createTestOrg(db, role);
  const orgId = organizationId ?? organization.id;
  if (organizationId) await db.prisma.membership.create({ data: { userId: user.id, organizationId, role } });
  const tokenHash = `test-${crypto.randomUUID()}`;
  await db.prisma.session.create({
    data: { tokenHash, userId: user.id, activeOrganizationId: orgId, expiresAt: new Date(Date.now() + 600_000) },
  });
  return {
    organizationId: orgId,
    organization,
    user,
    caller: createCaller({ db, session: await findSession(db, tokenHash), sameOrigin: true }),
  };
}
