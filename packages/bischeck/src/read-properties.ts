/**
 * Bischeck's properties.xml: `<properties><property><key/><value/></property>…</properties>`.
 * Only notFullListParse decides how thresholds compute (it becomes the policies'
 * notFullListParse); the others configure Bischeck's own process and are listed in one warning.
 */
import type { IssueCollector } from "./errors.ts";
import { leafText, readChildren } from "./read-helpers.ts";
import type { XmlElement } from "./xml.ts";

export interface BischeckProperties {
  /** null when properties.xml does not set it (Bischeck's default is false). */
  notFullListParse: boolean | null;
}

export function readProperties(root: XmlElement, ctx: IssueCollector): BischeckProperties {
  const top = readChildren(ctx, root, { property: "*" });
  let notFullListParse: boolean | null = null;
  const ignored: string[] = [];
  for (const el of top.all("property")) {
    const c = readChildren(ctx, el, { key: "1", value: "1" });
    const keyEl = c.one("key");
    const valueEl = c.one("value");
    if (!keyEl || !valueEl) continue;
    const key = leafText(ctx, keyEl);
    const value = leafText(ctx, valueEl);
    // Bischeck compares with equalsIgnoreCase("true"): anything else is false.
    if (key === "notFullListParse") notFullListParse = value.toLowerCase() === "true";
    else ignored.push(key);
  }
  if (ignored.length > 0) {
    ctx.warn(root, `properties not imported (they configure Bischeck's own process): ${ignored.join(", ")}`);
  }
  return { notFullListParse };
}
