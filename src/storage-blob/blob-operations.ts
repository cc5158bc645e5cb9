import { type StoreTarget, storeFor } from "../data-tables/store-registry.js";
import { TableKitError } from "../model/errors.js";
import type { BlobClient as PortBlobClient } from "../store/blobs/blob-client.js";
import type { BlobContainer } from "../store/blobs/blob-container.js";
import type { CopySource } from "../store/blobs/blob-copy-into.js";
import { BlobLeaseClient } from "./blob-lease-client.js";
import { type BlobResponseHeaders, blobError, blobHeaders } from "./responses.js";

/** What a blob client was made from: the store target, the container and blob names, a snapshot. */
export interface BlobAddress {
  readonly target: StoreTarget;
  readonly containerName: string;
  readonly name: string;
  readonly snapshot?: string;
}

/** A port answer as the SDK returns it: objects gain the response headers, nothing becomes the headers. */
export type Answer<T> = T extends void ? BlobResponseHeaders : T & BlobResponseHeaders;

/**
 * What every `@azure/storage-blob` blob client offers, over the port's client `P`: reads, deletes,
 * properties, metadata, HTTP headers, tags, tiers, snapshots, copies and leases. Results carry the
 * SDK's response headers; errors are RestErrors with the REST operation's URL and method.
 */
export abstract class BlobOperations<P extends PortBlobClient> {
  readonly containerName: string;
  readonly name: string;
  readonly url: string;
  /** Set on a snapshot's client (`withSnapshot`). */
  readonly snapshot: string | undefined;
  protected readonly target: StoreTarget;

  /** @internal Made by a container client's `get…Client`. */
  constructor(protected readonly address: BlobAddress) {
    if (typeof address.name !== "string" || address.name === "") {
      throw new TableKitError("InvalidInput", "A blob name is required");
    }
    this.target = address.target;
    this.containerName = address.containerName;
    this.name = address.name;
    this.snapshot = address.snapshot || undefined;
    const at = this.snapshot === undefined ? "" : `?snapshot=${encodeURIComponent(this.snapshot)}`;
    this.url = `${address.target.endpoint}/${address.containerName}/${encodeURIComponent(address.name)}${at}`;
  }

  /** The port's client of this kind for the blob. */
  protected abstract open(container: BlobContainer, name: string): P;

  protected async port(): Promise<P> {
    const client = this.open((await storeFor(this.target)).container(this.containerName), this.name);
    return this.snapshot === undefined ? client : client.withSnapshot(this.snapshot);
  }

  /** Runs a port call; its error becomes the RestError the SDK throws for `method` on the URL + `query`. */
  protected async call<T>(method: string, query: string, op: (port: P) => Promise<T>): Promise<T> {
    try {
      return await op(await this.port());
    } catch (err) {
      const joined =
        query === "" ? this.url : `${this.url}${this.url.includes("?") ? "&" : "?"}${query.slice(1)}`;
      throw blobError(err, joined, method);
    }
  }

  /** A port call whose answer gains the response headers. */
  protected async respond<T>(method: string, query: string, op: (port: P) => Promise<T>): Promise<Answer<T>> {
    const result = await this.call(method, query, op);
    return (result === undefined ? blobHeaders() : { ...blobHeaders(), ...result }) as Answer<T>;
  }

  /** This client on a snapshot of the blob ("" for the base blob). */
  withSnapshot(snapshot: string): this {
    const Client = this.constructor as new (address: BlobAddress) => this;
    return new Client({ ...this.address, snapshot });
  }

  download(...args: Parameters<PortBlobClient["download"]>) {
    return this.respond("GET", "", (p: PortBlobClient) => p.download(...args));
  }

  downloadToBuffer(...args: Parameters<PortBlobClient["downloadToBuffer"]>): Promise<Buffer> {
    return this.call("GET", "", (p: PortBlobClient) => p.downloadToBuffer(...args));
  }

  getProperties(...args: Parameters<PortBlobClient["getProperties"]>) {
    return this.respond("HEAD", "", (p: PortBlobClient) => p.getProperties(...args));
  }

  exists(...args: Parameters<PortBlobClient["exists"]>): Promise<boolean> {
    return this.call("HEAD", "", (p: PortBlobClient) => p.exists(...args));
  }

