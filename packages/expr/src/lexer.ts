import type { Span } from "./ast.ts";
import { ExprSyntaxError, type Position } from "./errors.ts";
import { NAME_CONTINUE, NAME_START } from "./names.ts";

export type Punct =
  | "("
  | ")"
  | "["
  | "]"
  | ","
  | ":"
  | "+"
  | "-"
  | "*"
  | "/"
  | "%"
  | "^"
  | "<"
  | "<="
  | ">"
  | ">="
  | "=="
  | "!="
  | "&&"
  | "||"
  | "!";

export type Token =
  | { readonly kind: "number"; readonly value: number; readonly text: string; readonly start: number; readonly end: number }
  | { readonly kind: "name"; readonly raw: string; readonly start: number; readonly end: number }
  | { readonly kind: "punct"; readonly value: Punct; readonly start: number; readonly end: number }
  | { readonly kind: "eof"; readonly start: number; readonly end: number };

const TWO_CHAR: ReadonlySet<string> = new Set(["<=", ">=", "==", "!=", "&&", "||"]);
const ONE_CHAR: ReadonlySet<string> = new Set(["(", ")", "[", "]", ",", ":", "+", "-", "*", "/", "%", "^", "<", ">", "!"]);
const NUMBER = /(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/y;
const WHITESPACE = /[ \t\r\n]*/y;

/** Pull lexer: the parser asks for one token at a time, so nothing is scanned past an error. */
export class Lexer {
  private pos = 0;
  private readonly lineStarts: number[] = [0];

  constructor(readonly source: string) {
    for (let i = 0; i < source.length; i++) if (source.charCodeAt(i) === 10) this.lineStarts.push(i + 1);
  }

  position(offset: number): Position {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.lineStarts[mid] as number) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { offset, line: lo + 1, column: offset - (this.lineStarts[lo] as number) + 1 };
  }

  span(start: number, end: number): Span {
    return { ...this.position(start), end };
  }

  next(): Token {
    WHITESPACE.lastIndex = this.pos;
    WHITESPACE.exec(this.source);
    const start = WHITESPACE.lastIndex;
    this.pos = start;
    if (start >= this.source.length) return { kind: "eof", start, end: start };

    const two = this.source.slice(start, start + 2);
    if (TWO_CHAR.has(two)) {
      this.pos = start + 2;
      return { kind: "punct", value: two as Punct, start, end: this.pos };
    }
    const one = this.source[start] as string;
    if (ONE_CHAR.has(one)) {
      this.pos = start + 1;
      return { kind: "punct", value: one as Punct, start, end: this.pos };
    }
    NUMBER.lastIndex = start;
    const number = NUMBER.exec(this.source);
    if (number !== null) {
      this.pos = NUMBER.lastIndex;
      const value = Number(number[0]);
      if (!Number.isFinite(value)) throw new ExprSyntaxError("a finite number", `'${number[0]}'`, this.position(start));
      return { kind: "number", value, text: number[0], start, end: this.pos };
    }
    const cp = String.fromCodePoint(this.source.codePointAt(start) as number);
    if (NAME_START.test(cp)) return this.name(start);
    throw new ExprSyntaxError("an expression", `'${cp}'`, this.position(start));
  }

  private name(start: number): Token {
    let i = start;
    while (i < this.source.length) {
      const cp = String.fromCodePoint(this.source.codePointAt(i) as number);
      if (cp === "\\") {
        if (i + 1 >= this.source.length) throw new ExprSyntaxError("a character after '\\'", "end of input", this.position(i + 1));
        i += 1 + String.fromCodePoint(this.source.codePointAt(i + 1) as number).length;
      } else if (NAME_CONTINUE.test(cp)) {
        i += cp.length;
      } else {
        break;
      }
    }
    this.pos = i;
    return { kind: "name", raw: this.source.slice(start, i), start, end: i };
  }
}

export function describe(token: Token): string {
  switch (token.kind) {
    case "eof":
      return "end of input";
    case "number":
      return `'${token.text}'`;
    case "name":
      return `'${token.raw}'`;
    case "punct":
      return `'${token.value}'`;
  }
}
