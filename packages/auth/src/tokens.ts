import { createHash, randomBytes } from "node:crypto";

/**
 * Opaque bearer secrets (session cookies, agent and API tokens). Only the sha256 is stored:
 * the secrets are random 256-bit values, so a fast hash is enough (no offline guessing).
 */

export interface IssuedToken {
  /** Shown once to the user (or set as a cookie), never stored. */
  secret: string;
  /** What the database keeps. */
  hash: string;
  /** Recognisable first characters, safe to display. */
  prefix: string;
}

export function issueToken(kind: "tm_agent" | "tm_api" | "tm_session" | "tm_invite" | "tm_device"): IssuedToken {
  const secret = `${kind}_${randomBytes(32).toString("base64url")}`;
  return { secret, hash: hashToken(secret), prefix: secret.slice(0, kind.length + 7) };
}

export function hashToken(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}
