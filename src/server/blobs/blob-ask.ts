import type { BlobOperation, BlobTarget } from "../../store/index.js";
import { PUBLIC_READS } from "../../store/index.js";
import type { StorageCaller } from "../auth/storage-access.js";
import { ProtocolError } from "../protocol/protocol-error.js";

/** The Blob routes' questions to the core (and the refusal of what is not served): a leaf module, so routes import it without a circle. */

/** A request for something the server does not serve: a clear refusal, never a wrong answer (docs/server.md). */
export function notServed(what: string): ProtocolError {
  return new ProtocolError(
    501,
    "NotImplemented",
    `tablekit serve does not serve ${what} (docs/server.md lists what it serves).`,
  );
}

/**
 * Asks the core, before the request's body or headers are read, whether the caller's token allows
 * `operation` (no I/O): a refused request is refused first, as the service does, and the port asks
 * the same `AccessPolicy` again when it is called. An anonymous caller's public reads need the
 * container's level, which the port reads: they are left to it; anything else it is refused here.
 */
export function askCore(caller: StorageCaller, operation: BlobOperation, target: BlobTarget = {}): void {
  const access = caller.store.access;
  if (!access || (access.anonymous && PUBLIC_READS[operation] !== undefined)) return;
  access.checkBlob(operation, target);
}

/** The same, for a write: `w`, or `c` alone (the port then makes the write create-only). */
export function askCoreToWrite(caller: StorageCaller, target: BlobTarget): void {
  const access = caller.store.access;
  if (access && !access.anonymous) access.blobWriteGrant(target);
  else askCore(caller, "writeBlob", target);
}
