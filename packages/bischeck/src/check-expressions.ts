/**
 * Every expression an import brings in (hour entries of 24thresholds.xml and the execstatements
 * of bischeck:// services) is parsed, and the series it names are looked up among the imported
 * items: what does not parse, or names a series that is not imported, is a warning with the
 * expression's position. The import is never refused for it: Bischeck would have computed
 * "no threshold" there, and Tidemark does the same until the expression is fixed.
 */
import { ExprError, type Macros, parse, references, seriesKey } from "@tidemark/expr";
import type { Configuration } from "@tidemark/model";

export interface ExpressionSite {
  /** Where the expression comes from, for the warning: `24thresholds.xml:12: <servicedef> h-s-i hour 5`. */
  readonly where: string;
  readonly source: string;
  readonly macros: Macros;
}

/** The warnings for one expression: a parse error, or each series it names that is not imported. */
export function checkExpression(site: ExpressionSite, known: ReadonlySet<string>): string[] {
  try {
    const ast = parse(site.source);
    const unknown = new Set<string>();
    for (const ref of references(ast, { macros: site.macros })) if (!known.has(ref.series)) unknown.add(ref.series);
    return [...unknown].map((series) => `${site.where}: "${site.source}" names ${series}, which is not a service item of this import`);
  } catch (error) {
    if (!(error instanceof ExprError)) throw error;
    return [`${site.where}: "${site.source}" is not an expression Tidemark can evaluate (no threshold until fixed): ${error.message}`];
  }
}

/** The macros of an item: its own names, and the host alias for `$$HOSTALIAS$$`. */
export function itemMacros(host: { name: string; alias: string | null }, service: string, item: string): Macros {
  return { host: host.name, service, item, aliases: host.alias === null ? {} : { HOSTALIAS: host.alias } };
}

/** Series keys of every imported item. */
export function knownSeries(configuration: Configuration): Set<string> {
  return new Set(configuration.hosts.flatMap((h) => h.services.flatMap((s) => s.items.map((i) => seriesKey(h.name, s.name, i.name)))));
}

/** Sites of the execstatements of bischeck:// services (Bischeck's CalculateOnCache items). */
export function calculationSites(configuration: Configuration): ExpressionSite[] {
  return configuration.hosts.flatMap((h) =>
    h.services
      .filter((s) => s.url.startsWith("bischeck://"))
      .flatMap((s) =>
        s.items.map((i) => ({
          where: `bischeck.xml: <execstatement> of ${h.name}-${s.name}-${i.name}`,
          source: i.execStatement,
          macros: itemMacros(h, s.name, i.name),
        })),
      ),
  );
}
