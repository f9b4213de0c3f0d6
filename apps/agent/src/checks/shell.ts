import type { AgentCheck, CheckResult } from "@tidemark/protocol";
import { parsePluginOutput, parseShellExec, pickValue } from "../nagios.ts";
import { type CommandPolicy, resolveCommand } from "./command-policy.ts";
import type { ShellWorkerPool } from "./shell-workers.ts";
import type { CheckRunner } from "./types.ts";
import { errorText, firstLine } from "./types.ts";

/** shell:// — each item's exec is a plugin command (if the agent's policy allows it); its value is a perfdata label. */
export function shellRunner(workers: ShellWorkerPool, policy: CommandPolicy): CheckRunner {
  return async (check: AgentCheck, signal: AbortSignal): Promise<CheckResult[]> => {
    const results: CheckResult[] = [];
    for (const item of check.items) {
      const ts = Date.now();
      try {
        const exec = parseShellExec(item.exec);
        const command = resolveCommand(exec.command, policy);
        if (!command.ok) {
          results.push({ key: item.key, ts, value: null, status: 3, output: firstLine(command.reason) });
          continue;
        }
        const exit = await workers.run(command.commandLine, signal);
        if (exit.timedOut) {
          results.push({ key: item.key, ts, value: null, status: 3, output: `timed out after ${check.timeoutMs} ms` });
          continue;
        }
        const output = parsePluginOutput(exit.stdout, exit.code);
        const picked = pickValue(output, exec.label);
        // Perfdata the agent cannot read makes the result UNKNOWN, with the reason: a wrong number would be worse.
        if (picked.error)
          results.push({
            key: item.key,
            ts,
            value: null,
            status: 3,
            output: firstLine(`perfdata error: ${picked.error}; ${output.summary}`),
          });
        else results.push({ key: item.key, ts, value: picked.value, status: output.status, output: firstLine(output.summary) });
      } catch (error) {
        results.push({ key: item.key, ts, value: null, status: 3, output: firstLine(errorText(error)) });
      }
    }
    return results;
  };
}