  delete(...args: Parameters<PortBlobClient["delete"]>) {
    return this.respond("DELETE", "", (p: PortBlobClient) => p.delete(...args));
  }

  async deleteIfExists(
    ...args: Parameters<PortBlobClient["deleteIfExists"]>
  ): Promise<BlobResponseHeaders & { succeeded: boolean; errorCode?: string }> {
    const { succeeded } = await this.call("DELETE", "", (p: PortBlobClient) => p.deleteIfExists(...args));
    return succeeded ? { succeeded, ...blobHeaders() } : { succeeded, errorCode: "BlobNotFound" };
  }

  /** Undelete Blob (where the store keeps soft-deleted blobs: docs/blobs.md#soft-delete). */
  undelete(...args: Parameters<PortBlobClient["undelete"]>) {
    return this.respond("PUT", "?comp=undelete", (p: PortBlobClient) => p.undelete(...args));
  }

  setHTTPHeaders(...args: Parameters<PortBlobClient["setHTTPHeaders"]>) {
    return this.respond("PUT", "?comp=properties", (p: PortBlobClient) => p.setHTTPHeaders(...args));
  }

  setMetadata(...args: Parameters<PortBlobClient["setMetadata"]>) {
    return this.respond("PUT", "?comp=metadata", (p: PortBlobClient) => p.setMetadata(...args));
  }

  setTags(...args: Parameters<PortBlobClient["setTags"]>) {
    return this.respond("PUT", "?comp=tags", (p: PortBlobClient) => p.setTags(...args));
  }

  getTags(...args: Parameters<PortBlobClient["getTags"]>) {
    return this.respond("GET", "?comp=tags", (p: PortBlobClient) => p.getTags(...args));
  }

  async setAccessTier(...args: Parameters<PortBlobClient["setAccessTier"]>): Promise<BlobResponseHeaders> {
    await this.call("PUT", "?comp=tier", (p: PortBlobClient) => p.setAccessTier(...args));
    return blobHeaders();
  }

  createSnapshot(...args: Parameters<PortBlobClient["createSnapshot"]>) {
    return this.respond("PUT", "?comp=snapshot", (p: PortBlobClient) => p.createSnapshot(...args));
  }

  /** Copy Blob, done when it returns; a URL of this client's own store copies inside the store. */
  syncCopyFromURL(copySource: string, options?: Parameters<PortBlobClient["syncCopyFromURL"]>[1]) {
    return this.respond("PUT", "", async (p: PortBlobClient) =>
      p.syncCopyFromURL(await this.copySource(copySource), options),
    );
  }

  /** Copy Blob as the SDK's poller: already done when it resolves (`pollUntilDone()` answers the copy). */
  beginCopyFromURL(copySource: string, options?: Parameters<PortBlobClient["beginCopyFromURL"]>[1]) {
    return this.call("PUT", "", async (p: PortBlobClient) =>
      p.beginCopyFromURL(await this.copySource(copySource), options),
    );
  }

  abortCopyFromURL(...args: Parameters<PortBlobClient["abortCopyFromURL"]>) {
    return this.respond("PUT", "?comp=copy", (p: PortBlobClient) => p.abortCopyFromURL(...args));
  }

  getBlobLeaseClient(proposeLeaseId?: string): BlobLeaseClient {
    return new BlobLeaseClient(
      async (leaseId) => (await this.port()).getBlobLeaseClient(leaseId),
      this.url,
      proposeLeaseId,
    );
  }

  /** A URL under this store's endpoint names one of its blobs: the port copies that without fetching it. */
  private async copySource(source: string): Promise<CopySource> {
    const base = `${this.target.endpoint}/`;
    if (typeof source !== "string" || !source.startsWith(base)) return source;
    const url = new URL(source);
    const [container, ...rest] = source
      .slice(base.length)
      .replace(/[?#].*$/, "")
      .split("/");
    if (!container || rest.length === 0) return source;
    const blob = (await storeFor(this.target))
      .container(container)
      .getBlobClient(decodeURIComponent(rest.join("/")));
    const snapshot = url.searchParams.get("snapshot");
    return snapshot ? blob.withSnapshot(snapshot) : blob;
  }
}
