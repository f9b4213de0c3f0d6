/** Start-up messages: one line each, prefixed so they stand out among the children's output. */
export function say(message: string): void {
  process.stdout.write(`[tidemark] ${message}\n`);
}

export function fail(message: string): never {
  process.stderr.write(`\n[tidemark] ${message}\n\n`);
  process.exit(1);
}
