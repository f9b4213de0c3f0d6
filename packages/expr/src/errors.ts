/** Where something is in the source: 0-based offset, 1-based line and column. */
export interface Position {
  readonly offset: number;
  readonly line: number;
  readonly column: number;
}

export type ExprErrorCode = "SYNTAX" | "UNKNOWN_SERIES" | "UNKNOWN_MACRO" | "BAD_RANGE" | "LIMIT" | "EVAL";

/**
 * Every failure of the expression language is an ExprError, so callers (the worker, the preview,
 * the fuzz run) can tell a bad expression from a bug with one `instanceof`.
 */
export class ExprError extends Error {
  readonly code: ExprErrorCode;
  readonly position: Position;

  constructor(code: ExprErrorCode, message: string, position: Position) {
    super(message);
    this.code = code;
    // Spans are passed in as positions; keep only the start so every error has the same shape.
    this.position = { offset: position.offset, line: position.line, column: position.column };
    this.name = new.target.name;
  }
}

export function at(position: Position): string {
  return `${position.line}:${position.column}`;
}

export class ExprSyntaxError extends ExprError {
  readonly expected: string;
  readonly found: string;

  constructor(expected: string, found: string, position: Position) {
    super("SYNTAX", `expected ${expected} at ${at(position)} but found ${found}`, position);
    this.expected = expected;
    this.found = found;
  }
}

export class UnknownSeriesError extends ExprError {
  readonly series: string;

  constructor(series: string, position: Position) {
    super("UNKNOWN_SERIES", `unknown series '${series}' at ${at(position)}`, position);
    this.series = series;
  }
}

export class BadRangeError extends ExprError {
  constructor(detail: string, position: Position) {
    super("BAD_RANGE", `bad range at ${at(position)}: ${detail}`, position);
  }
}

export class LimitError extends ExprError {
  readonly limit: string;

  constructor(limit: string, detail: string, position: Position) {
    super("LIMIT", `limit '${limit}' exceeded at ${at(position)}: ${detail}`, position);
    this.limit = limit;
  }
}

export class ExprEvalError extends ExprError {
  constructor(detail: string, position: Position, code: "EVAL" | "UNKNOWN_MACRO" = "EVAL") {
    super(code, `${detail} at ${at(position)}`, position);
  }
}
