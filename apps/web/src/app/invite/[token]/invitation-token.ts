/** What `issueToken("tm_invite")` makes: the prefix and 32 random bytes in base64url. */
const INVITATION_TOKEN = /^tm_invite_[A-Za-z0-9_-]{20,100}$/;

/**
 * The invitation token of a link's path segment, or null when it cannot be one (bad percent-encoding,
 * other characters, another length): such a link is answered like an unknown one.
 */
export function invitationToken(segment: string): string | null {
  let token: string;
  try {
    token = decodeURIComponent(segment);
  } catch {
    return null;
  }
  return INVITATION_TOKEN.test(token) ? token : null;
}
