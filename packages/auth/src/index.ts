export {
  clientAddress,
  PEER_HEADER,
  parseTrustedProxies,
  TRUSTED_PROXIES_VARIABLE,
  type TrustedProxies,
} from "./client-address.ts";
export { hashPassword, verifyPassword } from "./password.ts";
export { MIN_PASSWORD_LENGTH, passwordWeakness } from "./password-strength.ts";
export { hashToken, type IssuedToken, issueToken } from "./tokens.ts";
