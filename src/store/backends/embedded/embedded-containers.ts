import { closeSync, fdatasyncSync, openSync } from "node:fs";
import { TableKitError } from "../../../model/index.js";
import type { InitialResourceState } from "../../access/state-backend.js";
import type {
  BackendTagQuery,
  BlobServiceBackend,
  ContainerBackend,
  StoredContainer,
  StoredTaggedBlob,
} from "../../blobs/blob-backend.js";
import type { BlobCapabilities } from "../../blobs/blob-capabilities.js";
import { checkLease } from "../../blobs/blob-leases.js";
import type { CallOptions } from "../../call-options.js";
import { EmbeddedBlobCatalogue, newEtag } from "./blob-catalogue.js";
import type { EmbeddedContainerHost } from "./blob-container-host.js";
import { type EmbeddedBlobContent, EmbeddedFileContent, EmbeddedMemoryContent } from "./blob-content.js";
import { contentIds } from "./blob-extents.js";
import type { Db } from "./connection.js";
import { EmbeddedContainer } from "./embedded-container.js";
import { toTableKitError } from "./errors.js";
import { EmbeddedResourceState } from "./resource-state.js";
import type { SqliteStatement, SqliteTransaction } from "./sqlite-database.js";

/** How long a blob file must have been left untouched before a sweep may remove it as an orphan. */
export const ORPHAN_GRACE_MS = 15 * 60 * 1000;

/** One content store per in-memory database, so `memory:NAME` stores of a process share blobs. */
const memoryContent = new WeakMap<Db, EmbeddedMemoryContent>();

/**
 * The blob port of an embedded store, in the same database as its tables: rows in SQLite, bytes
 * in files beside the database (`<file>.blobs/`), or in process memory for `memory:` stores.
 * docs/blobs.md explains the choice.
 */
export class EmbeddedContainers implements EmbeddedContainerHost, BlobServiceBackend {
  private catalogueOnce?: EmbeddedBlobCatalogue;
  readonly content: EmbeddedBlobContent;
  private readonly transaction: SqliteTransaction<[work: () => unknown], unknown>;
  /** Container metadata, public access, stored access policies and the Blob service's properties. */
  readonly state: EmbeddedResourceState;

  constructor(
    private readonly db: Db,
    readonly capabilities: BlobCapabilities,
  ) {
    if (db.memory) {
      const shared = memoryContent.get(db) ?? new EmbeddedMemoryContent();
      memoryContent.set(db, shared);
      this.content = shared;
    } else {
      this.content = new EmbeddedFileContent(`${db.name}.blobs`);
    }
    this.transaction = db.transaction((work: () => unknown) => work());
    // Prepared on first use: the blob tables are created with the catalogue, on first use too.
    let touch: SqliteStatement<[string, number, string]> | undefined;
    this.state = new EmbeddedResourceState(db, {
      port: "blob",
      key: (name) => name,
      exists: (name) => this.catalogue.containerId(name) !== undefined,
      notFound: containerNotFound,
      write: async (_call, work) => this.immediate(work),
      read: async (_call, work) => this.read(work),
      changed: (name) => {
        touch ??= db.prepare<[string, number, string]>(
          "UPDATE tk_containers SET etag = ?, modified = ? WHERE name = ?",
        );
        touch.run(newEtag(), Date.now(), name);
      },
    });
  }

  /** The blob tables, created on first use (when files no row names are swept, once per process). */
  get catalogue(): EmbeddedBlobCatalogue {
    if (!this.catalogueOnce) {
      this.catalogueOnce = this.guard(() => new EmbeddedBlobCatalogue(this.db, this.content));
      this.sweepOrphans(this.catalogueOnce);
    }
    return this.catalogueOnce;
  }

  /**
   * Removes the files a crash left behind: written or linked, but named by no row. Under the write
   * lock, and only files untouched for ORPHAN_GRACE_MS: a writer still streaming one keeps it fresh,
   * and checks it is still there under the same lock before its row names it.
   */
  private sweepOrphans(catalogue: EmbeddedBlobCatalogue): void {
    const { content } = this;
    if (!content.sweep) return;
    try {
      this.immediate(() => {
        const named = new Set(catalogue.allContents().flatMap(contentIds));
        content.sweep!(named, ORPHAN_GRACE_MS);
      });
    } catch {
      // Orphans cost disk space only: the next process sweeps them.
    }
  }

  /** The container and its initial state in one transaction (a deleted container's state never lingers). */
  async createContainer(name: string, _call: CallOptions, initial?: InitialResourceState): Promise<void> {
    const created = this.immediate(() => {
      if (!this.catalogue.insertContainer(name)) return false;
      this.state.init(name, initial);
      return true;
    });
    if (!created) {
      throw new TableKitError("ContainerAlreadyExists", "The specified container already exists.", {
        details: { containerName: name },
      });
    }
  }

