import type { SignedIdentifier, TableSignedIdentifier } from "../../store/index.js";
import { child, escapeXml, invalidXml, parseXml, type XmlElement } from "./xml.js";

/**
 * Get/Set ACL bodies (`<SignedIdentifiers>`), the same XML for tables, queues and containers. The
 * server only translates: the rules (at most five, ids of 1–64 characters, each resource's
 * permission letters, valid times) are the core's (src/store/access/stored-access-policies.ts).
 */

/** The largest Set ACL or Set Service Properties body read: five policies or five CORS rules take ~2 KiB. */
export const MAX_SETTINGS_BODY_BYTES = 64 * 1024;

/**
 * `parseXml` for settings bodies: a document nested past what the parser can recurse into is the
 * service's InvalidXmlDocument, never a 500 (whatever parser xml.ts uses).
 */
export function parseSettingsXml(xml: string): XmlElement {
  try {
    return parseXml(xml);
  } catch (err) {
    if (err instanceof RangeError) throw invalidXml("The XML document is nested too deeply.");
    throw err;
  }
}

/** A policy as the XML carries it: times as text (a text that is no time is refused by the core). */
interface PolicyText {
  readonly id: string;
  readonly start?: string;
  readonly expiry?: string;
  readonly permission?: string;
}

function timeOf(text: string | undefined): Date | undefined {
  if (text === undefined) return undefined;
  // An unreadable time stays an Invalid Date: the core answers it as the service does.
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text}Z`);
}

/** Reads a Set ACL body; an empty body (or `<SignedIdentifiers/>`) is no policies. */
function parsePolicies(xml: string): PolicyText[] {
  if (xml.trim() === "") return [];
  const root = parseSettingsXml(xml);
  if (root.name !== "SignedIdentifiers") throw invalidXml();
  return root.children.map((identifier: XmlElement) => {
    if (identifier.name !== "SignedIdentifier") throw invalidXml();
    const id = child(identifier, "Id")?.text.trim();
    if (id === undefined) throw invalidXml("A SignedIdentifier has no Id.");
    const policy = child(identifier, "AccessPolicy");
    const text = (name: string) => {
      const value = policy && child(policy, name)?.text.trim();
      return value === undefined || value === "" ? undefined : value;
    };
    const start = text("Start");
    const expiry = text("Expiry");
    const permission = text("Permission");
    return {
      id,
      ...(start ? { start } : {}),
      ...(expiry ? { expiry } : {}),
      ...(permission ? { permission } : {}),
    };
  });
}

/** A Set Table ACL body as `TableClient.setAccessPolicy` takes it. */
export function parseTableAcl(xml: string): TableSignedIdentifier[] {
  return parsePolicies(xml).map((p) => ({
    id: p.id,
    accessPolicy: {
      ...(p.start ? { start: timeOf(p.start)! } : {}),
      ...(p.expiry ? { expiry: timeOf(p.expiry)! } : {}),
      ...(p.permission ? { permission: p.permission } : {}),
    },
  }));
}

/** A Set Queue ACL or Set Container ACL body as the storage SDKs' `setAccessPolicy` takes it. */
export function parseStorageAcl(xml: string): SignedIdentifier[] {
  return parsePolicies(xml).map((p) => ({
    id: p.id,
    accessPolicy: {
      ...(p.start ? { startsOn: timeOf(p.start)! } : {}),
      ...(p.expiry ? { expiresOn: timeOf(p.expiry)! } : {}),
      ...(p.permission ? { permissions: p.permission } : {}),
    },
  }));
}

/** The service's time format in ACLs: seven fractional digits. */
function aclTime(date: Date): string {
  return date.toISOString().replace(/\.(\d{3})Z$/, ".$10000Z");
}

function policiesXml(policies: readonly PolicyText[]): string {
  const one = (p: PolicyText) =>
    `<SignedIdentifier><Id>${escapeXml(p.id)}</Id><AccessPolicy>${p.start ? `<Start>${p.start}</Start>` : ""}${
      p.expiry ? `<Expiry>${p.expiry}</Expiry>` : ""
    }${p.permission ? `<Permission>${escapeXml(p.permission)}</Permission>` : ""}</AccessPolicy></SignedIdentifier>`;
  return `<?xml version="1.0" encoding="utf-8"?><SignedIdentifiers>${policies.map(one).join("")}</SignedIdentifiers>`;
}

export function tableAclXml(identifiers: readonly TableSignedIdentifier[]): string {
  return policiesXml(
    identifiers.map((i) => ({
      id: i.id,
      ...(i.accessPolicy?.start ? { start: aclTime(i.accessPolicy.start) } : {}),
      ...(i.accessPolicy?.expiry ? { expiry: aclTime(i.accessPolicy.expiry) } : {}),
      ...(i.accessPolicy?.permission ? { permission: i.accessPolicy.permission } : {}),
    })),
  );
}

export function storageAclXml(identifiers: readonly SignedIdentifier[]): string {
  return policiesXml(
    identifiers.map((i) => ({
      id: i.id,
      ...(i.accessPolicy.startsOn ? { start: aclTime(i.accessPolicy.startsOn) } : {}),
      ...(i.accessPolicy.expiresOn ? { expiry: aclTime(i.accessPolicy.expiresOn) } : {}),
      ...(i.accessPolicy.permissions ? { permission: i.accessPolicy.permissions } : {}),
    })),
  );
}
