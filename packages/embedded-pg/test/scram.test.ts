import { describe, expect, it } from "vitest";
import { ScramError, scramCredentials, scramServerFinal, scramServerFirst } from "../src/scram.ts";

/** RFC 7677 §3's exchange, from the server's side: user "user", password "pencil". */
const RFC = {
  salt: Buffer.from("W22ZaJ0SNY7soEsUEjb6gQ==", "base64"),
  clientFirst: "n,,n=user,r=rOprNGfwEbeRWgbNEkqO",
  serverNonce: "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0",
  serverFirst: "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096",
  clientFinal: "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=",
  serverFinal: "v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=",
};

describe("SCRAM-SHA-256, server side", () => {
  const credentials = scramCredentials("pencil", RFC.salt);

  it("answers RFC 7677's exchange with its messages", () => {
    const exchange = scramServerFirst(credentials, RFC.clientFirst, RFC.serverNonce);
    expect(exchange.serverFirst).toBe(RFC.serverFirst);
    expect(scramServerFinal(credentials, exchange, RFC.clientFinal)).toBe(RFC.serverFinal);
  });

  it("refuses a proof made with another password", () => {
    const other = scramCredentials("pencil2", RFC.salt);
    expect(scramServerFinal(other, scramServerFirst(other, RFC.clientFirst, RFC.serverNonce), RFC.clientFinal)).toBeNull();
  });

  it.each([
    ["channel binding asked for", "p=tls-server-end-point,,n=user,r=abc"],
    ["an authorization identity", "n,a=admin,n=user,r=abc"],
    ["no nonce", "n,,n=user"],
    ["not SCRAM at all", "hello"],
  ])("refuses a client-first-message with %s", (_, message) => {
    expect(() => scramServerFirst(credentials, message)).toThrow(ScramError);
  });

  it.each([
    ["another nonce", RFC.clientFinal.replace("r=rOpr", "r=xOpr")],
    ["other channel-binding data", RFC.clientFinal.replace("c=biws", "c=eSws")],
    ["no proof", "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0"],
  ])("refuses a client-final-message with %s", (_, message) => {
    const exchange = scramServerFirst(credentials, RFC.clientFirst, RFC.serverNonce);
    expect(() => scramServerFinal(credentials, exchange, message)).toThrow(ScramError);
  });
});
