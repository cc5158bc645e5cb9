import { TableKitError } from "../../model/index.js";

/**
 * A snapshot time as the Blob service writes it, `YYYY-MM-DDThh:mm:ss.fffffffZ`. A caller may give
 * fewer fractional digits (the service reads them as the same instant); anything else is the
 * service's 400 InvalidQueryParameterValue.
 */
export function checkSnapshot(snapshot: unknown): string {
  const match =
    typeof snapshot === "string"
      ? /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,7}))?Z$/.exec(snapshot)
      : null;
  if (!match || Number.isNaN(Date.parse(`${match[1]}Z`))) {
    throw new TableKitError(
      "InvalidQueryParameterValue",
      `A snapshot is a time like 2026-01-02T03:04:05.1234567Z; got ${JSON.stringify(snapshot)}`,
      { details: { queryParameterName: "snapshot" } },
    );
  }
  return `${match[1]}.${(match[2] ?? "").padEnd(7, "0")}Z`;
}

/** A write through a snapshot's client: snapshots are read-only, as the service answers. */
export function snapshotIsReadOnly(snapshot: string): TableKitError {
  return new TableKitError(
    "InvalidQueryParameterValue",
    `A snapshot (${snapshot}) is read-only: read it, copy it or delete it, never write it.`,
    { details: { queryParameterName: "snapshot", snapshot } },
  );
}

/** The snapshots capability, or NotSupported naming the backend. */
export function requireSnapshots(capabilities: { snapshots: boolean; backend: string }): void {
  if (!capabilities.snapshots) {
    throw new TableKitError("NotSupported", `${capabilities.backend} has no blob snapshots (docs/blobs.md)`);
  }
}
