/**
 * XML request bodies (queue messages, block lists, ACLs, service properties) are read by one strict
 * parser: malformed, too deep, too large input and DOCTYPEs are 400 InvalidXmlDocument, never a 500
 * or a stack overflow, in time linear in the body; well-formed documents with a BOM, comments,
 * CDATA and references are read as before.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProtocolError } from "../../src/server/protocol/protocol-error.js";
import {
  child,
  MAX_XML_CHARS,
  MAX_XML_DEPTH,
  MAX_XML_ELEMENTS,
  parseXml,
  type XmlElement,
} from "../../src/server/protocol/xml.js";
import { type StorageRequest, storageRequest, xmlValue } from "../support/raw-storage-client.js";
import { serveStorageAccounts } from "../support/tablekit-server.js";

const MiB = 1024 * 1024;

/** The code parseXml refused `text` with, or "accepted". */
function outcome(text: string): string {
  try {
    parseXml(text);
    return "accepted";
  } catch (err) {
    if (err instanceof ProtocolError) return `${err.status} ${err.code}`;
    throw err;
  }
}
const REFUSED = "400 InvalidXmlDocument";
const nested = (depth: number, inner = "x") => `${"<a>".repeat(depth)}${inner}${"</a>".repeat(depth)}`;
const depthOf = (e: XmlElement): number => 1 + Math.max(0, ...e.children.map(depthOf));

describe("parseXml: well-formed documents", () => {
  it("a BOM, a declaration, comments, CDATA, the five entities and numeric references are read", () => {
    const root = parseXml(
      '\uFEFF<?xml version="1.0" encoding="utf-8"?>\n<!-- before --><QueueMessage a="1" b=\'&lt;\'>' +
        "<MessageText>x &amp; &lt;y&gt; &quot;&apos; &#65;&#x42;&#x1F600;<!-- inside --><![CDATA[<raw> & ]]]></MessageText>" +
        "<Empty/></QueueMessage>\n<!-- after -->\n",
    );
    expect(root.name).toBe("QueueMessage");
    expect(root.children.map((c) => c.name)).toEqual(["MessageText", "Empty"]);
    expect(child(root, "MessageText")?.text).toBe(`x & <y> "' AB\u{1F600}<raw> & ]`);
    expect(child(root, "Empty")?.text).toBe("");
    expect(child(root, "Missing")).toBeUndefined();
  });

  it("white space before the declaration is still accepted, as the hand-written parser did", () => {
    expect(parseXml('\n  <?xml version="1.0"?><a>t</a>').text).toBe("t");
  });

  it("CR LF is read as LF, as every XML parser does; a CR written as &#xD; is kept", () => {
    expect(parseXml("<a>1\r\n2\r3&#xD;</a>").text).toBe("1\n2\n3\r");
  });

  it(`nesting up to ${MAX_XML_DEPTH} deep is read; one more is refused`, () => {
    expect(depthOf(parseXml(nested(MAX_XML_DEPTH)))).toBe(MAX_XML_DEPTH);
    expect(outcome(nested(MAX_XML_DEPTH + 1))).toBe(REFUSED);
  });

  it(`${MAX_XML_ELEMENTS} elements are read; one more is refused`, () => {
    const list = (n: number) => `<BlockList>${"<Latest>QQ==</Latest>".repeat(n - 1)}</BlockList>`;
    expect(parseXml(list(MAX_XML_ELEMENTS)).children).toHaveLength(MAX_XML_ELEMENTS - 1);
    expect(outcome(list(MAX_XML_ELEMENTS + 1))).toBe(REFUSED);
  });

  it(`a body of ${MAX_XML_CHARS} characters is read; one more is refused before parsing`, () => {
    const open = "<a>";
    const close = "</a>";
    const body = (n: number) => `${open}${"x".repeat(n - open.length - close.length)}${close}`;
    expect(parseXml(body(MAX_XML_CHARS)).text).toHaveLength(MAX_XML_CHARS - 7);
    expect(outcome(body(MAX_XML_CHARS + 1))).toBe(REFUSED);
  });
});

