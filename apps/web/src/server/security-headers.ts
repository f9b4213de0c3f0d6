/**
 * The headers every answer carries. Pages get a Content-Security-Policy whose scripts must carry
 * this request's nonce (Next.js adds it to its own scripts when it finds the policy on the
 * request: src/proxy.ts), so injected markup cannot run script; no page may be framed
 * (clickjacking); browsers must not guess content types; no other site learns our URLs (an
 * invitation link holds its secret); and over https, browsers are told to stay on https.
 */

export interface SecurityHeaderOptions {
  /** A fresh random value per request; null for answers that are not pages (API, assets). */
  nonce: string | null;
  /** Served over https (directly or behind a proxy that says so). */
  https: boolean;
  /** next dev: React's development build needs eval for its error overlays. */
  development: boolean;
}

/** Answers that are not HTML pages need no script at all. */
const NON_PAGE_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export function contentSecurityPolicy(nonce: string, development: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
    // React renders style attributes (chart geometry, colours): those need 'unsafe-inline', which
    // cannot run script.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export function securityHeaders(options: SecurityHeaderOptions): Record<string, string> {
  return {
    "Content-Security-Policy": options.nonce === null ? NON_PAGE_POLICY : contentSecurityPolicy(options.nonce, options.development),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
    ...(options.https ? { "Strict-Transport-Security": "max-age=31536000; includeSubDomains" } : {}),
  };
}

/** Whether the request came over https: its own URL, or the proxy in front saying so. */
export function servedOverHttps(url: string, headers: Headers): boolean {
  return new URL(url).protocol === "https:" || headers.get("x-forwarded-proto") === "https";
}
