import type { StoredAccessPolicy } from "../../store/index.js";
import { escapeXml, invalidXml, xmlElement } from "./xml.js";

/** The most stored access policies a table, queue or container may hold. */
const MAX_POLICIES = 5;

/** `<SignedIdentifiers>…</SignedIdentifiers>`: a resource's stored access policies, as every service writes them. */
export function accessPoliciesXml(policies: readonly StoredAccessPolicy[]): string {
  const one = (p: StoredAccessPolicy) =>
    `<SignedIdentifier><Id>${escapeXml(p.id)}</Id><AccessPolicy>${p.start ? `<Start>${p.start}</Start>` : ""}${
      p.expiry ? `<Expiry>${p.expiry}</Expiry>` : ""
    }${p.permission ? `<Permission>${p.permission}</Permission>` : ""}</AccessPolicy></SignedIdentifier>`;
  return `<?xml version="1.0" encoding="utf-8"?><SignedIdentifiers>${policies.map(one).join("")}</SignedIdentifiers>`;
}

/**
 * Reads a Set ACL body: at most five policies, ids of 1-64 characters, valid times, permission
 * letters from `letters` (the service's own: `raud` for tables, `raup` for queues, …).
 */
export function parseAccessPolicies(xml: string, letters: string): StoredAccessPolicy[] {
  if (xml.trim() === "") return [];
  const root = xmlElement(xml, "SignedIdentifiers");
  if (root === undefined) {
    if (/<SignedIdentifiers\s*\/>/.test(xml)) return [];
    throw invalidXml();
  }
  const permissionPattern = new RegExp(`^[${letters}]*$`);
  const policies: StoredAccessPolicy[] = [];
  for (const match of root.matchAll(/<SignedIdentifier>([\s\S]*?)<\/SignedIdentifier>/g)) {
    const id = xmlElement(match[1]!, "Id")?.trim();
    if (!id || id.length > 64) throw invalidXml();
    const policy = xmlElement(match[1]!, "AccessPolicy") ?? "";
    const start = xmlElement(policy, "Start")?.trim();
    const expiry = xmlElement(policy, "Expiry")?.trim();
    const permission = xmlElement(policy, "Permission")?.trim();
    if (permission !== undefined && !permissionPattern.test(permission)) throw invalidXml();
    for (const time of [start, expiry]) if (time && Number.isNaN(Date.parse(time))) throw invalidXml();
    policies.push({
      id,
      ...(start ? { start } : {}),
      ...(expiry ? { expiry } : {}),
      ...(permission ? { permission } : {}),
    });
  }
  if (policies.length > MAX_POLICIES) throw invalidXml();
  return policies;
}
