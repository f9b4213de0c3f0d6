/**
 * Display tokens for syntax highlighting only; errors and evaluation come from the real parser
 * in @tidemark/expr. Every character of the source lands in exactly one token.
 */
export type TokenKind = "number" | "function" | "series" | "selector" | "operator" | "space" | "other";

export interface Token {
  kind: TokenKind;
  text: string;
  start: number;
}

const NAME_CHAR = /[\p{L}\p{N}_.$\\-]/u;

export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const push = (kind: TokenKind, end: number) => {
    tokens.push({ kind, text: source.slice(i, end), start: i });
    i = end;
  };
  while (i < source.length) {
    const ch = source[i] as string;
    if (/\s/.test(ch)) {
      let j = i + 1;
      while (j < source.length && /\s/.test(source[j] as string)) j++;
      push("space", j);
    } else if (/\d/.test(ch) || (ch === "." && /\d/.test(source[i + 1] ?? ""))) {
      const m = /^\d*\.?\d+(?:[eE][+-]?\d+)?/.exec(source.slice(i));
      push("number", i + (m?.[0].length ?? 1));
    } else if (ch === "[") {
      const close = source.indexOf("]", i);
      push("selector", close < 0 ? source.length : close + 1);
    } else if (/[\p{L}_$\\]/u.test(ch)) {
      let j = i + 1;
      while (j < source.length && (NAME_CHAR.test(source[j] as string) || source[j - 1] === "\\")) j++;
      let k = j;
      while (k < source.length && source[k] === " ") k++;
      push(source[k] === "(" ? "function" : "series", j);
    } else if (/[-+*/%<>=!&|^]/.test(ch)) {
      push("operator", i + 1);
    } else {
      push("other", i + 1);
    }
  }
  return tokens;
}

/** The name being typed just before the caret (for autocomplete), or null. */
export function wordBefore(source: string, caret: number): { start: number; text: string } | null {
  let start = caret;
  while (start > 0 && NAME_CHAR.test(source[start - 1] as string)) start--;
  if (start === caret || /\d/.test(source[start] as string)) return null;
  return { start, text: source.slice(start, caret) };
}
