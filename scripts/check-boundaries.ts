/**
 * `npm test`'s boundary check (types phase), also runnable alone: `npx tsx scripts/check-boundaries.ts`.
 * Prints every import that breaks a rule of scripts/lib/boundaries.ts, with the rule's reason, and
 * exits 1 if there is one that is not on the temporary allow-list (scripts/lib/boundaries-pending-20b.ts)
 * or an allow-list entry that matches nothing any more.
 */
import { checkBoundaries, RULES, type Violation } from "./lib/boundaries.ts";
import { matches, PENDING_20B } from "./lib/boundaries-pending-20b.ts";
import { REPO_ROOT } from "./lib/paths.ts";

/** Another repository (a test's fixture) is checked without this one's allow-list. */
const root = process.argv[2] ?? REPO_ROOT;
const allowList = root === REPO_ROOT ? PENDING_20B : [];
const violations = checkBoundaries(root);
const known = violations.filter((v) => allowList.some((entry) => matches(entry, v)));
const broken = violations.filter((v) => !known.includes(v));
const stale = allowList.filter((entry) => !violations.some((v) => matches(entry, v)));

const line = (v: Violation) => `    ${v.file}: ${v.specifier}\n`;
for (const [rule, reason] of Object.entries(RULES)) {
  const found = broken.filter((v) => v.rule === rule);
  if (found.length === 0) continue;
  process.stdout.write(`✗ ${rule}: ${reason}\n${found.map(line).join("")}`);
}
if (known.length > 0) {
  process.stdout.write(`! ${known.length} known violation(s) that issue 20b removes (scripts/lib/boundaries-pending-20b.ts):\n`);
  for (const rule of new Set(known.map((v) => v.rule))) {
    const ofRule = known.filter((v) => v.rule === rule);
    process.stdout.write(`  ${rule} (${ofRule.length}):\n${ofRule.map(line).join("")}`);
  }
}
for (const entry of stale) {
  process.stdout.write(`✗ allow-list entry matches nothing any more, remove it: ${entry.rule} ${entry.file ?? ""} ${entry.specifier}\n`);
}
if (broken.length === 0 && stale.length === 0) process.stdout.write("boundaries: every import keeps the rules\n");
process.exit(broken.length > 0 || stale.length > 0 ? 1 : 0);