  async deleteContainer(name: string, _call: CallOptions, leaseId?: string): Promise<void> {
    const contents = this.immediate(() => {
      const found = this.catalogue.containerLease(name);
      if (found === undefined) throw containerNotFound(name);
      checkLease(found.lease, leaseId, "write", Date.now(), "Container");
      const id = found.id;
      this.state.drop(name);
      return this.catalogue.deleteContainer(id);
    });
    this.removeContent(...contents);
  }

  async listContainers(
    query: { prefix: string; maxPageSize: number; continuation?: string; after?: string },
    _call: CallOptions,
  ): Promise<{ items: StoredContainer[]; continuation?: string }> {
    const rows = this.read(() =>
      this.catalogue
        .containers(query.prefix, query.after ?? query.continuation ?? "", query.maxPageSize + 1)
        .filter((c) => c.name.startsWith(query.prefix))
        .map((c) => this.withState(c)),
    );
    if (rows.length <= query.maxPageSize) return { items: rows };
    const items = rows.slice(0, query.maxPageSize);
    return { items, continuation: items.at(-1)!.name };
  }

  /** A container's row with its metadata and public access; call inside a transaction. */
  withState(container: StoredContainer): StoredContainer {
    const { metadata, publicAccess } = this.state.peek(container.name);
    return { ...container, metadata, ...(publicAccess ? { publicAccess } : {}) };
  }

  container(name: string): ContainerBackend {
    return new EmbeddedContainer(this, name);
  }

  /** One read of the tag index (blob-annotations.ts); the continuation is the last blob's container and name. */
  async findBlobsByTags(
    request: BackendTagQuery,
    _call: CallOptions,
  ): Promise<{ items: StoredTaggedBlob[]; continuation?: string }> {
    const c = request.continuation;
    const cut = c === undefined ? -1 : c.indexOf("\n");
    if (c !== undefined && cut < 0) {
      throw new TableKitError(
        "InvalidContinuationToken",
        "The continuation of a tag search is not one it gave",
      );
    }
    const after = c === undefined ? undefined : { container: c.slice(0, cut), blob: c.slice(cut + 1) };
    const rows = this.read(() =>
      this.catalogue.annotations.find(request.query, after, request.maxPageSize + 1),
    );
    if (rows.length <= request.maxPageSize) return { items: rows };
    const items = rows.slice(0, request.maxPageSize);
    const last = items.at(-1)!;
    return { items, continuation: `${last.containerName}\n${last.name}` };
  }

  /** Runs `work` holding the write lock (IMMEDIATE), turning SQLite's errors into TableKitErrors. */
  immediate<T>(work: () => T): T {
    // Content soft-delete sweeps freed is removed once the outermost transaction has committed.
    const outermost = this.depth === 0;
    let result: T;
    this.depth++;
    try {
      result = this.guard(() => this.transaction.immediate(work) as T);
    } catch (err) {
      if (outermost) this.catalogueOnce?.softDeletes.takeFreed(); // rolled back: rows still name it
      throw err;
    } finally {
      this.depth--;
    }
    const freed = outermost ? this.catalogueOnce?.softDeletes.takeFreed() : undefined;
    if (freed?.length) this.removeContent(...freed);
    return result;
  }

  /** How many `immediate` calls are under way (a nested one is a savepoint of the outermost). */
  private depth = 0;

  /** Runs `work` in one read transaction: a consistent snapshot. */
  read<T>(work: () => T): T {
    return this.guard(() => this.transaction.deferred(work) as T);
  }

  guard<T>(work: () => T): T {
    try {
      return work();
    } catch (err) {
      throw toTableKitError(err);
    }
  }

  /**
   * The files of content no row names any more; a failure leaves an orphan, never a wrong blob.
   * The commit that stopped naming them is made durable first: under `synchronous = NORMAL` a power
   * loss can undo the last commits, and an undone commit must find its files still there.
   */
  removeContent(...contents: string[]): void {
    const ids = contents.flatMap((content) => contentIds(content));
    if (ids.length === 0 || !this.syncCommits()) return;
    for (const id of ids) {
      try {
        this.content.remove(id);
      } catch {
        // An orphan file costs disk space only; the blob itself is already gone or replaced.
      }
    }
  }

  /**
   * Flushes the write-ahead log, where the last commits wait for the next checkpoint to be synced.
   * SQLite takes no lock on the -wal file, so opening and closing it here releases none of its locks.
   * False when it could not: the files then stay, orphans for a later sweep.
   */
  private syncCommits(): boolean {
    if (this.db.memory) return true;
    let fd: number;
    try {
      fd = openSync(`${this.db.name}-wal`, "r");
    } catch (err) {
      // No log: every commit went through a checkpoint, which synced the database file.
      return (err as NodeJS.ErrnoException).code === "ENOENT";
    }
    try {
      fdatasyncSync(fd);
      return true;
    } catch {
      return false;
    } finally {
      closeSync(fd);
    }
  }
}

function containerNotFound(name: string): TableKitError {
  return new TableKitError("ContainerNotFound", "The specified container does not exist.", {
    details: { containerName: name },
  });
}
