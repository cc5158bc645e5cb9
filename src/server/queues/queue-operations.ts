import type { StorageOperation } from "../auth/storage-access.js";

/**
 * What each Queue service operation needs of a token: account SAS resource type and permissions,
 * queue SAS permissions (r peek and read metadata, a add, u update, p get and delete), as the
 * service SAS and account SAS documentation lists them. No token grants ACLs: only the account key
 * (`keyOnly`), not a bearer token either.
 */
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
} as const satisfies Record<string, StorageOperation>;

export type QueueOperation = keyof typeof QUEUE_OPERATIONS;
