/**
 * How Tidemark's launchers run a TypeScript entry point that is stopped by a signal (`npm start`,
 * `npm test`'s app, the local and demo agents, the agent's and the migration's images): one node
 * process with tsx's loader, `node [options] --import tsx entry`.
 *
 * Not the `tsx` command: it runs the entry in a child process and relays a signal to it by waiting
 * 30 ms for the child to report it caught the signal, then sends it again and, 30 ms later, SIGKILL.
 * A child busy for longer — `npm start` stopped a second after its first start, its agents still
 * loading — was killed before its shutdown could stop its own children: the web server and the
 * local agent kept running without it (issue 22).
 */
export function typeScriptEntry(entry: string, nodeOptions: readonly string[] = []): { command: string; args: string[] } {
  return { command: process.execPath, args: [...nodeOptions, "--import", "tsx", entry] };
}
