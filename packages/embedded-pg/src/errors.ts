export type EmbeddedPgErrorCode = "EADDRINUSE" | "EDATADIR" | "ELOCKED" | "ESTOPPED";

/** An error whose message is one sentence meant for the user (the CLI prints it as is). */
export class EmbeddedPgError extends Error {
  constructor(
    readonly code: EmbeddedPgErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "EmbeddedPgError";
  }
}
