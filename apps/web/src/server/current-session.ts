import type { SessionView } from "@tidemark/db/organizations";
import { cookies } from "next/headers";
import { cache } from "react";
import { getDatabase } from "./database";
import { SESSION_COOKIE, sessionFromCookie } from "./session";

/** The signed-in user of a server component, or null; looked up once per request. */
export const currentSession = cache(async (): Promise<SessionView | null> => {
  const jar = await cookies();
  return sessionFromCookie(await getDatabase(), jar.get(SESSION_COOKIE)?.value);
});
