import { TableKitError } from "../../../model/index.js";
import { toTableKitError } from "./errors.js";

/** The blob port's refusals as S3 answers need them, and failures of a body being read. */

/** The body's failures as TableKitErrors (a dropped connection mid-download is a BackendError). */
export async function* mappedErrors(
  body: AsyncIterable<Uint8Array>,
  abortSignal?: AbortSignal,
): AsyncGenerator<Uint8Array> {
  try {
    yield* body;
  } catch (err) {
    throw toTableKitError(err, { abortSignal });
  }
}

export function blobNotFound(name: string): TableKitError {
  return new TableKitError("BlobNotFound", "The specified blob does not exist.", {
    details: { blobName: name },
  });
}

export function conditionNotMet(name: string): TableKitError {
  return new TableKitError(
    "ConditionNotMet",
    "The condition specified using HTTP conditional header(s) is not met.",
    {
      details: { blobName: name },
    },
  );
}

export function invalidRange(offset: number, size: number): TableKitError {
  return new TableKitError(
    "InvalidRange",
    "The range specified is invalid for the current size of the resource.",
    {
      details: { offset, size },
    },
  );
}

export function noBlocks(): TableKitError {
  return new TableKitError(
    "NotSupported",
    "S3 keeps no block lists: upload the blob whole or with uploadStream",
  );
}
