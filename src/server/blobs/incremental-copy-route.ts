import { TableKitError } from "../../model/index.js";
import type { BlobContainer, BlobRequestConditions } from "../../store/index.js";
import type { StorageCaller } from "../auth/storage-access.js";
import { ProtocolError } from "../protocol/protocol-error.js";
import { askCoreToWrite, notServed } from "./blob-ask.js";
import { header, writeResult } from "./blob-http.js";
import type { BlobContext } from "./blob-service.js";

/**
 * Incremental Copy Blob (`PUT ?comp=incrementalcopy`): `x-ms-copy-source` names a page blob
 * snapshot of this account. The copy runs inside the store (the port's `startCopyIncremental`);
 * a source URL with its own SAS is first read with that SAS (Get Blob Properties over HTTP), so
 * a SAS that may not read it refuses the copy, as the service requires; without one, only the
 * account key reaches the source. A source on another account or server is not served.
 */
export async function incrementalCopy(
  ctx: BlobContext,
  caller: StorageCaller,
  container: BlobContainer,
  name: string,
  conditions: BlobRequestConditions,
): Promise<void> {
  askCoreToWrite(caller, { container: container.containerName, blob: name });
  const text = header(ctx, "x-ms-copy-source");
  if (text === undefined) {
    throw new ProtocolError(
      400,
      "MissingRequiredHeader",
      "An HTTP header that's mandatory for this request is not specified: x-ms-copy-source.",
    );
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ProtocolError(
      400,
      "InvalidHeaderValue",
      "The value for the x-ms-copy-source header is not a URL.",
    );
  }
  const base = new URL(ctx.baseUrl);
  // The account's path, with its closing slash (the base URL may or may not end with one).
  const prefix = base.pathname.endsWith("/") ? base.pathname : `${base.pathname}/`;
  const [sourceContainer, ...rest] = url.pathname.slice(prefix.length).split("/");
  if (
    url.origin !== base.origin ||
    !url.pathname.startsWith(prefix) ||
    !sourceContainer ||
    rest.length === 0
  ) {
    throw notServed("Incremental Copy Blob from another account or server");
  }
  if (url.searchParams.has("sig")) {
    const answer = await fetch(url, { method: "HEAD" }).catch(() => undefined);
    if (answer?.status !== 200) {
      throw new TableKitError("CannotVerifyCopySource", "The copy source could not be read with its SAS.", {
        details: { source: true, ...(answer ? { sourceStatus: answer.status } : {}) },
      });
    }
  } else if (!caller.keyHolder) {
    throw new TableKitError("CannotVerifyCopySource", "The copy source needs a SAS of its own.", {
      details: { source: true, sourceStatus: 403 },
    });
  }
  const blobName = decodeURIComponent(rest.join("/"));
  const blob = caller.store.container(decodeURIComponent(sourceContainer)).getPageBlobClient(blobName);
  const snapshot = url.searchParams.get("snapshot");
  const source = snapshot ? blob.withSnapshot(snapshot) : blob;
  // The source as recorded: its address and snapshot, never its SAS.
  const sourceUrl = `${url.origin}${url.pathname}${snapshot ? `?snapshot=${encodeURIComponent(snapshot)}` : ""}`;
  const result = await container
    .getPageBlobClient(name)
    .startCopyIncremental(source, { conditions, sourceUrl });
  writeResult(ctx, 202, result, {
    "x-ms-copy-id": result.copyId,
    "x-ms-copy-status": result.copyStatus,
  });
}
