import { hashToken } from "@tidemark/auth";
import type { Database } from "@tidemark/db/client";
import { findSession, type SessionView } from "@tidemark/db/organizations";

export const SESSION_COOKIE = "tm_session";
export const SESSION_DAYS = 14;

/** A cookie's value; null when absent or not valid percent-encoding (a bad session cookie is simply signed out). */
export function readCookie(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key !== name) continue;
    try {
      return decodeURIComponent(rest.join("="));
    } catch {
      return null;
    }
  }
  return null;
}

export async function sessionFromCookie(db: Database, cookieValue: string | null | undefined): Promise<SessionView | null> {
  if (!cookieValue) return null;
  return findSession(db, hashToken(cookieValue));
}

/** The cookie is Secure whenever the site is served over https. */
export function sessionCookieAttributes(request: Request, maxAgeSeconds: number): string {
  const secure = new URL(request.url).protocol === "https:" || request.headers.get("x-forwarded-proto") === "https";
  return `Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure ? "; Secure" : ""}`;
}

/** Mutations must come from our own origin: browsers always send Origin on cross-site POSTs. */
export function isSameOrigin(request: Request): boolean {
  const origin = request.headers.get("origin");
  if (!origin) return true;
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}
