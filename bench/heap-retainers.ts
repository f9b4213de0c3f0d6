/**
 * What holds a heap snapshot's largest objects: `npx tsx bench/heap-retainers.ts FILE [N]` lists
 * the N (10) largest nodes by their own size, ArrayBuffers' backing stores (a Buffer's bytes,
 * outside the JavaScript heap) included, each with its chain of retainers up to a GC root. A heap
 * snapshot comes from bench/lib/heap-probe.mjs (BENCH_HEAP_SNAPSHOT_DIR) or from DevTools.
 */
import { readFileSync } from "node:fs";

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

const [file, count = "10"] = process.argv.slice(2);
if (!file) throw new Error("usage: npx tsx bench/heap-retainers.ts FILE.heapsnapshot [N]");
const snap = JSON.parse(readFileSync(file, "utf8")) as Snapshot;
const { node_fields, node_types, edge_fields, edge_types } = snap.snapshot.meta;
const nodeWidth = node_fields.length;
const edgeWidth = edge_fields.length;
const field = (name: string) => node_fields.indexOf(name);
const [TYPE, NAME, SELF, EDGES] = [field("type"), field("name"), field("self_size"), field("edge_count")];
const [EDGE_TYPE, EDGE_NAME, EDGE_TO] = ["type", "name_or_index", "to_node"].map((f) => edge_fields.indexOf(f)) as [number, number, number];
const nodeCount = snap.nodes.length / nodeWidth;

const describe = (n: number) =>
  `${node_types[0][snap.nodes[n * nodeWidth + TYPE]!]} ${snap.strings[snap.nodes[n * nodeWidth + NAME]!]!.slice(0, 80)}`;

// Where each node's edges start in `edges`: a node's edges follow the previous node's.
const firstEdge = new Array<number>(nodeCount);
for (let n = 0, e = 0; n < nodeCount; n++) {
  firstEdge[n] = e;
  e += snap.nodes[n * nodeWidth + EDGES]! * edgeWidth;
}

/** A node's edges that keep their target alive (weak ones do not), as [target, edge offset]. */
function* strongEdges(n: number): Generator<[number, number]> {
  for (let k = 0, e = firstEdge[n]!; k < snap.nodes[n * nodeWidth + EDGES]!; k++, e += edgeWidth) {
    if (edge_types[0][snap.edges[e + EDGE_TYPE]!] === "weak") continue;
    yield [snap.edges[e + EDGE_TO]! / nodeWidth, e];
  }
}

/** An edge's name as a path shows it: an element's index in brackets, a property's name. */
function edgeName(e: number): string {
  const type = edge_types[0][snap.edges[e + EDGE_TYPE]!];
  const name = snap.edges[e + EDGE_NAME]!;
  return type === "element" || type === "hidden" ? `[${name}]` : String(snap.strings[name]);
}

const retainers = new Int32Array(nodeCount);
for (let n = 0; n < nodeCount; n++) for (const [to] of strongEdges(n)) retainers[to]!++;

// The shortest path to the root (node 0), by breadth-first search from the root along edges.
const parent = new Int32Array(nodeCount).fill(-1);
const viaEdge: string[] = new Array(nodeCount);
parent[0] = 0;
const queue = [0];
for (let head = 0; head < queue.length; head++) {
  const n = queue[head]!;
  for (const [to, e] of strongEdges(n)) {
    if (parent[to] !== -1) continue;
    parent[to] = n;
    viaEdge[to] = edgeName(e);
    queue.push(to);
  }
}

const bySize = Array.from({ length: nodeCount }, (_, n) => n).sort(
  (a, b) => snap.nodes[b * nodeWidth + SELF]! - snap.nodes[a * nodeWidth + SELF]!,
);
for (const n of bySize.slice(0, Number(count))) {
  console.log(`${(snap.nodes[n * nodeWidth + SELF]! / 1e6).toFixed(2)} MB  ${describe(n)}  (${retainers[n]} retainers)`);
  let at = n;
  for (let depth = 0; depth < 14 && at !== 0 && parent[at] !== -1; depth++) {
    console.log(`    ← .${viaEdge[at]} of ${describe(parent[at]!)}`);
    at = parent[at]!;
  }
  if (parent[n] === -1) console.log("    (not reachable from the root)");
}
