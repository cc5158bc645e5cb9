import { TableKitError } from "../../model/index.js";
import type { ResourceMetadata } from "./state-backend.js";

/**
 * Metadata of a queue or container, checked once by the core: names are C# identifiers, kept in
 * the case given and compared case-insensitively (two names differing only in case are refused);
 * values printable ASCII, empty ones kept; 8 KiB of names and values in all, as the services allow.
 */

export const MAX_RESOURCE_METADATA_BYTES = 8 * 1024;

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const VALUE = /^[\x20-\x7e]*$/;

export function checkResourceMetadata(metadata: unknown): ResourceMetadata {
  if (metadata === undefined) return {};
  if (metadata === null || typeof metadata !== "object" || Array.isArray(metadata)) {
    throw new TableKitError("InvalidMetadata", "metadata must be an object of name/value strings");
  }
  const out: ResourceMetadata = {};
  const seen = new Set<string>();
  let bytes = 0;
  for (const [name, value] of Object.entries(metadata)) {
    if (!NAME.test(name)) {
      throw new TableKitError(
        "InvalidMetadata",
        `The metadata name ${JSON.stringify(name)} is not a C# identifier`,
        {
          details: { name },
        },
      );
    }
    if (typeof value !== "string" || !VALUE.test(value)) {
      throw new TableKitError("InvalidMetadata", `The metadata value of ${name} must be printable ASCII`, {
        details: { name },
      });
    }
    const key = name.toLowerCase();
    if (seen.has(key)) {
      throw new TableKitError(
        "InvalidMetadata",
        `The metadata name ${name} is given twice (names ignore case)`,
        {
          details: { name },
        },
      );
    }
    seen.add(key);
    Object.defineProperty(out, name, {
      value: value.trim(),
      enumerable: true,
      writable: true,
      configurable: true,
    });
    bytes += name.length + value.length;
  }
  if (bytes > MAX_RESOURCE_METADATA_BYTES) {
    throw new TableKitError(
      "MetadataTooLarge",
      `The metadata holds ${bytes} bytes; the most is ${MAX_RESOURCE_METADATA_BYTES}`,
      { details: { bytes, limit: MAX_RESOURCE_METADATA_BYTES } },
    );
  }
  return out;
}

/** Same names (ignoring case) with the same values: what makes Create Queue on an existing queue succeed. */
export function sameMetadata(a: Readonly<ResourceMetadata>, b: Readonly<ResourceMetadata>): boolean {
  const lower = (m: Readonly<ResourceMetadata>) =>
    new Map(Object.entries(m).map(([k, v]) => [k.toLowerCase(), v] as const));
  const x = lower(a);
  const y = lower(b);
  return x.size === y.size && [...x].every(([k, v]) => y.get(k) === v);
}

/** The resource's metadata as a plain object with own enumerable names (safe for `__proto__`-like names). */
export function copyMetadata(m: Readonly<ResourceMetadata>): ResourceMetadata {
  const out: ResourceMetadata = {};
  for (const [k, v] of Object.entries(m)) {
    Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
