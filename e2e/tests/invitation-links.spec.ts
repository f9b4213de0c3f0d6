import { createHash, randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { withDatabase } from "./database";

/**
 * Whatever an invitation link holds, a link that cannot be used is a 404 page saying so, never an
 * error (one whose %-escapes do not decode is sent on to /invite/malformed first).
 */

const token = () => `tm_invite_${randomBytes(32).toString("base64url")}`;

async function storedInvitation(expiresAt: string, acceptedAt: string | null): Promise<string> {
  const secret = token();
  await withDatabase((client) =>
    client.query(
      `INSERT INTO invitations (organization_id, email, role, token_hash, expires_at, accepted_at)
       SELECT id, $1, 'viewer', $2, $3::timestamptz, $4::timestamptz FROM organizations ORDER BY created_at LIMIT 1`,
      [`invitee-${randomBytes(4).toString("hex")}@example.test`, createHash("sha256").update(secret).digest("hex"), expiresAt, acceptedAt],
    ),
  );
  return secret;
}

const links: [string, () => Promise<string>][] = [
  ["an unknown token", async () => token()],
  ["a malformed percent-encoding", async () => "%E0%A4%A"],
  ["a lone percent sign", async () => "%"],
  ["an encoded NUL", async () => "tm_invite_%00abcdefghijklmnopqrstuvwxyz"],
  ["something else entirely", async () => "x"],
  ["a very long segment", async () => "a".repeat(3000)],
  ["an expired invitation", () => storedInvitation("2020-01-01T00:00:00Z", null)],
  ["a used invitation", () => storedInvitation("2999-01-01T00:00:00Z", "2024-01-01T00:00:00Z")],
];

for (const [what, segment] of links) {
  test(`an invitation link with ${what} is a 404 page saying why`, async ({ page }) => {
    const response = await page.goto(`/invite/${await segment()}`);
    expect(response?.status()).toBe(404);
    await expect(page.getByText("This invitation link is unknown, already used or expired.")).toBeVisible();
    await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
  });
}
