import type { NamePart, NameSegment, SeriesName, Span } from "./ast.ts";
import { ExprEvalError, ExprSyntaxError, type Position } from "./errors.ts";

/**
 * Lexing rule for names (documented for users): a name starts with a letter, `_`, `$` or a
 * backslash escape, and continues with letters, digits, `_`, `.`, `$`, `-` and escapes. A token
 * that starts with a digit is always a number, so a host such as `10.0.0.1` is written
 * `\10.0.0.1-svc-item[0]`. A backslash makes the next character literal: `\-` is a dash inside a
 * host, service or item name, and an escaped `$` never starts a macro.
 */
export const NAME_START = /[\p{L}_$\\]/u;
export const NAME_CONTINUE = /[\p{L}\p{N}_.$\\-]/u;
/**
 * Bischeck's own name alphabet (ObjectDefinitions): a host of letters, digits, `_`, `.`, `-`; a
 * service or item may also hold `@` and `/` (aggregated series such as `h-s/H/avg/weekend-i`).
 * Such a name may start with a digit; it is a reference when `[` follows (see the lexer).
 */
export const REFERENCE_START = /[\p{L}\p{N}_$\\]/u;
export const REFERENCE_CHAR = /[\p{L}\p{N}_.$@/\\-]/u;
const PLAIN_HOST = /[\p{L}\p{N}_.]/u;
const PLAIN = /[\p{L}\p{N}_.@/]/u;
const PLAIN_START = /[\p{L}\p{N}_]/u;
const HOST_FORBIDDEN = new Set(["@", "/"]);

/** Whether a raw name (escapes still in it) splits into three non-empty parts with a host Bischeck allows. */
export function splitsIntoSeriesName(raw: string): boolean {
  let part = 0;
  let length = 0;
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i] as string;
    if (ch === "\\") {
      i++;
      length++;
    } else if (ch === "-") {
      if (length === 0) return false;
      part++;
      length = 0;
    } else {
      if (part === 0 && HOST_FORBIDDEN.has(ch)) return false;
      length++;
    }
  }
  return part === 2 && length > 0;
}
const MACRO_NAME = /^[A-Za-z0-9_]+$/;

/** Values the `$$…$$` macros expand to; `aliases` serves any other macro name (e.g. HOSTALIAS). */
export interface Macros {
  readonly host: string;
  readonly service: string;
  readonly item: string;
  readonly aliases?: Readonly<Record<string, string>>;
}

interface Char {
  readonly ch: string;
  readonly escaped: boolean;
}

/** Splits a raw name token (escapes still in it) into host, service and item. */
export function splitName(raw: string, span: Span): SeriesName {
  const parts: Char[][] = [[]];
  const chars = Array.from(raw);
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] as string;
    if (ch === "\\") {
      const next = chars[++i];
      if (next === undefined) throw new ExprSyntaxError("a character after '\\'", "end of name", span);
      (parts[parts.length - 1] as Char[]).push({ ch: next, escaped: true });
    } else if (ch === "-") {
      parts.push([]);
    } else {
      (parts[parts.length - 1] as Char[]).push({ ch, escaped: false });
    }
  }
  const [host, service, item] = parts;
  if (parts.length !== 3 || host === undefined || service === undefined || item === undefined || parts.some((p) => p.length === 0)) {
    throw new ExprSyntaxError("a series name host-service-item (write '\\-' for a dash inside a name)", `'${raw}'`, span);
  }
  return { host: toSegments(host), service: toSegments(service), item: toSegments(item) };
}

function toSegments(chars: readonly Char[]): NamePart {
  const segments: NameSegment[] = [];
  let text = "";
  let i = 0;
  while (i < chars.length) {
    const macro = macroAt(chars, i);
    if (macro !== null) {
      if (text !== "") segments.push({ kind: "text", text });
      text = "";
      segments.push({ kind: "macro", name: macro.name });
      i = macro.next;
    } else {
      text += (chars[i] as Char).ch;
      i++;
    }
  }
  if (text !== "") segments.push({ kind: "text", text });
  return segments;
}