describe("parseXml: malformed and hostile documents are 400 InvalidXmlDocument", () => {
  it.each([
    ["empty", ""],
    ["not xml", "not xml"],
    ["unclosed", "<a><b></b>"],
    ["mismatched", "<a></b>"],
    ["two roots", "<a/><b/>"],
    ["text after the root", "<a/>x"],
    ["a bare &", "<a>a & b</a>"],
    ["an unterminated reference", "<a>&amp</a>"],
    ["an undefined entity", "<a>&nbsp;</a>"],
    ["an inherited property as an entity", "<a>&toString;</a>"],
    ["a reference past U+10FFFF", "<a>&#x110000;</a>"],
    ["a reference to U+0000", "<a>&#0;</a>"],
    ["< in an attribute", "<a b='<'/>"],
    ["a duplicate attribute", "<a b='1' b='2'/>"],
    ["an unquoted attribute", "<a b=1/>"],
    ["an unclosed comment", "<a><!-- x</a>"],
    ["-- in a comment", "<a><!-- x -- y --></a>"],
    ["an unclosed CDATA", "<a><![CDATA[x</a>"],
    ["a declaration after content", "<a/><?xml version='1.0'?>"],
    ["a name starting with a digit", "<1a/>"],
    ["a control character", "<a>\u0001</a>"],
  ])("%s", (_label, text) => {
    expect(outcome(text)).toBe(REFUSED);
  });

  it("a DOCTYPE is refused: no declared entity is ever expanded (XXE, billion laughs)", () => {
    const laughs = `<!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from(
      { length: 9 },
      (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ""};`.repeat(10)}">`,
    ).join("")}]><lolz>&lol9;</lolz>`;
    for (const text of [
      laughs,
      '<!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>',
      '<!DOCTYPE a SYSTEM "http://127.0.0.1:1/a.dtd"><a/>',
      "<!DOCTYPE a><a/>",
    ]) {
      expect(outcome(text), text.slice(0, 40)).toBe(REFUSED);
    }
  });

  it("prototype names as elements and attributes are plain names", () => {
    const root = parseXml("<__proto__ constructor='1' __proto__='2'><constructor/></__proto__>");
    expect([root.name, root.children[0]?.name]).toEqual(["__proto__", "constructor"]);
  });

  /** Hostile bodies of about `bytes`: each parses or is refused, never throws anything else. */
  const hostile = (bytes: number): Record<string, string> => ({
    "deep nesting": "<a>".repeat(bytes / 3),
    "deep nesting, closed": nested(bytes / 7),
    "many attributes": `<a ${Array.from({ length: bytes / 12 }, (_, i) => `a${i}="x"`).join(" ")}/>`,
    "one attribute many times": `<a${" b='1'".repeat(bytes / 7)}/>`,
    "many entities": `<a>${"&amp;&#65;".repeat(bytes / 10)}</a>`,
    "many siblings": `<a>${"<b/>".repeat(bytes / 4)}</a>`,
    "an unclosed tag": `<a${" ".repeat(bytes)}`,
    "unclosed elements": `<a><b>${"x".repeat(bytes)}`,
    "an unclosed comment": `<a><!--${"-".repeat(bytes)}`,
    "a long name": `<${"a".repeat(bytes)}>`,
  });

  it("2 MiB and 8 MiB hostile bodies parse or are refused, in time that grows about linearly", () => {
    const elapsed = (bytes: number) => {
      const times: Record<string, number> = {};
      for (const [label, text] of Object.entries(hostile(bytes))) {
        const started = performance.now();
        expect(["accepted", REFUSED], label).toContain(outcome(text));
        times[label] = performance.now() - started;
      }
      return times;
    };
    elapsed(64 * 1024); // warm-up
    const small = elapsed(2 * MiB);
    const large = elapsed(8 * MiB);
    for (const label of Object.keys(small)) {
      // 4× the body: a linear parser takes about 4× as long; a quadratic one 16×. Loose on purpose
      // (a shared machine), and a floor so that sub-millisecond refusals do not count noise.
      expect(large[label]!, label).toBeLessThan(Math.max(small[label]!, 20) * 10);
    }
  });
});

describe("tablekit serve: XML bodies", () => {
  const account = { name: "xmlbodies", key: randomBytes(64).toString("base64") };
  let queueUrl: string;
  let blobUrl: string;
  let stop: () => Promise<void>;
  beforeAll(async () => {
    ({ queueUrl, blobUrl, stop } = await serveStorageAccounts([account]));
  });
  afterAll(() => stop?.());
  const queue = (r: StorageRequest) =>
    storageRequest(queueUrl, { ...r, account: account.name, signer: account.name, key: account.key });
  const blob = (r: StorageRequest) =>
    storageRequest(blobUrl, { ...r, account: account.name, signer: account.name, key: account.key });

  it("deeply nested Put Message and Put Block List bodies are 400 InvalidXmlDocument, nothing written", async () => {
    await queue({ method: "PUT", path: "deep" });
    await blob({ method: "PUT", path: "deep?restype=container" });
    for (const depth of [MAX_XML_DEPTH + 1, 100_000]) {
      const message = await queue({
        method: "POST",
        path: "deep/messages",
        body: `<QueueMessage><MessageText>${nested(depth)}</MessageText></QueueMessage>`,
      });
      expect([message.status, message.code], `${depth}`).toEqual([400, "InvalidXmlDocument"]);
      const list = await blob({
        method: "PUT",
        path: "deep/doc?comp=blocklist",
        body: `<BlockList>${nested(depth, "")}</BlockList>`,
      });
      expect([list.status, list.code], `${depth}`).toEqual([400, "InvalidXmlDocument"]);
    }
    const peek = await queue({ path: "deep/messages?peekonly=true" });
    expect(peek.text).not.toContain("<QueueMessage>");
    expect((await blob({ path: "deep/doc" })).code).toBe("BlobNotFound");
  });

  it("a DOCTYPE with an entity in Put Message is refused, not expanded", async () => {
    await queue({ method: "PUT", path: "doctype" });
    const r = await queue({
      method: "POST",
      path: "doctype/messages",
      body: '<!DOCTYPE q [<!ENTITY e "expanded">]><QueueMessage><MessageText>&e;</MessageText></QueueMessage>',
    });
    expect([r.status, r.code]).toEqual([400, "InvalidXmlDocument"]);
    expect((await queue({ path: "doctype/messages?peekonly=true" })).text).not.toContain("expanded");
  });

  it("a message with a BOM, comments, CDATA and references is stored as its text", async () => {
    await queue({ method: "PUT", path: "wellformed" });
    const sent = await queue({
      method: "POST",
      path: "wellformed/messages",
      body:
        '\uFEFF<?xml version="1.0" encoding="utf-8"?><!-- c --><QueueMessage><MessageText>' +
        "a &lt;b&gt; &amp; &#x263A;<!-- c --><![CDATA[ <c/> ]]></MessageText></QueueMessage>",
    });
    expect(sent.status).toBe(201);
    const peek = await queue({ path: "wellformed/messages?peekonly=true" });
    expect(xmlValue(peek.text, "MessageText")).toBe("a &lt;b&gt; &amp; \u263A &lt;c/&gt; ");
  });

  it("a block list with a BOM, comments, CDATA and a reference in an id commits its blocks", async () => {
    await blob({ method: "PUT", path: "lists?restype=container" });
    const id = Buffer.from("block-1").toString("base64"); // "YmxvY2stMQ=="
    const staged = await blob({
      method: "PUT",
      path: `lists/doc?comp=block&blockid=${encodeURIComponent(id)}`,
      body: "hello",
    });
    expect(staged.status).toBe(201);
    const committed = await blob({
      method: "PUT",
      path: "lists/doc?comp=blocklist",
      body: `\uFEFF<?xml version="1.0" encoding="utf-8"?>\n<!-- list -->\n<BlockList>\n  <Latest><![CDATA[${id.slice(
        0,
        4,
      )}]]>${id.slice(4, -2)}&#x3D;&#61;</Latest>\n</BlockList>\n`,
    });
    expect(committed.status).toBe(201);
    expect((await blob({ path: "lists/doc" })).text).toBe("hello");
  });
});
