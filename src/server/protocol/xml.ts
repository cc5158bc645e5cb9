import { SaxesParser } from "saxes";
import { ProtocolError } from "./protocol-error.js";

/**
 * The little XML the storage services speak: request bodies (queue messages, block lists, ACLs,
 * service properties) are read by `parseXml`, strict and bounded (a document that is not well-formed,
 * too deep or too large is the service's InvalidXmlDocument, nothing is written); responses are
 * written as text.
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

/** Far above any storage document (service properties and ACLs nest 4 deep), far below a stack's reach. */
export const MAX_XML_DEPTH = 32;
/** The largest body any service reads as XML (Put Block List: 50,000 ids of up to 64 bytes, in base64). */
export const MAX_XML_CHARS = 8 * 1024 * 1024;
/** Elements in one document: a block list has at most 50,000 entries; past this parsing stops at once. */
export const MAX_XML_ELEMENTS = 100_000;

/**
 * Parses a whole document (an optional declaration, one root element); throws InvalidXmlDocument.
 * saxes checks well-formedness as the XML 1.0 specification does and never recurses; a DOCTYPE is
 * refused outright, so no entity but the five predefined and numeric references is ever expanded.
 * Namespaces are not resolved: a prefixed name is kept whole (`p:Name`).
 */
export function parseXml(text: string): XmlElement {
  if (text.length > MAX_XML_CHARS) throw invalidXml(`An XML body holds at most ${MAX_XML_CHARS} characters.`);
  const parser = new SaxesParser({ position: false });
  const open: XmlElement[] = [];
  let root: XmlElement | undefined;
  let elements = 0;
  parser.on("error", () => {
    throw invalidXml();
  });
  parser.on("doctype", () => {
    throw invalidXml("A DOCTYPE declaration is not accepted.");
  });
  parser.on("opentag", (tag) => {
    if (open.length >= MAX_XML_DEPTH) throw invalidXml(`XML nests at most ${MAX_XML_DEPTH} elements deep.`);
    if (++elements > MAX_XML_ELEMENTS)
      throw invalidXml(`An XML body holds at most ${MAX_XML_ELEMENTS} elements.`);
    const element: XmlElement = { name: tag.name, children: [], text: "" };
    const parent = open.at(-1);
    if (parent) parent.children.push(element);
    else root = element;
    open.push(element);
  });
  parser.on("closetag", () => {
    open.pop();
  });
  const addText = (t: string) => {
    const current = open.at(-1);
    if (current) current.text += t;
  };
  parser.on("text", addText);
  parser.on("cdata", addText);
  // A BOM, and white space before the declaration, were accepted before: clients send both.
  parser.write(text.replace(/^\uFEFF?\s*/, "")).close();
  if (!root) throw invalidXml();
  return root;
}

/** The first child named `name`, or undefined. */
export function child(element: XmlElement, name: string): XmlElement | undefined {
  return element.children.find((c) => c.name === name);
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
