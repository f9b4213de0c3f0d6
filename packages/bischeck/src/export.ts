/** exportBischeck: Tidemark's Configuration → bischeck.xml and 24thresholds.xml. */
import type { Configuration } from "@tidemark/model";
import { type BischeckTemplates, emptyTemplates } from "./templates.ts";
import { writeBischeck } from "./write-bischeck.ts";
import { writeThresholds } from "./write-thresholds.ts";
import { renderDocument } from "./xml-write.ts";

export interface BischeckExportOptions {
  /** Template structure from importBischeck; templates are re-used where the objects still fit them. */
  templates?: BischeckTemplates;
}

export interface BischeckExport {
  bischeckXml: string;
  thresholdsXml: string;
  /** What Bischeck's files cannot carry (e.g. a policy's time zone), written approximately or not at all. */
  warnings: string[];
}

/** Throws BischeckExportError only for text XML cannot carry (control characters). */
export function exportBischeck(configuration: Configuration, options: BischeckExportOptions = {}): BischeckExport {
  const templates = options.templates ?? emptyTemplates();
  const warnings: string[] = [];
  const bischeckXml = renderDocument(writeBischeck(configuration, templates, warnings));
  const thresholdsXml = renderDocument(writeThresholds(configuration, templates, warnings));
  return { bischeckXml, thresholdsXml, warnings };
}
