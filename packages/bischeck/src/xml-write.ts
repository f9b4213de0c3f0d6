/** A tiny XML writer: element trees to indented, escaped, well-formed XML 1.0 text. */

export interface XmlNode {
  name: string;
  attributes?: Record<string, string>;
  /** Child elements, or text for a leaf. */
  children?: XmlNode[];
  text?: string;
  comment?: string;
}

export class BischeckExportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BischeckExportError";
  }
}

/** Whether every character can be carried by XML 1.0 (no C0 controls but tab/LF/CR, no lone surrogates, no U+FFFE/FFFF). */
function isXmlText(value: string): boolean {
  for (const ch of value) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp < 0x20 && cp !== 0x9 && cp !== 0xa && cp !== 0xd) return false;
    if ((cp >= 0xd800 && cp <= 0xdfff) || cp === 0xfffe || cp === 0xffff) return false;
  }
  return true;
}

function escapeXml(value: string, where: string, attribute: boolean): string {
  if (!isXmlText(value)) throw new BischeckExportError(`${where} holds a character XML cannot represent`);
  const text = value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\r/g, "&#13;");
  return attribute ? text.replace(/"/g, "&quot;").replace(/\n/g, "&#10;").replace(/\t/g, "&#9;") : text;
}

export function leaf(name: string, text: string | number | boolean): XmlNode {
  return { name, text: String(text) };
}

export function element(name: string, children: (XmlNode | null | undefined | false)[], attributes?: Record<string, string>): XmlNode {
  return {
    name,
    attributes,
    children: children.filter((c): c is XmlNode => Boolean(c)),
  };
}

function render(node: XmlNode, depth: number, out: string[]): void {
  const pad = "  ".repeat(depth);
  if (node.comment !== undefined) {
    out.push(`${pad}<!-- ${node.comment.replace(/--/g, "- -")} -->`);
    return;
  }
  const attributes = Object.entries(node.attributes ?? {})
    .map(([k, v]) => ` ${k}="${escapeXml(v, `attribute ${k}`, true)}"`)
    .join("");
  if (node.text !== undefined) {
    out.push(`${pad}<${node.name}${attributes}>${escapeXml(node.text, `<${node.name}>`, false)}</${node.name}>`);
  } else if (!node.children || node.children.length === 0) {
    out.push(`${pad}<${node.name}${attributes}/>`);
  } else {
    out.push(`${pad}<${node.name}${attributes}>`);
    for (const child of node.children) render(child, depth + 1, out);
    out.push(`${pad}</${node.name}>`);
  }
}

export function renderDocument(root: XmlNode): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  render(root, 0, out);
  return `${out.join("\n")}\n`;
}
