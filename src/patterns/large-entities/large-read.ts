import { TableKitError } from "../../model/index.js";
import type { BlobContainer, OperationOptions } from "../../store/index.js";
import { type Manifest, sha256 } from "./large-layout.js";

/**
 * The values a manifest points at, downloaded in parallel: Strings decoded from UTF-8, Binary as
 * bytes. Each is checked against its pointer's length and SHA-256, so a blob that is not the value
 * the entity names is an error, never a wrong value. BlobNotFound when one is gone.
 */
export async function readPointers(
  container: BlobContainer,
  manifest: Manifest,
  options: OperationOptions,
): Promise<Map<string, string | Uint8Array>> {
  const read = await Promise.all(
    [...manifest].map(async ([name, pointer]) => {
      const buffer = await container
        .getBlobClient(pointer.blob)
        .downloadToBuffer(undefined, undefined, options);
      if (buffer.byteLength !== pointer.bytes || sha256(buffer) !== pointer.sha256) {
        throw new TableKitError(
          "BackendError",
          `Large entity: the blob ${pointer.blob} does not hold the value its entity points at`,
          { details: { property: name, blob: pointer.blob } },
        );
      }
      const value = pointer.type === "String" ? buffer.toString("utf8") : new Uint8Array(buffer);
      return [name, value] as const;
    }),
  );
  return new Map(read);
}
