import { readdirSync, readFileSync } from "node:fs";

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

interface ProcessStat {
  pid: number;
  comm: string;
  ppid: number;
  /** Its own CPU ticks, user and system. */
  ticks: number;
  /** The CPU ticks of its children that have ended and been waited for. */
  endedChildrenTicks: number;
}

function processStats(): ProcessStat[] {
  const stats: ProcessStat[] = [];
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      stats.push({
        pid: Number(pid),
        comm,
        ppid: Number(fields[1]),
        ticks: Number(fields[11]) + Number(fields[12]),
        endedChildrenTicks: Number(fields[13]) + Number(fields[14]),
      });
    } catch {
      // The process ended while we read.
    }
  }
  return stats;
}

const toMs = (ticks: number) => (ticks / TICKS_PER_SECOND) * 1000;

/**
 * CPU milliseconds used so far by the machine's PostgreSQL server processes (a plain-PostgreSQL
 * run's database work happens there, not in the benchmark's process), backends that have ended
 * included: the postmaster waits for them, so their time is in its ended-children ticks.
 * Linux /proc only.
 */
export function postgresServerCpuMs(): number {
  return toMs(
    processStats()
      .filter((p) => p.comm === "postgres")
      .reduce((n, p) => n + p.ticks + p.endedChildrenTicks, 0),
  );
}

/**
 * CPU milliseconds used so far by a process and everything it started, those that ended included
 * (a browser's renderers, a server's workers). Linux /proc only.
 */
export function processTreeCpuMs(root: number): number {
  const stats = processStats();
  const tree = new Set([root]);
  // Parents come before their children often but not always: repeat until nothing joins.
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of stats) {
      if (!tree.has(p.pid) && tree.has(p.ppid)) {
        tree.add(p.pid);
        grew = true;
      }
    }
  }
  return toMs(stats.filter((p) => tree.has(p.pid)).reduce((n, p) => n + p.ticks + p.endedChildrenTicks, 0));
}

/**
 * The first process under `root` (itself included) whose command line matches, or null: the web
 * server among the processes `npm start` runs, say. Linux /proc only.
 */
export function findDescendant(root: number, matches: (commandLine: string) => boolean): number | null {
  const stats = processStats();
  const tree = [root];
  for (let i = 0; i < tree.length; i++) for (const p of stats) if (p.ppid === tree[i]) tree.push(p.pid);
  for (const pid of tree) {
    try {
      if (matches(readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " "))) return pid;
    } catch {
      // The process ended while we read.
    }
  }
  return null;
}
