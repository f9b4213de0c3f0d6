/** Errors and warnings of the Bischeck import, each tied to an element and a source position. */

export type BischeckFile = "bischeck.xml" | "24thresholds.xml" | "properties.xml";

export interface BischeckIssue {
  file: BischeckFile;
  /** The element concerned, e.g. `hoursIDREF` (or `xml` / `DOCTYPE` for document-level problems). */
  element: string;
  /** 1-based line and column of the element's start tag (of the offending text for malformed XML). */
  line: number;
  column: number;
  message: string;
}

/** Thrown by `importBischeck`: nothing is imported. `issues` lists every problem found. */
export class BischeckImportError extends Error {
  readonly issues: BischeckIssue[];
  constructor(issues: BischeckIssue[]) {
    super(
      issues.length === 0
        ? "Bischeck import failed"
        : issues.map((i) => `${i.file}:${i.line}:${i.column} <${i.element}>: ${i.message}`).join("\n"),
    );
    this.name = "BischeckImportError";
    this.issues = issues;
  }
}

/** Anything with a position: XML elements carry one. */
export interface Positioned {
  name: string;
  line: number;
  column: number;
}

/** Collects errors and warnings while reading one file; errors are thrown together at the end. */
export class IssueCollector {
  readonly errors: BischeckIssue[] = [];
  readonly warnings: string[] = [];
  constructor(readonly file: BischeckFile) {}

  error(at: Positioned, message: string): void {
    this.errors.push({
      file: this.file,
      element: at.name,
      line: at.line,
      column: at.column,
      message,
    });
  }

  warn(at: Positioned, message: string): void {
    this.warnings.push(`${this.file}:${at.line}: <${at.name}>: ${message}`);
  }
}
