import { type NextRequest, NextResponse } from "next/server";
import { securityHeaders, servedOverHttps } from "./server/security-headers";

/**
 * The path with each segment whose %-escapes do not decode replaced by `malformed` (Next.js answers
 * 500 for such a dynamic segment), or null when every segment decodes.
 */
function undecodableRewritten(pathname: string): string | null {
  const segments = pathname.split("/");
  const fixed = segments.map((segment) => {
    try {
      decodeURIComponent(segment);
      return segment;
    } catch {
      return "malformed";
    }
  });
  return fixed.some((segment, i) => segment !== segments[i]) ? fixed.join("/") : null;
}

/**
 * Every request gets the security headers (server/security-headers.ts). Pages get a fresh nonce,
 * passed to Next.js on the request's own Content-Security-Policy header so that it stamps its
 * scripts with it (pages are rendered per request: the root layout is dynamic).
 */
export function proxy(request: NextRequest) {
  const isPage = !request.nextUrl.pathname.startsWith("/api/");
  const nonce = isPage ? Buffer.from(crypto.randomUUID()).toString("base64") : null;
  const headers = securityHeaders({
    nonce,
    https: servedOverHttps(request.url, request.headers),
    development: process.env.NODE_ENV === "development",
  });
  const requestHeaders = new Headers(request.headers);
  if (nonce) {
    requestHeaders.set("x-nonce", nonce);
    requestHeaders.set("Content-Security-Policy", headers["Content-Security-Policy"] as string);
  }
  // A link with a broken %-escape (say a truncated invitation link) is sent on to the page's own 4xx
  // answer, not an error (a rewrite is not enough: Next.js still decodes the original path).
  const rewritten = undecodableRewritten(request.nextUrl.pathname);
  const response = rewritten
    ? NextResponse.redirect(new URL(rewritten, request.url), 303)
    : NextResponse.next({ request: { headers: requestHeaders } });
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

export const config = {
  // Built assets are immutable files of our own; everything else (pages and API) is covered.
  matcher: [{ source: "/((?!_next/static|_next/image|favicon.ico).*)" }],
};
