/**
 * What each Queue and Blob service operation needs of a token, as the service SAS and account SAS
 * documentation lists it: the account SAS resource type (`s` service, `c` queue or container, `o`
 * message or blob) with any one of its permission letters, and the service SAS letters that grant
 * it (absent: no service SAS does). `keyOnly` operations (ACLs) need the account key: no token and
 * no bearer token grants them. The core's `AccessPolicy` reads these tables; nothing else decides.
 */
export interface StorageOperationNeeds {
  readonly account: { readonly type: "s" | "c" | "o"; readonly anyOf: string };
  readonly service?: string;
  /** Blob service SAS: the operation addresses a container (`sr=c` only), not one blob. */
  readonly containerLevel?: boolean;
  readonly keyOnly?: boolean;
}

/** Queue SAS letters: r peek and read metadata, a add, u update, p get and delete. */
export const QUEUE_OPERATIONS = {
  listQueues: { account: { type: "s", anyOf: "l" } },
  getServiceProperties: { account: { type: "s", anyOf: "r" } },
  setServiceProperties: { account: { type: "s", anyOf: "w" } },
  getServiceStats: { account: { type: "s", anyOf: "r" } },
  createQueue: { account: { type: "c", anyOf: "cw" } },
  deleteQueue: { account: { type: "c", anyOf: "d" } },
  getMetadata: { account: { type: "c", anyOf: "r" }, service: "r" },
  setMetadata: { account: { type: "c", anyOf: "w" } },
  getAcl: { account: { type: "c", anyOf: "" }, keyOnly: true },
  setAcl: { account: { type: "c", anyOf: "" }, keyOnly: true },
  sendMessage: { account: { type: "o", anyOf: "a" }, service: "a" },
  receiveMessages: { account: { type: "o", anyOf: "p" }, service: "p" },
  peekMessages: { account: { type: "o", anyOf: "r" }, service: "r" },
  deleteMessage: { account: { type: "o", anyOf: "p" }, service: "p" },
  updateMessage: { account: { type: "o", anyOf: "u" }, service: "u" },
  clearMessages: { account: { type: "o", anyOf: "d" }, service: "" },
} as const satisfies Record<string, StorageOperationNeeds>;

/**
 * Blob and container SAS letters: r read, a add, c create, w write, d delete, l list. `c` creates a
 * blob that does not exist yet and never overwrites one (`createBlob`); rewriting an existing blob,
 * its block list, metadata or properties needs `w` (`writeBlob`). No service SAS deletes or
 * creates a container.
 */
export const BLOB_OPERATIONS = {
  listContainers: { account: { type: "s", anyOf: "l" } },
  getServiceProperties: { account: { type: "s", anyOf: "r" } },
  setServiceProperties: { account: { type: "s", anyOf: "w" } },
  getServiceStats: { account: { type: "s", anyOf: "r" } },
  getAccountInfo: { account: { type: "s", anyOf: "rwdlacup" }, service: "racwdl" },
  createContainer: { account: { type: "c", anyOf: "cw" } },
  deleteContainer: { account: { type: "c", anyOf: "d" } },
  // A service SAS grants no container operation but listing: the service answers 403 to a container
  // SAS that asks for the container's properties or metadata (the service SAS documentation).
  getContainerProperties: { account: { type: "c", anyOf: "r" } },
  setContainerMetadata: { account: { type: "c", anyOf: "w" } },
  getContainerAcl: { account: { type: "c", anyOf: "" }, keyOnly: true },
  setContainerAcl: { account: { type: "c", anyOf: "" }, keyOnly: true },
  listBlobs: { account: { type: "c", anyOf: "l" }, service: "l", containerLevel: true },
  readBlob: { account: { type: "o", anyOf: "r" }, service: "r" },
  createBlob: { account: { type: "o", anyOf: "cw" }, service: "cw" },
  writeBlob: { account: { type: "o", anyOf: "w" }, service: "w" },
  appendBlock: { account: { type: "o", anyOf: "aw" }, service: "aw" },
  deleteBlob: { account: { type: "o", anyOf: "d" }, service: "d" },
  // Undelete Blob writes the blob back: the write permission (its RBAC action is blobs/write).
  undeleteBlob: { account: { type: "o", anyOf: "w" }, service: "w" },
  // Blob index tags: t reads and writes a blob's tags; f finds blobs by tags (account or container).
  readBlobTags: { account: { type: "o", anyOf: "t" }, service: "t" },
  writeBlobTags: { account: { type: "o", anyOf: "t" }, service: "t" },
  findBlobsByTags: { account: { type: "s", anyOf: "f" } },
  findBlobsByTagsInContainer: { account: { type: "c", anyOf: "f" }, service: "f", containerLevel: true },
  setBlobTier: { account: { type: "o", anyOf: "w" }, service: "w" },
} as const satisfies Record<string, StorageOperationNeeds>;

export type QueueOperation = keyof typeof QUEUE_OPERATIONS;
export type BlobOperation = keyof typeof BLOB_OPERATIONS;

/**
 * What an anonymous caller may read of a container whose public access level is `blob` (its
 * blobs) or `container` (its blobs, its properties and its listing); nothing else.
 */
export const PUBLIC_READS: Readonly<Partial<Record<BlobOperation, "blob" | "container">>> = {
  readBlob: "blob",
  getContainerProperties: "container",
  listBlobs: "container",
};
