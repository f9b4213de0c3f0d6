export { hashPassword, verifyPassword } from "./password.ts";
export { hashToken, type IssuedToken, issueToken } from "./tokens.ts";
export { clientAddress, type RateLimitDecision, RateLimiter, type RateLimitRule } from "./rate-limit.ts";
