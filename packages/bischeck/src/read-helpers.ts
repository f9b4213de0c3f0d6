/** Strict structural reading of an element tree: allowed children, cardinalities, leaf values. */
import type { IssueCollector, Positioned } from "./errors.ts";
import type { XmlElement } from "./xml.ts";

/** `1` exactly one, `?` at most one, `*` any number, `+` at least one. */
export type Cardinality = "1" | "?" | "*" | "+";
export type ChildSpec = Record<string, Cardinality>;

/** Attributes every element may carry (namespace declarations, xsi:nil, xsi:schemaLocation…). */
function isNeutralAttribute(name: string): boolean {
  return name === "xmlns" || name.startsWith("xmlns:") || name.startsWith("xsi:");
}

export class Children {
  constructor(private readonly byName: Map<string, XmlElement[]>) {}
  all(name: string): XmlElement[] {
    return this.byName.get(name) ?? [];
  }
  one(name: string): XmlElement | undefined {
    return this.byName.get(name)?.[0];
  }
  has(name: string): boolean {
    return this.byName.has(name);
  }
}

/**
 * Check `el`'s children against `spec` (unknown elements, missing or repeated ones) and its
 * attributes against `attributes`; container elements may not hold text.
 */
export function readChildren(ctx: IssueCollector, el: XmlElement, spec: ChildSpec, attributes: string[] = []): Children {
  checkAttributes(ctx, el, attributes);
  if (el.text.trim() !== "") ctx.error(el, `<${el.name}> holds elements, not text ("${el.text.trim().slice(0, 40)}")`);
  const byName = new Map<string, XmlElement[]>();
  for (const child of el.children) {
    const cardinality = spec[child.name];
    if (cardinality === undefined) {
      const allowed = Object.keys(spec)
        .map((k) => `<${k}>`)
        .join(", ");
      ctx.error(child, `unknown element <${child.name}> in <${el.name}> (allowed: ${allowed || "none"})`);
      continue;
    }
    const list = byName.get(child.name) ?? [];
    if (list.length > 0 && (cardinality === "1" || cardinality === "?")) {
      ctx.error(child, `<${child.name}> may appear only once in <${el.name}>`);
      continue;
    }
    list.push(child);
    byName.set(child.name, list);
  }
  for (const [name, cardinality] of Object.entries(spec)) {
    if ((cardinality === "1" || cardinality === "+") && !byName.has(name)) ctx.error(el, `<${el.name}> is missing <${name}>`);
  }
  return new Children(byName);
}

export function checkAttributes(ctx: IssueCollector, el: XmlElement, allowed: string[]): void {
  for (const name of Object.keys(el.attributes)) {
    if (!allowed.includes(name) && !isNeutralAttribute(name)) ctx.error(el, `unknown attribute ${name} on <${el.name}>`);
  }
}

/** Trimmed text of a leaf element; `xsi:nil="true"` reads as empty. */
export function leafText(ctx: IssueCollector, el: XmlElement): string {
  checkAttributes(ctx, el, []);
  const [child] = el.children;
  if (child) ctx.error(child, `unknown element <${child.name}> in <${el.name}>, which holds text only`);
  if (el.attributes["xsi:nil"] === "true") return "";
  return el.text.trim();
}

/** Text of an optional child, or undefined when absent. */
export function optionalText(ctx: IssueCollector, children: Children, name: string): string | undefined {
  const el = children.one(name);
  return el ? leafText(ctx, el) : undefined;
}

const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** A plain decimal number (what Bischeck reads as a constant threshold), or null. */
export function parsePlainNumber(text: string): number | null {
  if (!DECIMAL.test(text)) return null;
  const value = Number(text);
  if (!Number.isFinite(value)) return null;
  return Object.is(value, -0) ? 0 : value;
}

export function readInteger(ctx: IssueCollector, el: XmlElement, min: number, max: number): number | null {
  const text = leafText(ctx, el);
  if (!INTEGER.test(text)) {
    ctx.error(el, `<${el.name}> must be a whole number from ${min} to ${max}, got "${text}"`);
    return null;
  }
  const value = Number(text);
  if (value < min || value > max) {
    ctx.error(el, `<${el.name}> must be from ${min} to ${max}, got ${value}`);
    return null;
  }
  return value;
}

/** A percentage (warning / critical): a non-negative number up to 1000. */
export function readPercent(ctx: IssueCollector, el: XmlElement): number | null {
  const text = leafText(ctx, el);
  const value = parsePlainNumber(text);
  if (value === null || value < 0 || value > 1000) {
    ctx.error(el, `<${el.name}> must be a percentage from 0 to 1000, got "${text}"`);
    return null;
  }
  return value;
}

export function readBoolean(ctx: IssueCollector, el: XmlElement): boolean | null {
  const text = leafText(ctx, el).toLowerCase();
  if (text === "true" || text === "1") return true;
  if (text === "false" || text === "0") return false;
  ctx.error(el, `<${el.name}> must be true or false, got "${text}"`);
  return null;
}

/** Run a zod-like validator on a value and report its first message at the element. */
export function validated<T>(
  ctx: IssueCollector,
  at: Positioned,
  schema: {
    safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: { message: string }[] } };
  },
  value: unknown,
): T | null {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  ctx.error(at, `invalid <${at.name}> "${String(value).slice(0, 60)}": ${result.error.issues[0]?.message ?? "invalid"}`);
  return null;
}
