export { hashPassword, verifyPassword } from "./password.ts";
export { MIN_PASSWORD_LENGTH, passwordWeakness } from "./password-strength.ts";
export { clientAddress, type RateLimitDecision, RateLimiter, type RateLimitRule } from "./rate-limit.ts";
export { hashToken, type IssuedToken, issueToken } from "./tokens.ts";
