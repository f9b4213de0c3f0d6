import { type Database, findSession, type Role } from "@tidemark/db";
import { createTestOrg } from "../../db/test/helpers.ts";
import { createCaller } from "../src/index.ts";

/** A fresh organisation and a signed-in member of it with `role`, calling the API as the web app does. */
export async function signedInMember(db: Database, role: Role) {
  const { organization, user } = await createTestOrg(db, role);
  const tokenHash = `test-${crypto.randomUUID()}`;
  await db.prisma.session.create({
    data: { tokenHash, userId: user.id, activeOrganizationId: organization.id, expiresAt: new Date(Date.now() + 600_000) },
  });
  return { organization, user, caller: createCaller({ db, session: await findSession(db, tokenHash), sameOrigin: true }) };
}
