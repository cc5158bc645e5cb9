import { TableKitError } from "../../model/index.js";
import type { BlobCapabilities } from "./blob-capabilities.js";

/** The block rules: block ids, block sizes, the staged count and id length per blob, block lists and the committed size. */
/** Base64 (standard alphabet, padded): what Put Block takes as a block id. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The bytes a valid block id encodes. */
export function blockIdBytes(id: string): number {
  return Buffer.from(id, "base64").length;
}

/** A block id: non-empty base64 of at most maxBlockIdBytes bytes (InvalidBlockId). */
export function checkBlockId(id: unknown, caps: BlobCapabilities): string {
  if (typeof id !== "string" || id === "" || !BASE64.test(id) || blockIdBytes(id) > caps.maxBlockIdBytes) {
    throw new TableKitError(
      "InvalidBlockId",
      `The block id ${JSON.stringify(id)} is invalid: it must be base64 of 1 to ${caps.maxBlockIdBytes} bytes`,
      { details: { blockId: id } },
    );
  }
  return id;
}

/** Refuses a block whose declared length is past maxBlockBytes, before a byte of it is read. */
export function checkBlockLength(contentLength: unknown, caps: BlobCapabilities): number | undefined {
  if (contentLength === undefined) return undefined;
  if (typeof contentLength !== "number" || !Number.isSafeInteger(contentLength) || contentLength < 0) {
    throw new TableKitError(
      "InvalidInput",
      `contentLength must be an integer >= 0, not ${String(contentLength)}`,
    );
  }
  if (contentLength > caps.maxBlockBytes) {
    throw new TableKitError(
      "RequestBodyTooLarge",
      `A block holds at most ${caps.maxBlockBytes} bytes; ${contentLength} were declared`,
      { details: { bytes: contentLength, limit: caps.maxBlockBytes } },
    );
  }
  return contentLength;
}

/**
 * The rules that depend on what is already staged, for the backend to apply atomically with the
 * write (in its transaction): every block id of a blob has one length (InvalidBlobOrBlock), and a
 * blob has at most maxUncommittedBlocks staged (BlockCountExceedsLimit; restaging an id replaces it).
 */
export function checkStagedBlock(
  id: string,
  staged: { readonly anyId: string | undefined; readonly count: number; readonly replaces: boolean },
  caps: BlobCapabilities,
): void {
  if (staged.anyId !== undefined && blockIdBytes(staged.anyId) !== blockIdBytes(id)) {
    throw new TableKitError(
      "InvalidBlobOrBlock",
      `Every block id of a blob has the same length: ${JSON.stringify(id)} is ${blockIdBytes(id)} bytes, the staged ones ${blockIdBytes(staged.anyId)}`,
      { details: { blockId: id } },
    );
  }
  if (!staged.replaces && staged.count >= caps.maxUncommittedBlocks) {
    throw new TableKitError(
      "BlockCountExceedsLimit",
      `The uncommitted block count cannot exceed the maximum limit of ${caps.maxUncommittedBlocks} blocks.`,
      { details: { limit: caps.maxUncommittedBlocks } },
    );
  }
}

/** A block list as commitBlockList takes it: ids (`latest`), or `{ id, list }`. */
export type BlockListEntry = string | { id: string; list: "committed" | "uncommitted" | "latest" };

/** Checks a block list: at most maxCommittedBlocks entries (BlockCountExceedsLimit), each a valid id and list (InvalidBlockList). */
export function checkBlockList(
  blocks: unknown,
  caps: BlobCapabilities,
): { id: string; list: "committed" | "uncommitted" | "latest" }[] {
  if (!Array.isArray(blocks)) throw invalidBlockList("commitBlockList takes an array of block ids");
  if (blocks.length > caps.maxCommittedBlocks) {
    throw new TableKitError(
      "BlockCountExceedsLimit",
      `The committed block count cannot exceed the maximum limit of ${caps.maxCommittedBlocks} blocks.`,
      { details: { count: blocks.length, limit: caps.maxCommittedBlocks } },
    );
  }
  return blocks.map((entry: unknown) => {
    const { id, list } =
      typeof entry === "string"
        ? { id: entry, list: "latest" }
        : ((entry ?? {}) as { id?: unknown; list?: unknown });
    if (list !== "committed" && list !== "uncommitted" && list !== "latest") {
      throw invalidBlockList(`A block's list is committed, uncommitted or latest, not ${String(list)}`);
    }
    try {
      return { id: checkBlockId(id, caps), list };
    } catch (err) {
      throw invalidBlockList(`The block id ${JSON.stringify(id)} is invalid`, err);
    }
  });
}

/** The blocks a list names, sized; the total against maxBlobBytes. */
export function checkCommittedSize(sizes: readonly number[], caps: BlobCapabilities): number {
  const total = sizes.reduce((sum, s) => sum + s, 0);
  if (total > caps.maxBlobBytes) {
    throw new TableKitError("RequestBodyTooLarge", `A blob holds at most ${caps.maxBlobBytes} bytes.`, {
      details: { size: total },
    });
  }
  return total;
}

export function invalidBlockList(
  message = "The specified block list is invalid.",
  cause?: unknown,
): TableKitError {
  return new TableKitError("InvalidBlockList", message, cause === undefined ? {} : { cause });
}
