/**
 * `npm test`'s boundary check (types phase), also runnable alone: `npx tsx scripts/check-boundaries.ts [ROOT]`.
 * Prints every import that breaks a rule of scripts/lib/boundaries.ts, with the rule's reason, and
 * exits 1 if there is one. ROOT (default: this repository) lets the tests check a fixture repository.
 */
import { checkBoundaries, RULES, type Violation } from "./lib/boundaries.ts";
import { REPO_ROOT } from "./lib/paths.ts";

const violations = checkBoundaries(process.argv[2] ?? REPO_ROOT);

const line = (v: Violation) => `    ${v.file}: ${v.specifier}\n`;
for (const [rule, reason] of Object.entries(RULES)) {
  const found = violations.filter((v) => v.rule === rule);
  if (found.length === 0) continue;
  process.stdout.write(`✗ ${rule}: ${reason}\n${found.map(line).join("")}`);
}
if (violations.length === 0) process.stdout.write("boundaries: every import keeps the rules\n");
process.exit(violations.length > 0 ? 1 : 0);
