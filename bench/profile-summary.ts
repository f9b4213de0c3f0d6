/**
 * `npx tsx bench/profile-summary.ts <file> [top]`: a V8 profile as text.
 *
 * - A CPU profile (`.cpuprofile`: `node --cpu-prof`, the api scenario's BENCH_WEB_CPU_PROF, or
 *   bench/lib/profile.ts with BENCH_PROFILE): where the time went — self time by package (the
 *   node_modules package, a workspace package, Node's internals) and by function, each as a share
 *   of the samples that were not idle.
 * - An allocation profile (`.heapprofile`: bench/lib/profile.ts with BENCH_ALLOCATION_PROFILE):
 *   where the memory was allocated — bytes by package and by allocating function, freed objects
 *   included, so the figures are what the young generation's collections had to go through.
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
/** V8's sampling heap profile: a tree of call frames, each with the bytes sampled as allocated there. */
interface AllocationNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: AllocationNode[];
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

/** `entries`' largest, one line each, as `unit`s and as a share of `total`. */
function printTop(title: string, entries: Map<string, number>, total: number, top: number, unit: { name: string; scale: number }) {
  process.stdout.write(`\n${title}\n`);
  for (const [name, amount] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    const shown = (amount / unit.scale).toFixed(unit.scale === 1 ? 0 : 1);
    process.stdout.write(`${shown.padStart(8)} ${unit.name} ${((amount / total) * 100).toFixed(1).padStart(5)} %  ${name}\n`);
  }
}

const where = (frame: ProfileNode["callFrame"]) => `${frame.functionName || "(anonymous)"} ${packageOf(frame.url)}:${frame.lineNumber + 1}`;
const add = (map: Map<string, number>, key: string, amount: number) => map.set(key, (map.get(key) ?? 0) + amount);

function summarizeCpu(profile: Profile, top: number) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfMs = new Map<number, number>();
  // A sample stands for the time until the next one (as DevTools reads it): timeDeltas[i] is the
  // time *before* sample i, and the first is the wait since the profiler started, which the
  // sample that started it (the inspector's dispatch) would otherwise be charged with.
  for (const [i, id] of profile.samples.entries()) selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000);

  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  let busy = 0;
  let gc = 0;
  for (const [id, ms] of selfMs) {
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === "(garbage collector)") gc += ms;
    if (IDLE.has(frame.functionName)) continue;
    busy += ms;
    add(byFunction, where(frame), ms);
    add(byPackage, packageOf(frame.url), ms);
  }
  const ms = { name: "ms", scale: 1 };
  process.stdout.write(`busy (not idle) ${busy.toFixed(0)} ms, garbage collection ${gc.toFixed(0)} ms\n`);
  printTop("self time by package", byPackage, busy, top, ms);
  printTop("self time by function", byFunction, busy, top, ms);
}

function summarizeAllocations(head: AllocationNode, top: number) {
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  let total = 0;
  // A built-in (Map's set, an iterator's next) is named with the function that called it.
  const pending: { node: AllocationNode; caller: string }[] = [{ node: head, caller: "" }];
  for (let item = pending.pop(); item; item = pending.pop()) {
    const { node, caller } = item;
    const name =
      node.callFrame.url === "" && caller !== "" ? `${node.callFrame.functionName} (native) in ${caller}` : where(node.callFrame);
    for (const child of node.children) pending.push({ node: child, caller: name });
    if (node.selfSize === 0) continue;
    total += node.selfSize;
    add(byFunction, name, node.selfSize);
    add(byPackage, packageOf(node.callFrame.url), node.selfSize);
  }
  const mb = { name: "MB", scale: 1e6 };
  process.stdout.write(`allocated (sampled, freed objects included) ${(total / 1e6).toFixed(1)} MB\n`);
  printTop("allocated by package", byPackage, total, top, mb);
  printTop("allocated by function", byFunction, total, top, mb);
}

function main() {
  const [file, topArg] = process.argv.slice(2);
  if (!file) throw new Error("usage: bench/profile-summary.ts <file.cpuprofile | file.heapprofile> [top]");
  const top = Number(topArg ?? 30);
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile | { head: AllocationNode };
  if ("head" in profile) summarizeAllocations(profile.head, top);
  else summarizeCpu(profile, top);
}

main();
