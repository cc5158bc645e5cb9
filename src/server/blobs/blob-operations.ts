import type { StorageOperation } from "../auth/storage-access.js";

/**
 * What each Blob service operation needs of a token: account SAS resource type and permissions;
 * blob or container SAS permissions (r read, a add, c create, w write, d delete, l list), as the
 * service SAS and account SAS documentation lists them. No token grants container ACLs or deletes;
 * container ACLs need the account key (`keyOnly`), not a bearer token either.
 * `c` creates a blob that does not exist yet and never overwrites one (`createBlob`); rewriting an
 * existing blob, its block list, metadata or properties needs `w` (`writeBlob`).
 */
export const BLOB_OPERATIONS = {
  listContainers: { account: { type: "s", anyOf: "l" } },
  getServiceProperties: { account: { type: "s", anyOf: "r" } },
  setServiceProperties: { account: { type: "s", anyOf: "w" } },
  getServiceStats: { account: { type: "s", anyOf: "r" } },
  getAccountInfo: { account: { type: "s", anyOf: "rwdlacup" }, service: "racwdl" },
  createContainer: { account: { type: "c", anyOf: "cw" } },
  deleteContainer: { account: { type: "c", anyOf: "d" } },
  getContainerProperties: { account: { type: "c", anyOf: "r" }, service: "r", containerLevel: true },
  setContainerMetadata: { account: { type: "c", anyOf: "w" } },
  getContainerAcl: { account: { type: "c", anyOf: "" }, keyOnly: true },
  setContainerAcl: { account: { type: "c", anyOf: "" }, keyOnly: true },
  listBlobs: { account: { type: "c", anyOf: "l" }, service: "l", containerLevel: true },
  readBlob: { account: { type: "o", anyOf: "r" }, service: "r" },
  createBlob: { account: { type: "o", anyOf: "cw" }, service: "cw" },
  writeBlob: { account: { type: "o", anyOf: "w" }, service: "w" },
  appendBlock: { account: { type: "o", anyOf: "aw" }, service: "aw" },
  deleteBlob: { account: { type: "o", anyOf: "d" }, service: "d" },
  // Blob index tags: t reads and writes a blob's tags; f finds blobs by tags.
  readBlobTags: { account: { type: "o", anyOf: "t" }, service: "t" },
  writeBlobTags: { account: { type: "o", anyOf: "t" }, service: "t" },
  findBlobsByTags: { account: { type: "s", anyOf: "f" } },
  findBlobsByTagsInContainer: { account: { type: "c", anyOf: "f" }, service: "f", containerLevel: true },
  setBlobTier: { account: { type: "o", anyOf: "w" }, service: "w" },
} as const satisfies Record<string, StorageOperation>;

export type BlobOperation = keyof typeof BLOB_OPERATIONS;
