import { ProtocolError } from "../protocol/protocol-error.js";

/** How much OData metadata a JSON response carries (`Accept` or `$format`). */
export type MetadataLevel = "nometadata" | "minimalmetadata" | "fullmetadata";

const ATOM = /application\/atom\+xml|application\/xml/i;

/**
 * The metadata level a request asks for: `$format` wins over `Accept`; plain `application/json`
 * and no preference mean minimal metadata; Atom is refused as the service refuses it.
 */
export function metadataLevel(format: string | null, accept: string | undefined): MetadataLevel {
  const text = format ?? accept ?? "";
  if (format === "json") return "minimalmetadata";
  const level = /odata=(nometadata|minimalmetadata|fullmetadata)/i.exec(text)?.[1]?.toLowerCase();
  if (level) return level as MetadataLevel;
  if (format !== null && format !== undefined && !/^application\/json/i.test(format)) {
    if (ATOM.test(format) || format === "atom") throw atomRefused();
    throw new ProtocolError(400, "InvalidInput", `The $format '${format}' is not supported.`);
  }
  if (ATOM.test(text) && !/application\/json|\*\/\*/i.test(text)) throw atomRefused();
  return "minimalmetadata";
}

function atomRefused(): ProtocolError {
  return new ProtocolError(415, "AtomFormatNotSupported", "Atom format is not supported.");
}

/** The Content-Type of a JSON response at a metadata level. */
export function jsonContentType(level: MetadataLevel): string {
  return `application/json;odata=${level};streaming=true;charset=utf-8`;
}
