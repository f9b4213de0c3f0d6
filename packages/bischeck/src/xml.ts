/**
 * Safe XML reading with source positions, on top of fast-xml-parser.
 *
 * Safety: a DOCTYPE (and so any entity declaration, internal or external) is refused before
 * parsing; the parser runs with entity processing off; only XML's five predefined entities and
 * character references are decoded here; any other `&name;` is refused. Positions: the parser's
 * `captureMetaData` gives each element's start offset, mapped to a 1-based line and column.
 */
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { type BischeckFile, BischeckImportError, type BischeckIssue, type IssueCollector, type Positioned } from "./errors.ts";

export interface XmlElement extends Positioned {
  attributes: Record<string, string>;
  children: XmlElement[];
  /** Decoded character data directly inside this element (text and CDATA), untrimmed. */
  text: string;
}

/** Refuse inputs over this size outright (Bischeck files are a few kilobytes to a few megabytes). */
export const MAX_XML_LENGTH = 16 * 1024 * 1024;

/** Bischeck's files nest about eight deep; far deeper is refused before any parser recurses into it. */
export const MAX_XML_DEPTH = 100;

const PREDEFINED: Record<string, string> = {
  lt: "<",
  gt: ">",
  amp: "&",
  quot: '"',
  apos: "'",
};

function lineStarts(source: string): number[] {
  const starts = [0];
  for (let i = 0; i < source.length; i++) if (source.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

function positionOf(starts: number[], offset: number): { line: number; column: number } {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - (starts[lo] ?? 0) + 1 };
}

function isXmlChar(cp: number): boolean {
  return (
    cp === 0x9 ||
    cp === 0xa ||
    cp === 0xd ||
    (cp >= 0x20 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

/** Decode predefined entities and character references; undefined entities are refused. */
function decodeEntities(raw: string, at: Positioned, ctx: IssueCollector): string {
  if (!raw.includes("&")) return raw;
  return raw.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z_][\w.-]*);/g, (whole, ref: string) => {
    if (ref.startsWith("#")) {
      const cp = ref[1] === "x" ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
      if (!isXmlChar(cp)) {
        ctx.error(at, `character reference ${whole} is not a valid XML character`);
        return "";
      }
      return String.fromCodePoint(cp);
    }
    const value = PREDEFINED[ref];
    if (value === undefined) {
      ctx.error(at, `undefined entity ${whole}: entity expansion is disabled, only &lt; &gt; &amp; &quot; &apos; are accepted`);
      return "";
    }
    return value;
  });
}

function documentIssue(file: BischeckFile, element: string, line: number, column: number, message: string): BischeckImportError {
  const issue: BischeckIssue = { file, element, line, column, message };
  return new BischeckImportError([issue]);
}

/** Refuse DOCTYPE / ENTITY declarations (billion laughs, external entities) before any parsing. */
function refuseDeclarations(source: string, file: BischeckFile): void {
  const entity = /<!ENTITY/i.exec(source);
  const doctype = /<!DOCTYPE/i.exec(source);
  const hit = entity ?? doctype;
  if (!hit) return;
  const { line, column } = positionOf(lineStarts(source), hit.index);
  const what = entity
    ? /\bSYSTEM\b|\bPUBLIC\b/i.test(source.slice(entity.index, source.indexOf(">", entity.index) + 1))
      ? "an external entity declaration"
      : "an entity declaration"
    : "a DOCTYPE declaration";
  throw documentIssue(
    file,
    entity ? "!ENTITY" : "!DOCTYPE",
    line,
    column,
    `${what} is not accepted: DTDs and entity expansion are disabled for Bischeck files`,
  );
}

/** The offset of the first start tag nested deeper than `max`, or -1; comments, CDATA, PIs and declarations are skipped. */
export function tooDeepAt(source: string, max: number): number {
  let depth = 0;
  let i = source.indexOf("<");
  while (i !== -1 && i < source.length) {
    if (source.startsWith("<!--", i)) i = source.indexOf("-->", i + 4);
    else if (source.startsWith("<![CDATA[", i)) i = source.indexOf("]]>", i + 9);
    else if (source.startsWith("<?", i)) i = source.indexOf("?>", i + 2);
    else if (source.startsWith("<!", i) || source.startsWith("</", i)) {
      if (source[i + 1] === "/") depth--;
      i = source.indexOf(">", i + 2);
    } else {
      let j = i + 1;
      let quote: string | null = null;
      for (; j < source.length; j++) {
        const ch = source[j];
        if (quote !== null) {
          if (ch === quote) quote = null;
        } else if (ch === '"' || ch === "'") quote = ch;
        else if (ch === ">") break;
      }
      if (source[j - 1] !== "/" && ++depth > max) return i;
      i = j;
    }
    if (i === -1) return -1;
    i = source.indexOf("<", i + 1);
  }
  return -1;
}

const parser = new XMLParser({
  preserveOrder: true,
  captureMetaData: true,
  processEntities: false,
  htmlEntities: false,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  commentPropName: "#comment",
  cdataPropName: "#cdata",
});
const META = XMLParser.getMetaDataSymbol() as unknown as string;

type OrderedNode = Record<string, unknown>;

function toElement(node: OrderedNode, starts: number[], ctx: IssueCollector): XmlElement | null {
  const name = Object.keys(node).find((k) => k !== ":@");
  if (name === undefined || name === "#text" || name === "#comment" || name === "#cdata") return null;
  const meta = node[META] as { startIndex?: number } | undefined;
  const { line, column } = positionOf(starts, meta?.startIndex ?? 0);
  const element: XmlElement = {
    name,
    line,
    column,
    attributes: {},
    children: [],
    text: "",
  };
  const rawAttributes = (node[":@"] ?? {}) as Record<string, string>;
  for (const [key, value] of Object.entries(rawAttributes)) element.attributes[key] = decodeEntities(String(value), element, ctx);
  for (const child of (node[name] ?? []) as OrderedNode[]) {
    if ("#text" in child) element.text += decodeEntities(String(child["#text"]), element, ctx);
    else if ("#cdata" in child) {
      for (const part of child["#cdata"] as OrderedNode[]) element.text += String(part["#text"] ?? "");
    } else {
      const sub = toElement(child, starts, ctx);
      if (sub) element.children.push(sub);
    }
  }
  return element;
}

/** The XML library's own refusals (plain Errors, e.g. its nesting limit) become import errors: never a 500. */
function guarded<T>(file: BischeckFile, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof BischeckImportError || !(error instanceof Error)) throw error;
    throw documentIssue(file, "xml", 1, 1, `not readable as XML: ${error.message}`);
  }
}

