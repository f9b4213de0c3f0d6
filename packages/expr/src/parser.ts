import { type BinaryOp, type Expr, isListSelector, offsetMs, type RefNode, type Selector, type TimeOffset, type TimeUnit } from "./ast.ts";
import { BadRangeError, ExprSyntaxError, LimitError } from "./errors.ts";
import { arityProblem, LIST_FUNCTIONS, lookupFunction } from "./functions.ts";
import { describe, Lexer, type Punct, type Token } from "./lexer.ts";
import { type Limits, resolveLimits } from "./limits.ts";
import { splitName } from "./names.ts";

export interface ParseOptions {
  readonly limits?: Partial<Limits>;
}

/** Binding power of each binary operator; `^` is right-associative and binds tighter than unary minus. */
export const BINARY_PRECEDENCE: Readonly<Record<BinaryOp, number>> = {
  "||": 1,
  "&&": 2,
  "==": 3,
  "!=": 3,
  "<": 4,
  "<=": 4,
  ">": 4,
  ">=": 4,
  "+": 5,
  "-": 5,
  "*": 6,
  "/": 6,
  "%": 6,
  "^": 8,
};
export const UNARY_PRECEDENCE = 7;

/**
 * Chains such as `1+1+1+…` nest without recursion in the parser but still make a deep tree that
 * the compiler and printer walk recursively; this bound keeps those walks far from the stack limit
 * whatever source length a caller allows.
 */
export const MAX_TREE_HEIGHT = 2048;

/** JEP's standard constants, which Bischeck's parser adds (addStandardConstants). */
const CONSTANTS: ReadonlyMap<string, number> = new Map([
  ["pi", Math.PI],
  ["e", Math.E],
]);

const UNITS: ReadonlySet<string> = new Set(["S", "M", "H", "D"]);

class Parser {
  private readonly lexer: Lexer;
  private token: Token;
  private depth = 0;
  private readonly heights = new WeakMap<Expr, number>();
  /** List-valued references not (yet) known to be a direct argument of a list function. */
  private readonly lists = new Set<RefNode>();

  constructor(
    source: string,
    private readonly limits: Limits,
  ) {
    this.lexer = new Lexer(source);
    this.token = this.lexer.next();
  }

  parseAll(): Expr {
    const expr = this.expression(0);
    if (this.token.kind !== "eof") this.fail("an operator or end of input");
    const [misplaced] = this.lists;
    if (misplaced !== undefined) {
      throw new ExprSyntaxError(
        `a single value here (only ${LIST_FUNCTIONS} take ranges and lists, as direct arguments)`,
        `'${this.lexer.source.slice(misplaced.span.offset, misplaced.span.end)}'`,
        misplaced.span,
      );
    }
    return expr;
  }

  private advance(): Token {
    const current = this.token;
    this.token = this.lexer.next();
    return current;
  }

  private fail(expected: string): never {
    throw new ExprSyntaxError(expected, describe(this.token), this.lexer.position(this.token.start));
  }

  private isPunct(value: Punct): boolean {
    return this.token.kind === "punct" && this.token.value === value;
  }

  private expect(value: Punct, expected = `'${value}'`): Token {
    if (!this.isPunct(value)) this.fail(expected);
    return this.advance();
  }

  private enter(start: number): void {
    if (++this.depth > this.limits.maxDepth) {
      throw new LimitError("maxDepth", `nesting deeper than ${this.limits.maxDepth}`, this.lexer.position(start));
    }
  }

  private leave(): void {
    this.depth--;
  }

  private node<T extends Expr>(node: T, ...children: readonly Expr[]): T {
    let height = 1;
    for (const child of children) height = Math.max(height, (this.heights.get(child) ?? 1) + 1);
    if (height > MAX_TREE_HEIGHT) {
      throw new LimitError("maxDepth", `expression tree deeper than ${MAX_TREE_HEIGHT}`, node.span);
    }
    this.heights.set(node, height);
    return node;
  }

  private binaryOp(): BinaryOp | null {
    const t = this.token;
    return t.kind === "punct" && t.value in BINARY_PRECEDENCE ? (t.value as BinaryOp) : null;
  }

