import fs from "node:fs";
import path from "node:path";

/**
 * Which shell-check commands this agent runs. The server (and so anyone who can edit a service)
 * chooses the command lines, but only the agent's own settings choose what may run: by default a
 * plugin from the configured plugin directories with plain arguments, as NRPE runs only the
 * commands its own configuration defines. No shell syntax (pipes, redirections, `;`, `$(…)`,
 * globs) is interpreted: the arguments reach the plugin exactly as written. Arbitrary shell
 * command lines run only where the agent's local configuration says so (AGENT_ALLOW_ANY_COMMAND).
 */

export interface CommandPolicy {
  /** Directories whose executables may run (real paths are compared: no `..` or symlink escapes). */
  pluginDirs: string[];
  /** Run command lines through the shell as given. */
  allowAnyCommand: boolean;
}

export const DEFAULT_PLUGIN_DIRS = ["/usr/lib/nagios/plugins", "/usr/lib/monitoring-plugins", "/usr/local/nagios/libexec"];

export type ResolvedCommand = { ok: true; commandLine: string } | { ok: false; reason: string };

/** What the policy reads of the file system (injected in tests). */
export interface FileSystemView {
  /** The real path (symlinks and `..` resolved), or null when there is nothing there. */
  realpath(file: string): string | null;
  isExecutableFile(realPath: string): boolean;
}

export const localFileSystem: FileSystemView = {
  realpath(file) {
    try {
      return fs.realpathSync(file);
    } catch {
      return null;
    }
  },
  isExecutableFile(realPath) {
    try {
      fs.accessSync(realPath, fs.constants.X_OK);
      return fs.statSync(realPath).isFile();
    } catch {
      return false;
    }
  },
};

/** Characters that mean something to the shell outside quotes. */
const SHELL_SYNTAX = /[;&|<>()$`\\*?[\]{}~!#\n\r]/;
/** Inside double quotes the shell still expands these. */
const DOUBLE_QUOTED_SYNTAX = /[$`\\]/;

/** Splits a command line into words the way the shell would, refusing anything the shell would interpret. */
export function commandWords(line: string): { words: string[] } | { error: string } {
  const words: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (c === " " || c === "\t") {
      if (word !== null) words.push(word);
      word = null;
    } else if (c === "'" || c === '"') {
      const end = line.indexOf(c, i + 1);
      if (end < 0) return { error: `unclosed ${c} quote` };
      const quoted = line.slice(i + 1, end);
      if (c === '"' && DOUBLE_QUOTED_SYNTAX.test(quoted))
        return { error: `shell expansion (${DOUBLE_QUOTED_SYNTAX.exec(quoted)?.[0]}) inside double quotes` };
      word = (word ?? "") + quoted;
      i = end;
    } else if (SHELL_SYNTAX.test(c)) {
      return { error: `shell syntax (${JSON.stringify(c)})` };
    } else {
      word = (word ?? "") + c;
    }
  }
  if (word !== null) words.push(word);
  return words.length > 0 ? { words } : { error: "an empty command" };
}

/** One shell word that the shell passes through unchanged. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

function within(dir: string, file: string): boolean {
  const relative = path.relative(dir, file);
  return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative);
}

/**
 * The command line the agent's shell worker may run for `line`, or why not. `$USER1$/` (Nagios'
 * plugin directory macro) stands for the first plugin directory.
 */
export function resolveCommand(line: string, policy: CommandPolicy, files: FileSystemView = localFileSystem): ResolvedCommand {
  if (policy.allowAnyCommand) return { ok: true, commandLine: line };
  const refuse = (why: string): ResolvedCommand => ({
    ok: false,
    reason: `refused by this agent: ${why}; it runs only plugins from ${policy.pluginDirs.join(", ") || "(no plugin directory)"} (AGENT_PLUGIN_DIRS) with plain arguments, unless its own AGENT_ALLOW_ANY_COMMAND=true`,
  });
  const [firstDir] = policy.pluginDirs;
  const expanded = firstDir ? line.trim().replace(/^\$USER1\$\//, `${firstDir}/`) : line.trim();
  const split = commandWords(expanded);
  if ("error" in split) return refuse(split.error);
  const [program, ...args] = split.words as [string, ...string[]];
  const dirs = policy.pluginDirs.map((dir) => files.realpath(dir)).filter((dir) => dir !== null);
  // Runs the path as named (a plugin may act on its name, as check_host → check_icmp does) once
  // its real path is known to be inside a plugin directory.
  const plugin = (file: string): string | null => {
    const real = files.realpath(file);
    return real && files.isExecutableFile(real) && dirs.some((dir) => within(dir, real)) ? path.normalize(file) : null;
  };
  let resolved: string | null;
  if (program.includes("/")) {
    if (!path.isAbsolute(program)) return refuse(`${program} is a relative path`);
    resolved = plugin(program);
    if (!resolved) return refuse(`${program} is not an executable inside a plugin directory`);
  } else {
    resolved = policy.pluginDirs.map((dir) => plugin(path.join(dir, program))).find((file) => file !== null) ?? null;
    if (!resolved) return refuse(`no plugin named ${program}`);
  }
  return { ok: true, commandLine: [resolved, ...args].map(shellQuote).join(" ") };
}
