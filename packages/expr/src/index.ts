export type {
  BinaryNode,
  BinaryOp,
  CallNode,
  Expr,
  NamePart,
  NameSegment,
  NullNode,
  NumberNode,
  RefNode,
  Selector,
  SeriesName,
  Span,
  StringNode,
  TimeOffset,
  TimeUnit,
  UnaryNode,
  UnaryOp,
} from "./ast.ts";
export { isListSelector, offsetMs } from "./ast.ts";
export { type CompiledExpr, cacheValues, compile, type EvalContext } from "./compile.ts";
export {
  BadRangeError,
  ExprError,
  type ExprErrorCode,
  ExprEvalError,
  /** The name the design uses; ExprEvalError avoids shadowing the global EvalError. */
  ExprEvalError as EvalError,
  ExprSyntaxError,
  LimitError,
  type Position,
  UnknownSeriesError,
} from "./errors.ts";
export { compiled, evaluate } from "./evaluate.ts";
export { FUNCTIONS, type FunctionInfo } from "./functions.ts";
export { DEFAULT_LIMITS, type Limits } from "./limits.ts";
export { type InMemoryOptions, InMemorySeriesData, type Point } from "./memory-series.ts";
export { type Macros, seriesKey, splitSeriesKey } from "./names.ts";
export { type ParseOptions, parse } from "./parser.ts";
export { print } from "./printer.ts";
export { type Reference, type ReferencesOptions, references } from "./references.ts";
export type { SeriesData } from "./series-data.ts";
export { stripPositions } from "./strip.ts";