  private expression(minPrecedence: number): Expr {
    let left = this.unary();
    for (;;) {
      const op = this.binaryOp();
      if (op === null || op === "^") break;
      const precedence = BINARY_PRECEDENCE[op];
      if (precedence < minPrecedence) break;
      this.advance();
      const right = this.expression(precedence + 1);
      left = this.node({ type: "binary", op, left, right, span: this.lexer.span(left.span.offset, right.span.end) }, left, right);
    }
    return left;
  }

  private unary(): Expr {
    const t = this.token;
    if (t.kind === "punct" && (t.value === "-" || t.value === "!")) {
      this.enter(t.start);
      this.advance();
      const operand = this.unary();
      this.leave();
      return this.node({ type: "unary", op: t.value, operand, span: this.lexer.span(t.start, operand.span.end) }, operand);
    }
    return this.power();
  }

  private power(): Expr {
    const base = this.primary();
    if (!this.isPunct("^")) return base;
    this.enter(this.token.start);
    this.advance();
    const exponent = this.unary();
    this.leave();
    return this.node(
      { type: "binary", op: "^", left: base, right: exponent, span: this.lexer.span(base.span.offset, exponent.span.end) },
      base,
      exponent,
    );
  }

  private primary(): Expr {
    const t = this.token;
    if (t.kind === "number") {
      this.advance();
      return this.node({ type: "number", value: t.value, span: this.lexer.span(t.start, t.end) });
    }
    if (t.kind === "punct" && t.value === "(") {
      this.enter(t.start);
      this.advance();
      const inner = this.expression(0);
      this.expect(")", "')' or an operator");
      this.leave();
      return inner;
    }
    if (t.kind === "string") {
      throw new ExprSyntaxError(
        "a number, a series reference or a function call (quoted names are arguments of ols and olss only)",
        describe(t),
        this.lexer.position(t.start),
      );
    }
    if (t.kind === "name") {
      this.advance();
      if (this.isPunct("(")) return this.call(t.raw, t.start);
      if (this.isPunct("[")) return this.reference(t.raw, t.start, t.end);
      if (t.raw === "null") return this.node({ type: "null", span: this.lexer.span(t.start, t.end) });
      const constant = CONSTANTS.get(t.raw);
      if (constant !== undefined) return this.node({ type: "number", value: constant, span: this.lexer.span(t.start, t.end) });
      this.fail(`'[' after the series name '${t.raw}', or '(' for a function call`);
    }
    return this.fail("a number, a series reference, a function call or '('");
  }

  private call(name: string, start: number): Expr {
    const fn = lookupFunction(name);
    if (fn === undefined) throw new ExprSyntaxError("a function name", `'${name}'`, this.lexer.position(start));
    this.enter(start);
    this.advance();
    const args: Expr[] = [];
    if (!this.isPunct(")")) {
      for (;;) {
        args.push(this.argument(fn.stringArgs, args.length));
        if (this.isPunct(")")) break;
        this.expect(",", "',' or ')'");
      }
    }
    const close = this.advance();
    this.leave();
    const span = this.lexer.span(start, close.end);
    const problem = arityProblem(fn, args.length);
    if (problem !== null) throw new ExprSyntaxError(problem, `${args.length}`, span);
    if (fn.acceptsLists) for (const arg of args) if (arg.type === "ref") this.lists.delete(arg);
    return this.node({ type: "call", name, args, span }, ...args);
  }

  /** A call argument; functions that name a series (ols, olss) take quoted strings in their first positions. */
  private argument(stringArgs: readonly number[] | undefined, index: number): Expr {
    const t = this.token;
    if (t.kind === "string" && stringArgs?.includes(index)) {
      this.advance();
      return this.node({ type: "string", value: t.value, span: this.lexer.span(t.start, t.end) });
    }
    if (stringArgs?.includes(index)) this.fail('a quoted argument such as "host"');
    return this.expression(0);
  }

