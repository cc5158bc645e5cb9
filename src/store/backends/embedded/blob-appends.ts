import { TableKitError } from "../../../model/index.js";
import type { BackendAppend, BackendAppendResult, BackendWriteResult } from "../../blobs/blob-backend.js";
import { newEtag, propertiesOf } from "./blob-catalogue.js";
import type { EmbeddedContainerHost } from "./blob-container-host.js";
import { checkRow, lookupBlob } from "./blob-write-checks.js";

/** Append Block and Seal: each one IMMEDIATE transaction that checks the conditions and writes at the blob's end. */

export function appendBlock(
  host: EmbeddedContainerHost,
  containerName: string,
  name: string,
  append: BackendAppend,
): BackendAppendResult {
  const { catalogue, content, capabilities } = host;
  return host.immediate(() => {
    const row = checkRow(
      host,
      containerName,
      lookupBlob(host, containerName, name).row,
      name,
      append.conditions,
      "write",
    );
    if (row.type !== "AppendBlob") {
      throw new TableKitError("InvalidBlobType", "The blob type is invalid for this operation.", {
        details: { blobName: name, blobType: row.type },
      });
    }
    if (row.sealed === 1) throw blobIsSealed(name);
    const { appendPosition, maxSize } = append.conditions;
    if (appendPosition !== undefined && appendPosition !== row.length) {
      throw new TableKitError(
        "AppendPositionConditionNotMet",
        "The append position condition specified was not met.",
        {
          details: { appendPosition, length: row.length },
        },
      );
    }
    const length = row.length + append.bytes.byteLength;
    if (maxSize !== undefined && length > maxSize) {
      throw new TableKitError(
        "MaxBlobSizeConditionNotMet",
        "The max blob size condition specified was not met.",
        {
          details: { maxSize, length },
        },
      );
    }
    if (row.blocks >= capabilities.maxAppendBlocks) {
      throw new TableKitError(
        "BlockCountExceedsLimit",
        `The committed block count cannot exceed the maximum limit of ${capabilities.maxAppendBlocks} blocks.`,
      );
    }
    content.writeAt(row.content, row.length, append.bytes);
    const etag = newEtag();
    const modified = Date.now();
    catalogue.appended(row, length, etag, modified);
    return {
      etag,
      lastModified: propertiesOf({ ...row, modified }).lastModified,
      appendOffset: row.length,
      committedBlockCount: row.blocks + 1,
    };
  });
}

export function sealAppendBlob(
  host: EmbeddedContainerHost,
  containerName: string,
  name: string,
  conditions: BackendAppend["conditions"],
): BackendWriteResult {
  return host.immediate(() => {
    const { container, row: found } = lookupBlob(host, containerName, name);
    const row = checkRow(host, containerName, found, name, conditions, "write");
    if (row.type !== "AppendBlob") {
      throw new TableKitError("InvalidBlobType", "The blob type is invalid for this operation.", {
        details: { blobName: name, blobType: row.type },
      });
    }
    const position = conditions.appendPosition;
    if (position !== undefined && position !== row.length) {
      throw new TableKitError(
        "AppendPositionConditionNotMet",
        "The append position condition specified was not met.",
        {
          details: { appendPosition: position, length: row.length },
        },
      );
    }
    const etag = newEtag();
    const modified = Date.now();
    host.catalogue.sealed(container, name, etag, modified);
    return { etag, lastModified: propertiesOf({ ...row, modified }).lastModified };
  });
}

function blobIsSealed(name: string): TableKitError {
  return new TableKitError("BlobIsSealed", "The blob is sealed and its contents cannot be modified.", {
    details: { blobName: name },
  });
}
