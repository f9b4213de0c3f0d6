import { createHash, createHmac, pbkdf2Sync, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * The server side of SCRAM-SHA-256 (RFC 5802, RFC 7677) as PostgreSQL speaks it: the client proves
 * it knows the password without sending it, and the server proves it knows it too. No channel
 * binding (the embedded server has no TLS): a client asking for it (`p=…`) is refused.
 */

export const SCRAM_MECHANISM = "SCRAM-SHA-256";
const ITERATIONS = 4096;

/** What the server keeps of the password (PostgreSQL's `SCRAM-SHA-256$iterations:salt$StoredKey:ServerKey`). */
export interface ScramCredentials {
  salt: Buffer;
  iterations: number;
  storedKey: Buffer;
  serverKey: Buffer;
}

const hmac = (key: Buffer, text: string) => createHmac("sha256", key).update(text).digest();
const sha256 = (data: Buffer) => createHash("sha256").update(data).digest();

export function scramCredentials(password: string, salt: Buffer = randomBytes(16), iterations = ITERATIONS): ScramCredentials {
  const salted = pbkdf2Sync(password.normalize("NFKC"), salt, iterations, 32, "sha256");
  return { salt, iterations, storedKey: sha256(hmac(salted, "Client Key")), serverKey: hmac(salted, "Server Key") };
}

/** Between the server's first message and the client's final one. */
export interface ScramExchange {
  gs2Header: string;
  clientFirstBare: string;
  serverFirst: string;
  nonce: string;
}

export class ScramError extends Error {}

/** `a=1,b=2` → Map; an attribute is one letter, `=`, its value. */
function attributes(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of text.split(",")) {
    if (!/^[a-zA-Z]=/.test(part)) throw new ScramError(`malformed SCRAM attribute "${part.slice(0, 20)}"`);
    out.set(part[0] ?? "", part.slice(2));
  }
  return out;
}

/** The client's first message (`n,,n=user,r=nonce`) → the server's first (`r=nonce+ours,s=salt,i=4096`). */
export function scramServerFirst(
  credentials: ScramCredentials,
  clientFirst: string,
  serverNonce: string = randomBytes(18).toString("base64"),
): ScramExchange {
  const match = /^([ny]|p=[^,]*),(a=[^,]*)?,(.*)$/.exec(clientFirst);
  if (!match) throw new ScramError("malformed SCRAM client-first-message");
  const [, binding = "", authzid, clientFirstBare = ""] = match;
  if (binding.startsWith("p=")) throw new ScramError("channel binding is not offered by this server");
  if (authzid) throw new ScramError("an authorization identity is not supported");
  const clientNonce = attributes(clientFirstBare).get("r");
  if (!clientNonce || !/^[\x21-\x2b\x2d-\x7e]+$/.test(clientNonce)) throw new ScramError("SCRAM client nonce missing or malformed");
  const nonce = clientNonce + serverNonce;
  const serverFirst = `r=${nonce},s=${credentials.salt.toString("base64")},i=${credentials.iterations}`;
  return { gs2Header: `${binding},${authzid ?? ""},`, clientFirstBare, serverFirst, nonce };
}

/**
 * The client's final message (`c=…,r=…,p=proof`) → the server's final (`v=signature`) when the
 * proof is right; null when it is not (a wrong password).
 */
export function scramServerFinal(credentials: ScramCredentials, exchange: ScramExchange, clientFinal: string): string | null {
  const proofAt = clientFinal.lastIndexOf(",p=");
  if (proofAt < 0) throw new ScramError("SCRAM client-final-message without a proof");
  const withoutProof = clientFinal.slice(0, proofAt);
  const fields = attributes(withoutProof);
  if (fields.get("c") !== Buffer.from(exchange.gs2Header).toString("base64")) throw new ScramError("SCRAM channel binding does not match");
  if (fields.get("r") !== exchange.nonce) throw new ScramError("SCRAM nonce does not match");
  const proof = Buffer.from(clientFinal.slice(proofAt + 3), "base64");
  const authMessage = `${exchange.clientFirstBare},${exchange.serverFirst},${withoutProof}`;
  const clientSignature = hmac(credentials.storedKey, authMessage);
  if (proof.length !== clientSignature.length) return null;
  const clientKey = Buffer.from(proof.map((byte, i) => byte ^ (clientSignature[i] ?? 0)));
  if (!timingSafeEqual(sha256(clientKey), credentials.storedKey)) return null;
  return `v=${hmac(credentials.serverKey, authMessage).toString("base64")}`;
}
