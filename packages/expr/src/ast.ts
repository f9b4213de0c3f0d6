import type { Position } from "./errors.ts";

/** A node's place in the source: where it starts and the offset just past its last character. */
export interface Span extends Position {
  readonly end: number;
}

/** Seconds, minutes, hours and days (Bischeck's CacheUtil accepts D too). */
export type TimeUnit = "S" | "M" | "H" | "D";

/** `-30M` is stored as written (amount 30, unit M) so printing gives back the user's text. */
export interface TimeOffset {
  readonly amount: number;
  readonly unit: TimeUnit;
}

/** A piece of a host, service or item name: literal text, or a `$$NAME$$` macro. */
export type NameSegment = { readonly kind: "text"; readonly text: string } | { readonly kind: "macro"; readonly name: string };

/** Segments in order; adjacent text segments are always merged, and empty text never occurs. */
export type NamePart = readonly NameSegment[];

export interface SeriesName {
  readonly host: NamePart;
  readonly service: NamePart;
  readonly item: NamePart;
}

export type Selector =
  /** `[0]`, `[3]`, `[1,3,5]`: 0 is the newest point. */
  | { readonly kind: "index"; readonly indices: readonly number[] }
  /** `[0:9]`: from ≤ to, both inclusive; `[3:END]` runs to the oldest stored point. */
  | { readonly kind: "indexRange"; readonly from: number; readonly to: number | "END" }
  /** `[-30M]`: the point closest to now − offset. */
  | { readonly kind: "nearest"; readonly offset: TimeOffset }
  /** `[-30M:-120M]`, `[-24H:END]`: every point from now − from back to now − to (or the oldest). */
  | { readonly kind: "timeRange"; readonly from: TimeOffset; readonly to: TimeOffset | "END" };

export type BinaryOp = "||" | "&&" | "==" | "!=" | "<" | "<=" | ">" | ">=" | "+" | "-" | "*" | "/" | "%" | "^";
export type UnaryOp = "-" | "!";

export interface NumberNode {
  readonly type: "number";
  readonly value: number;
  readonly span: Span;
}
export interface NullNode {
  readonly type: "null";
  readonly span: Span;
}
export interface RefNode {
  readonly type: "ref";
  readonly name: SeriesName;
  readonly selector: Selector;
  readonly span: Span;
}
/** A quoted argument, only for functions that take names (Bischeck's `ols("host", …)`). */
export interface StringNode {
  readonly type: "string";
  readonly value: string;
  readonly span: Span;
}
export interface CallNode {
  readonly type: "call";
  readonly name: string;
  readonly args: readonly Expr[];
  readonly span: Span;
}
export interface UnaryNode {
  readonly type: "unary";
  readonly op: UnaryOp;
  readonly operand: Expr;
  readonly span: Span;
}
export interface BinaryNode {
  readonly type: "binary";
  readonly op: BinaryOp;
  readonly left: Expr;
  readonly right: Expr;
  readonly span: Span;
}

export type Expr = NumberNode | NullNode | StringNode | RefNode | CallNode | UnaryNode | BinaryNode;

const UNIT_MS: Readonly<Record<TimeUnit, number>> = { S: 1000, M: 60_000, H: 3_600_000, D: 86_400_000 };

export function offsetMs(offset: TimeOffset): number {
  return offset.amount * UNIT_MS[offset.unit];
}

/** A reference yields a list (rather than one value) unless it picks exactly one point. */
export function isListSelector(selector: Selector): boolean {
  return selector.kind === "indexRange" || selector.kind === "timeRange" || (selector.kind === "index" && selector.indices.length !== 1);
}