  private reference(raw: string, start: number, nameEnd: number): Expr {
    const name = splitName(raw, this.lexer.span(start, nameEnd));
    const open = this.advance();
    const selector = this.selector(open.start);
    const close = this.expect("]", "']'");
    const node = this.node({ type: "ref", name, selector, span: this.lexer.span(start, close.end) });
    if (isListSelector(selector)) this.lists.add(node);
    return node;
  }

  private selector(open: number): Selector {
    const first = this.selectorPoint();
    if (this.isPunct(":")) {
      this.advance();
      if (first.kind === "index") {
        if (this.token.kind === "name" && this.token.raw === "END") {
          this.advance();
          return { kind: "indexRange", from: first.value, to: "END" };
        }
        const to = this.selectorPoint();
        if (to.kind !== "index") throw new BadRangeError("an index range needs an index after ':'", this.lexer.position(to.start));
        if (first.value > to.value)
          throw new BadRangeError(
            `index range ${first.value}:${to.value} runs backwards (write the newer index first)`,
            this.lexer.position(open),
          );
        return { kind: "indexRange", from: first.value, to: to.value };
      }
      if (this.token.kind === "name" && this.token.raw === "END") {
        this.advance();
        return { kind: "timeRange", from: first.offset, to: "END" };
      }
      const to = this.selectorPoint();
      if (to.kind !== "time") throw new BadRangeError("a time range needs a time offset or END after ':'", this.lexer.position(to.start));
      if (offsetMs(first.offset) > offsetMs(to.offset)) {
        throw new BadRangeError("a time range runs from the newer offset to the older one, e.g. [-30M:-120M]", this.lexer.position(open));
      }
      return { kind: "timeRange", from: first.offset, to: to.offset };
    }
    if (first.kind === "time") {
      if (this.isPunct(",")) throw new BadRangeError("lists take indices, not time offsets", this.lexer.position(this.token.start));
      return { kind: "nearest", offset: first.offset };
    }
    const indices = [first.value];
    while (this.isPunct(",")) {
      this.advance();
      const next = this.selectorPoint();
      if (next.kind !== "index") throw new BadRangeError("an index list takes indices only", this.lexer.position(next.start));
      indices.push(next.value);
    }
    return { kind: "index", indices };
  }

  private selectorPoint(): { kind: "index"; value: number; start: number } | { kind: "time"; offset: TimeOffset; start: number } {
    const t = this.token;
    const negative = t.kind === "punct" && t.value === "-";
    if (negative) this.advance();
    const n = this.token;
    if (n.kind !== "number") this.fail(negative ? "a time offset such as 30M" : "an index, a time offset such as -30M, or END");
    if (!/^\d+$/.test(n.text) || !Number.isSafeInteger(n.value)) {
      throw new BadRangeError(`'${n.text}' is not a whole number`, this.lexer.position(n.start));
    }
    this.advance();
    if (!negative) {
      if (this.token.kind === "name" && this.token.start === n.end) {
        throw new BadRangeError("a time offset starts with '-', e.g. -30M", this.lexer.position(n.start));
      }
      return { kind: "index", value: n.value, start: n.start };
    }
    const unit = this.token;
    // Bischeck's pattern allows spaces before the unit: `-12 H`.
    if (unit.kind !== "name" || !UNITS.has(unit.raw)) this.fail("a time unit S, M, H or D after the number");
    this.advance();
    const offset: TimeOffset = { amount: n.value, unit: unit.raw as TimeUnit };
    if (!Number.isSafeInteger(offsetMs(offset))) throw new BadRangeError("time offset too large", this.lexer.position(n.start));
    return { kind: "time", offset, start: t.start };
  }
}

/** Parses Bischeck cache-expression source into an AST; throws an ExprError subclass on failure. */
export function parse(source: string, options: ParseOptions = {}): Expr {
  const limits = resolveLimits(options.limits);
  if (source.length > limits.maxSourceLength) {
    const position = new Lexer(source.slice(0, limits.maxSourceLength + 1)).position(limits.maxSourceLength);
    throw new LimitError("maxSourceLength", `source is ${source.length} characters, at most ${limits.maxSourceLength} allowed`, position);
  }
  return new Parser(source, limits).parseAll();
}
