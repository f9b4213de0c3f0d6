import type { Span } from "./ast.ts";
import { ExprSyntaxError, type Position } from "./errors.ts";
import { NAME_CONTINUE, NAME_START, REFERENCE_CHAR, REFERENCE_START, splitsIntoSeriesName } from "./names.ts";

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
  | { readonly kind: "string"; readonly value: string; readonly start: number; readonly end: number }
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

    // Bischeck's names: `10.0.0.1-ping-rtt[0]`, `h-s/H/avg/weekend-i[0]`, `h-service@x-i[0]`.
    const reference = this.referenceName(start);
    if (reference !== null) return reference;

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
    if (one === '"') return this.string(start);
    const cp = String.fromCodePoint(this.source.codePointAt(start) as number);
    if (NAME_START.test(cp)) return this.name(start);
    throw new ExprSyntaxError("an expression", `'${cp}'`, this.position(start));
  }

  /**
   * A series name in Bischeck's wider alphabet (digits first, `@`, `/` inside service and item),
   * recognised only when `[` follows at once and it splits into host-service-item; anything else
   * is lexed as before, so `2-x-y-z[0]` stays "2 minus x-y-z[0]" and `a/b` a division.
   */
  private referenceName(start: number): Token | null {
    if (!REFERENCE_START.test(this.source[start] as string)) return null;
    let i = start;
    while (i < this.source.length) {
      const cp = String.fromCodePoint(this.source.codePointAt(i) as number);
      if (cp === "\\") {
        if (i + 1 >= this.source.length) return null;
        i += 1 + String.fromCodePoint(this.source.codePointAt(i + 1) as number).length;
      } else if (REFERENCE_CHAR.test(cp)) {
        i += cp.length;
      } else {
        break;
      }
    }
    if (i === start || this.source[i] !== "[") return null;
    const raw = this.source.slice(start, i);
    if (!splitsIntoSeriesName(raw)) return null;
    this.pos = i;
    return { kind: "name", raw, start, end: i };
  }

  /** `"…"` with `\"` and `\\` escapes: the name arguments of ols and olss. */
  private string(start: number): Token {
    let value = "";
    let i = start + 1;
    while (i < this.source.length) {
      const ch = this.source[i] as string;
      if (ch === '"') {
        this.pos = i + 1;
        return { kind: "string", value, start, end: this.pos };
      }
      if (ch === "\\" && i + 1 < this.source.length) {
        value += this.source[i + 1];
        i += 2;
      } else {
        value += ch;
        i++;
      }
    }
    throw new ExprSyntaxError("a closing '\"'", "end of input", this.position(this.source.length));
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
    case "string":
      return `'"${token.value}"'`;
    case "punct":
      return `'${token.value}'`;
  }
}
