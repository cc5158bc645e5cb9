import type { BlobClient } from "../../store/index.js";
import type { StorageCaller } from "../auth/storage-access.js";
import { send } from "../http/responses.js";
import { httpDate } from "../protocol/xml.js";
import { askCore } from "./blob-ask.js";
import type { BlobContext } from "./blob-service.js";

/**
 * Soft delete over HTTP: Undelete Blob (`PUT ?comp=undelete`, 200) and the listing's fields of a
 * soft-deleted item. Whether deletes are soft is the store's (the delete retention policy of the
 * service properties); the port does the rest (docs/blobs.md#soft-delete).
 */
export async function undeleteBlob(
  ctx: BlobContext,
  caller: StorageCaller,
  client: BlobClient,
): Promise<void> {
  askCore(caller, "undeleteBlob", { container: client.containerName, blob: client.name });
  await client.undelete();
  send(ctx, 200, {});
}

/** `<Deleted>true</Deleted>`, after the name and snapshot, on a soft-deleted item. */
export function deletedXml(item: { readonly deleted?: true }): string {
  return item.deleted ? "<Deleted>true</Deleted>" : "";
}

/** DeletedTime and RemainingRetentionDays, among a soft-deleted item's properties (before TagCount). */
export function deletionPropertiesXml(p: { deletedOn?: Date; remainingRetentionDays?: number }): string {
  if (p.deletedOn === undefined) return "";
  return `<DeletedTime>${httpDate(p.deletedOn)}</DeletedTime><RemainingRetentionDays>${
    p.remainingRetentionDays ?? 0
  }</RemainingRetentionDays>`;
}
