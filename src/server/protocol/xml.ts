import { ProtocolError } from "./protocol-error.js";

/**
 * The little XML the storage services speak: request bodies (queue messages, block lists, ACLs,
 * service properties) are read by a small strict parser (a document that is not well-formed is the
 * service's InvalidXmlDocument, nothing is written), responses are written as text.
 */

/** One element: its name, its child elements and its text (entities decoded). */
export interface XmlElement {
  readonly name: string;
  readonly children: XmlElement[];
  text: string;
}

export function invalidXml(detail = "XML specified is not syntactically valid."): ProtocolError {
  return new ProtocolError(400, "InvalidXmlDocument", detail);
}

const NAME = /^[A-Za-z_][\w.-]*/;
const ENTITIES: Readonly<Record<string, string>> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&([^;&]*);?/g, (whole, body: string) => {
    if (!whole.endsWith(";")) throw invalidXml();
    if (body.startsWith("#x") || body.startsWith("#X")) {
      const code = Number.parseInt(body.slice(2), 16);
      if (!/^[0-9a-fA-F]+$/.test(body.slice(2)) || code > 0x10ffff) throw invalidXml();
      return String.fromCodePoint(code);
    }
    if (body.startsWith("#")) {
      if (!/^\d+$/.test(body.slice(1)) || Number(body.slice(1)) > 0x10ffff) throw invalidXml();
      return String.fromCodePoint(Number(body.slice(1)));
    }
    const named = ENTITIES[body];
    if (named === undefined) throw invalidXml();
    return named;
  });
}

/** Parses a whole document (an optional declaration, one root element); throws InvalidXmlDocument. */
export function parseXml(text: string): XmlElement {
  let i = 0;
  const s = text.replace(/^\uFEFF/, "");
  const skipSpace = () => {
    while (i < s.length && /\s/.test(s[i]!)) i++;
  };
  const skipMisc = () => {
    for (;;) {
      skipSpace();
      if (s.startsWith("<?", i)) {
        const end = s.indexOf("?>", i);
        if (end < 0) throw invalidXml();
        i = end + 2;
      } else if (s.startsWith("<!--", i)) {
        const end = s.indexOf("-->", i);
        if (end < 0) throw invalidXml();
        i = end + 3;
      } else return;
    }
  };
  const element = (): XmlElement => {
    if (s[i] !== "<") throw invalidXml();
    i++;
    const name = NAME.exec(s.slice(i, i + 256))?.[0];
    if (!name) throw invalidXml();
    i += name.length;
    // Attributes are read for well-formedness only (none of these documents needs them).
    for (;;) {
      skipSpace();
      if (s.startsWith("/>", i)) {
        i += 2;
        return { name, children: [], text: "" };
      }
      if (s[i] === ">") {
        i++;
        break;
      }
      const attribute = /^[A-Za-z_:][\w.:-]*\s*=\s*("[^"<]*"|'[^'<]*')/.exec(s.slice(i));
      if (!attribute) throw invalidXml();
      i += attribute[0].length;
    }
    const node: XmlElement = { name, children: [], text: "" };
    let text = "";
    for (;;) {
      if (i >= s.length) throw invalidXml();
      if (s.startsWith("</", i)) {
        i += 2;
        if (!s.startsWith(name, i)) throw invalidXml();
        i += name.length;
        skipSpace();
        if (s[i] !== ">") throw invalidXml();
        i++;
        node.text = text;
        return node;
      }
      if (s.startsWith("<![CDATA[", i)) {
        const end = s.indexOf("]]>", i);
        if (end < 0) throw invalidXml();
        text += s.slice(i + 9, end);
        i = end + 3;
      } else if (s.startsWith("<!--", i)) {
        const end = s.indexOf("-->", i);
        if (end < 0) throw invalidXml();
        i = end + 3;
      } else if (s[i] === "<") {
        node.children.push(element());
      } else {
        const next = s.indexOf("<", i);
        const end = next < 0 ? s.length : next;
        text += decodeEntities(s.slice(i, end));
        i = end;
      }
    }
  };
  skipMisc();
  const root = element();
  skipMisc();
  if (i !== s.length) throw invalidXml();
  return root;
}

/** The first child named `name`, or undefined. */
export function child(element: XmlElement, name: string): XmlElement | undefined {
  return element.children.find((c) => c.name === name);
}

/** The text of the first `<name>…</name>` in `xml`, or undefined. */
export function xmlElement(xml: string, name: string): string | undefined {
  const match = new RegExp(`<${name}(?:\\s[^>]*)?>([\\s\\S]*?)</${name}>`).exec(xml);
  return match?.[1];
}

const ESCAPES: Readonly<Record<string, string>> = {
  "<": "&lt;",
  ">": "&gt;",
  "&": "&amp;",
  '"': "&quot;",
  "'": "&apos;",
};

/**
 * Text made safe to place between tags or in an attribute: named entities, and CR as `&#xD;`
 * (a raw CR would be normalized to LF by every XML parser).
 */
export function escapeXml(text: string): string {
  return text.replace(/[<>&"'\r]/g, (c) => ESCAPES[c] ?? "&#xD;");
}

/** RFC 1123 time, as the storage services write times in XML and headers. */
export function httpDate(date: Date): string {
  return date.toUTCString();
}
