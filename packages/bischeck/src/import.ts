/** importBischeck: both files → Tidemark's Configuration, with policies attached to their items. */
import { type Configuration, configurationSchema } from "@tidemark/model";
import { type ThresholdPolicy, thresholdPolicySchema } from "@tidemark/thresholds/policy";
import { calculationSites, checkExpression, type ExpressionSite, itemMacros, knownSeries } from "./check-expressions.ts";
import { BischeckImportError, IssueCollector } from "./errors.ts";
import { readBischeck } from "./read-bischeck.ts";
import { readProperties } from "./read-properties.ts";
import { describe, readThresholds } from "./read-thresholds.ts";
import { type BischeckTemplates, itemKey, serviceKey } from "./templates.ts";
import { parseXml } from "./xml.ts";

export interface BischeckFiles {
  /** The text of bischeck.xml. */
  bischeckXml: string;
  /** The text of 24thresholds.xml; omit when there is none (no item then has a policy). */
  thresholdsXml?: string;
  /** The text of properties.xml, for notFullListParse; omit when there is none. */
  propertiesXml?: string;
}

export interface BischeckImport {
  configuration: Configuration;
  templates: BischeckTemplates;
  /** Things imported with a loss or skipped (never a reason to refuse the import). */
  warnings: string[];
  /** URLs the import rewrote (jdbc:postgresql: → postgres://): mapped URL → the URL in the file. */
  mappedUrls: Map<string, string>;
}

/** Parse and read one file, turning any thrown or collected problems into issues. */
function readFile<T>(ctx: IssueCollector, source: string, root: string, read: (root: ReturnType<typeof parseXml>) => T): T | null {
  try {
    return read(parseXml(source, ctx.file, root, ctx));
  } catch (error) {
    if (!(error instanceof BischeckImportError)) throw error;
    for (const issue of error.issues) if (!ctx.errors.includes(issue)) ctx.errors.push(issue);
    return null;
  }
}

/**
 * Import Bischeck 1.x configuration files. Pure: takes the files' text, returns the model.
 * Throws BischeckImportError listing every problem (element, line, column); nothing is imported then.
 */
export function importBischeck(files: BischeckFiles): BischeckImport {
  const bischeckCtx = new IssueCollector("bischeck.xml");
  const thresholdsCtx = new IssueCollector("24thresholds.xml");
  const bischeck = readFile(bischeckCtx, files.bischeckXml, "bischeck", (root) => readBischeck(root, bischeckCtx));
  const thresholds =
    files.thresholdsXml === undefined
      ? null
      : readFile(thresholdsCtx, files.thresholdsXml, "twenty4threshold", (root) => readThresholds(root, thresholdsCtx));
  const propertiesCtx = new IssueCollector("properties.xml");
  const properties =
    files.propertiesXml === undefined
      ? null
      : readFile(propertiesCtx, files.propertiesXml, "properties", (root) => readProperties(root, propertiesCtx));
  const errors = [...bischeckCtx.errors, ...thresholdsCtx.errors, ...propertiesCtx.errors];
  if (errors.length > 0 || !bischeck) throw new BischeckImportError(errors);

  const { configuration, templates, maxSoft, mappedUrls } = bischeck;
  const warnings = [...bischeckCtx.warnings, ...thresholdsCtx.warnings, ...propertiesCtx.warnings];
  const expressionSites: ExpressionSite[] = calculationSites(configuration);
  if (thresholds) {
    const attached = new Set<string>();
    const items = new Map(
      configuration.hosts.flatMap((h) =>
        h.services.flatMap((s) =>
          s.items.map((i) => [itemKey({ host: h.name, service: s.name, item: i.name }), { item: i, host: h }] as const),
        ),
      ),
    );
    for (const def of thresholds.definitions) {
      const found = items.get(itemKey(def.ref));
      if (!found) {
        warnings.push(
          `24thresholds.xml:${def.el.line}: <${def.el.name}>: ${describe(def.ref)} is not a service item in bischeck.xml; its thresholds are not imported`,
        );
        continue;
      }
      const { item, host } = found;
      const macros = itemMacros(host, def.ref.service, def.ref.item);
      def.periods.forEach((period, p) => {
        period.hours.entries.forEach((entry, hour) => {
          if (entry?.kind !== "expression") return;
          const where = `24thresholds.xml:${def.el.line}: <${def.el.name}> ${describe(def.ref)} period ${p + 1} hour ${hour}`;
          expressionSites.push({ where, source: entry.source, macros });
        });
      });
      const policy: ThresholdPolicy = {
        periods: def.periods,
        holidays: structuredClone(thresholds.holidays),
        nullState: "UNKNOWN",
        maxSoft: maxSoft.get(serviceKey(def.ref)) ?? 3,
        timeZone: "UTC",
        ...(properties?.notFullListParse ? { notFullListParse: true } : {}),
      };
      const checked = thresholdPolicySchema.safeParse(policy);
      if (!checked.success) {
        thresholdsCtx.error(def.el, `invalid threshold for ${describe(def.ref)}: ${checked.error.issues[0]?.message}`);
        continue;
      }
      if (item.thresholdClass !== null && item.thresholdClass !== "Twenty4HourThreshold") {
        warnings.push(
          `24thresholds.xml:${def.el.line}: ${describe(def.ref)} has thresholdclass ${item.thresholdClass}, its Twenty4HourThreshold definition is imported anyway`,
        );
      }
      item.policy = checked.data;
      attached.add(itemKey(def.ref));
    }
    if (thresholds.definitions.length === 0 && thresholds.holidays.length > 0) {
      warnings.push("24thresholds.xml: holidays are not imported: no servicedef uses them");
    }
    templates.thresholdTemplates = thresholds.templates
      .map((t) => ({
        ...t,
        members: t.members.filter((m) => attached.has(itemKey(m))),
      }))
      .filter((t) => t.members.length > 0);
    if (thresholdsCtx.errors.length > 0) throw new BischeckImportError(thresholdsCtx.errors);
  }
  const known = knownSeries(configuration);
  const checkedSources = new Map<string, string[]>();
  for (const site of expressionSites) {
    // One table often repeats one expression in 24 hours: one warning per expression and item.
    const key = `${site.macros.host}\u0000${site.macros.service}\u0000${site.macros.item}\u0000${site.source}`;
    if (checkedSources.has(key)) continue;
    const found = checkExpression(site, known);
    checkedSources.set(key, found);
    warnings.push(...found);
  }
  const checked = configurationSchema.safeParse(configuration);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new BischeckImportError([
      {
        file: "bischeck.xml",
        element: "bischeck",
        line: 1,
        column: 1,
        message: `invalid configuration at ${issue?.path.join(".")}: ${issue?.message}`,
      },
    ]);
  }
  return { configuration: checked.data, templates, warnings, mappedUrls };
}
