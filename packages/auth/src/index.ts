export { hashPassword, verifyPassword } from "./password.ts";
export { hashToken, type IssuedToken, issueToken } from "./tokens.ts";