function isDollar(c: Char | undefined): boolean {
  return c !== undefined && c.ch === "$" && !c.escaped;
}

function macroAt(chars: readonly Char[], start: number): { name: string; next: number } | null {
  if (!isDollar(chars[start]) || !isDollar(chars[start + 1])) return null;
  let name = "";
  for (let i = start + 2; i < chars.length; i++) {
    if (isDollar(chars[i]) && isDollar(chars[i + 1])) {
      return MACRO_NAME.test(name) ? { name, next: i + 2 } : null;
    }
    const c = chars[i] as Char;
    if (c.escaped) return null;
    name += c.ch;
  }
  return null;
}

/** Source text of one name part: everything outside the plain character set is escaped. */
export function printPart(part: NamePart, first: boolean): string {
  let out = "";
  for (const segment of part) {
    if (segment.kind === "macro") {
      out += `$$${segment.name}$$`;
      continue;
    }
    for (const ch of segment.text) {
      const plain = out === "" ? PLAIN_START.test(ch) : first ? PLAIN_HOST.test(ch) : PLAIN.test(ch);
      out += plain ? ch : `\\${ch}`;
    }
  }
  return out;
}

export function printSeriesName(name: SeriesName): string {
  return `${printPart(name.host, true)}-${printPart(name.service, false)}-${printPart(name.item, false)}`;
}

export function hasMacros(name: SeriesName): boolean {
  return [name.host, name.service, name.item].some((part) => part.some((s) => s.kind === "macro"));
}

function expandMacro(name: string, macros: Macros | undefined, position: Position): string {
  const value =
    name === "HOSTNAME"
      ? macros?.host
      : name === "SERVICENAME"
        ? macros?.service
        : name === "SERVICEITEMNAME"
          ? macros?.item
          : macros?.aliases?.[name];
  if (value === undefined) throw new ExprEvalError(`unknown macro '$$${name}$$'`, position, "UNKNOWN_MACRO");
  return value;
}

export function resolvePart(part: NamePart, macros: Macros | undefined, position: Position): string {
  let out = "";
  for (const segment of part) out += segment.kind === "text" ? segment.text : expandMacro(segment.name, macros, position);
  return out;
}

export interface ResolvedSeries {
  readonly key: string;
  readonly host: string;
  readonly service: string;
  readonly item: string;
}

export function resolveSeries(name: SeriesName, macros: Macros | undefined, position: Position): ResolvedSeries {
  const host = resolvePart(name.host, macros, position);
  const service = resolvePart(name.service, macros, position);
  const item = resolvePart(name.item, macros, position);
  return { key: seriesKey(host, service, item), host, service, item };
}

function escapeKeyPart(part: string): string {
  return part.replace(/[\\-]/g, (c) => `\\${c}`);
}

/**
 * The series key handed to SeriesData: `host-service-item` as in Bischeck, with `\` and `-` inside
 * a part escaped so that the key always splits back into the same three parts.
 */
export function seriesKey(host: string, service: string, item: string): string {
  return `${escapeKeyPart(host)}-${escapeKeyPart(service)}-${escapeKeyPart(item)}`;
}

export function splitSeriesKey(key: string): { host: string; service: string; item: string } | null {
  const parts = [""];
  for (let i = 0; i < key.length; i++) {
    const ch = key[i] as string;
    if (ch === "\\" && i + 1 < key.length) {
      parts[parts.length - 1] += key[++i] as string;
    } else if (ch === "-") {
      parts.push("");
    } else {
      parts[parts.length - 1] += ch;
    }
  }
  const [host, service, item] = parts;
  if (parts.length !== 3 || host === undefined || service === undefined || item === undefined) return null;
  return { host, service, item };
}
