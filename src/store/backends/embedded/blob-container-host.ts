import type { StoredContainer } from "../../blobs/blob-backend.js";
import type { BlobCapabilities } from "../../blobs/blob-capabilities.js";
import type { EmbeddedBlobCatalogue } from "./blob-catalogue.js";
import type { EmbeddedBlobContent } from "./blob-content.js";

/** What a container needs of its store's containers (EmbeddedContainers); declared here so neither file imports the other. */
export interface EmbeddedContainerHost {
  readonly capabilities: BlobCapabilities;
  readonly catalogue: EmbeddedBlobCatalogue;
  readonly content: EmbeddedBlobContent;
  immediate<T>(work: () => T): T;
  read<T>(work: () => T): T;
  guard<T>(work: () => T): T;
  /** A container's row with its metadata and public access; call inside a transaction. */
  withState(container: StoredContainer): StoredContainer;
  /** Removes the files of rows' content (once no row names it). */
  removeContent(...contents: string[]): void;
}