/**
 * Parse one Bischeck file to an element tree with positions. Throws BischeckImportError for
 * malformed XML, DTDs, undefined entities, or a root element other than `expectedRoot`.
 */
export function parseXml(input: string, file: BischeckFile, expectedRoot: string, ctx: IssueCollector): XmlElement {
  if (typeof input !== "string") throw documentIssue(file, "xml", 1, 1, "expected the file's text");
  if (input.length > MAX_XML_LENGTH) throw documentIssue(file, "xml", 1, 1, `file is larger than ${MAX_XML_LENGTH} characters`);
  const source = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  refuseDeclarations(source, file);
  const deep = tooDeepAt(source, MAX_XML_DEPTH);
  if (deep !== -1) {
    const { line, column } = positionOf(lineStarts(source), deep);
    throw documentIssue(file, "xml", line, column, `elements nest deeper than ${MAX_XML_DEPTH} levels (Bischeck files nest about eight)`);
  }
  const valid = guarded(file, () => XMLValidator.validate(source));
  if (valid !== true) {
    throw documentIssue(file, "xml", valid.err.line ?? 1, valid.err.col ?? 1, `not well-formed XML: ${valid.err.msg}`);
  }
  const starts = lineStarts(source);
  const roots: XmlElement[] = [];
  for (const node of guarded(file, () => parser.parse(source)) as OrderedNode[]) {
    const element = toElement(node, starts, ctx);
    if (element) roots.push(element);
  }
  const [root, extra] = roots;
  if (!root) throw documentIssue(file, "xml", 1, 1, `no root element, expected <${expectedRoot}>`);
  if (extra) throw documentIssue(file, extra.name, extra.line, extra.column, "a document has exactly one root element");
  if (root.name !== expectedRoot) {
    throw documentIssue(file, root.name, root.line, root.column, `unknown root element <${root.name}>, expected <${expectedRoot}>`);
  }
  if (ctx.errors.length > 0) throw new BischeckImportError(ctx.errors);
  return root;
}
