import type { SessionView } from "@tidemark/db";
import { cookies } from "next/headers";
import { getDatabase } from "./database";
import { SESSION_COOKIE, sessionFromCookie } from "./session";

/** The signed-in user of a server component, or null. */
export async function currentSession(): Promise<SessionView | null> {
  const jar = await cookies();
  return sessionFromCookie(await getDatabase(), jar.get(SESSION_COOKIE)?.value);
}
