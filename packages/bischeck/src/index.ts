/**
 * @tidemark/bischeck — import and export of Bischeck 1.x configuration files (bischeck.xml and
 * 24thresholds.xml). Pure: functions take and return strings and objects; no fs, no network.
 *
 * Decisions:
 * - Templates: the import expands every template into the Configuration (the model has no
 *   templates) and returns, beside it, `templates`: which servicetemplate / serviceitemtemplate /
 *   servicedeftemplate each object came from. Given those, the export re-emits the template (with
 *   a `<serviceoverride>` / `<serviceitemoverride>` for what an override can express) or the
 *   servicedefgroup, but only for objects that still equal their template; everything else is
 *   written expanded. Without `templates` the export writes expanded definitions only. Either way
 *   re-importing the export yields the same Configuration.
 * - Strict: unknown elements and attributes, missing or repeated ones, bad values, undefined
 *   hoursIDREF / templates, hour counts other than 24, intervals out of range, DOCTYPE / entity
 *   declarations and malformed XML are errors (BischeckImportError: file, element, line, column,
 *   message); nothing is imported then. Known Bischeck elements Tidemark has no place for (cache
 *   `<aggregate>`, time-based `<purge>`, service / item `<alias>`, `<driver>`, `<inactive>`) and
 *   servicedefs for items absent from bischeck.xml are warnings.
 * - Defaults: desc "" , sendserver true, maxSoft 3 (from the service's `<state><maxsoft>`), nullState
 *   UNKNOWN, time zone UTC. Holidays of 24thresholds.xml go to every imported policy; the export
 *   writes one holiday list (their union, with a warning, if policies differ).
 * - Liberal where the model is: a host without services and a service without items are accepted
 *   (bischeck.xsd wants one), `<sendserviceData>` is read like `<sendserver>`, "run after" schedules
 *   (`h-s`) become `after:h-s`, percentages may be decimals.
 * - Fidelity: Bischeck's five real configuration sets import without refusal. Service URLs Tidemark
 *   cannot run (livestatus://, jdbc: other than PostgreSQL) are kept and disabled with a warning;
 *   jdbc:postgresql: maps to postgres://. Every expression is parsed and its series looked up:
 *   problems are warnings with the expression's position (Bischeck computed no threshold there).
 *   `<to>24:00</to>`, `<notification>`, cache templates without `<purge>` and dangling
 *   hoursIDREFs (a period without thresholds) import as Bischeck reads them.
 * - Text is trimmed on import, so values with leading or trailing whitespace do not round-trip;
 *   nullState, timeZone and per-hour levels on hours without a threshold are not written (warnings).
 */

export {
  type DirectoryFile,
  type DirectoryFiles,
  filesFromDirectory,
  formatPreview,
  type ImportPreview,
  importPreview,
  type ServiceFate,
  type ServicePreview,
} from "./directory.ts";
export {
  type BischeckFile,
  BischeckImportError,
  type BischeckIssue,
} from "./errors.ts";
export {
  type BischeckExport,
  type BischeckExportOptions,
  exportBischeck,
} from "./export.ts";
export {
  type BischeckFiles,
  type BischeckImport,
  importBischeck,
} from "./import.ts";
export { redactUrl } from "./redact-url.ts";
export type {
  BischeckTemplates,
  ItemDefinition,
  ItemRef,
  ItemTemplate,
  ServiceDefinition,
  ServiceRef,
  ServiceTemplate,
  ThresholdTemplate,
} from "./templates.ts";
export { BischeckExportError } from "./xml-write.ts";
