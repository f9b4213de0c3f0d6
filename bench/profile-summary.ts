/**
 * `npx tsx bench/profile-summary.ts <file.cpuprofile> [top]`: where a V8 CPU profile's time went,
 * as text: the functions with the most self time, and self time by package (the node_modules
 * package, a workspace package, Node's internals), each as a share of the samples that were not
 * idle. For profiles written by `node --cpu-prof` (the api scenario's BENCH_WEB_CPU_PROF) or by
 * bench/lib/profile.ts.
 */
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const IDLE = new Set(["(idle)", "(program)", "(garbage collector)"]);

/** The package a script belongs to: node_modules/<name>, a workspace's packages/<name>, or node: internals. */
function packageOf(url: string): string {
  if (url === "") return "(native)";
  if (url.startsWith("node:")) return "node:internals";
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1]!;
  const workspace = /\/(packages|apps)\/([^/]+)\//.exec(url);
  if (workspace) return `${workspace[1]}/${workspace[2]}`;
  // Next's server chunks bundle the workspace packages: the chunk's name is all that is left.
  return url.replace(/^.*\/\.next\//, ".next/");
}

function main() {
  const [file, topArg] = process.argv.slice(2);
  if (!file) throw new Error("usage: bench/profile-summary.ts <file.cpuprofile> [top]");
  const top = Number(topArg ?? 30);
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfMs = new Map<number, number>();
  for (const [i, id] of profile.samples.entries()) selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);

  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  let busy = 0;
  let gc = 0;
  for (const [id, ms] of selfMs) {
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === "(garbage collector)") gc += ms;
    if (IDLE.has(frame.functionName)) continue;
    busy += ms;
    const where = `${frame.functionName || "(anonymous)"} ${packageOf(frame.url)}:${frame.lineNumber + 1}`;
    byFunction.set(where, (byFunction.get(where) ?? 0) + ms);
    byPackage.set(packageOf(frame.url), (byPackage.get(packageOf(frame.url)) ?? 0) + ms);
  }
  const print = (title: string, entries: Map<string, number>) => {
    process.stdout.write(`\n${title}\n`);
    for (const [name, ms] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      process.stdout.write(`${ms.toFixed(0).padStart(8)} ms ${((ms / busy) * 100).toFixed(1).padStart(5)} %  ${name}\n`);
    }
  };
  process.stdout.write(`busy (not idle) ${busy.toFixed(0)} ms, garbage collection ${gc.toFixed(0)} ms\n`);
  print("self time by package", byPackage);
  print("self time by function", byFunction);
}

main();
