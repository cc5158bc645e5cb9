/**
 * The little XML the Table service speaks (service properties, stats, ACLs, XML errors): its
 * documents are flat and fixed, so elements are read by name rather than with a general parser.
 */

/** The text of the first `<name>…</name>` in `xml` ("" for an empty `<name/>`), or undefined. */
export function xmlElement(xml: string, name: string): string | undefined {
  const match = new RegExp(`<${name}(?:\\s[^>]*?)?(?:/>|>([\\s\\S]*?)</${name}>)`).exec(xml);
  return match ? (match[1] ?? "") : undefined;
}

/** Text made safe to place between tags. */
export function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
