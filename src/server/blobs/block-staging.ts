import { createHash, randomBytes } from "node:crypto";
import {
  createWriteStream,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { ProtocolError } from "../protocol/protocol-error.js";
import type { ListedBlock } from "./blob-xml.js";

/**
 * Put Block and Put Block List: blocks staged by Put Block wait here, as durable files (a block may
 * be 4000 MiB), until Put Block List commits the chosen ones, in order, through the port's
 * `commitParts` (the embedded store links the files into the blob: no copy). The committed block
 * list of a blob is kept beside them with the ETag it produced: a blob replaced another way (Put
 * Blob) has no committed blocks.
 */

/** The service's limits: 50,000 committed blocks, 100,000 uncommitted, 4000 MiB a block, 64-byte ids. */
export const MAX_COMMITTED_BLOCKS = 50_000;
export const MAX_UNCOMMITTED_BLOCKS = 100_000;
export const MAX_BLOCK_BYTES = 4000 * 1024 * 1024;
const MAX_BLOCK_ID_BYTES = 64;

interface StagedBlock {
  readonly file: string;
  readonly size: number;
}

/** A committed block list, valid while the blob still has `etag`. */
interface CommittedList {
  readonly etag: string;
  readonly blocks: readonly ListedBlock[];
}

export function invalidBlockId(): ProtocolError {
  return new ProtocolError(
    400,
    "InvalidBlockId",
    "The specified block ID is invalid. The block ID must be Base64-encoded.",
  );
}

export function invalidBlockList(detail = "The specified block list is invalid."): ProtocolError {
  return new ProtocolError(400, "InvalidBlockList", detail);
}

/** Checks a block id: base64 of at most 64 bytes. */
export function checkBlockId(id: string | null): string {
  if (id === null || id === "" || !/^[A-Za-z0-9+/]*={0,2}$/.test(id) || id.length % 4 !== 0)
    throw invalidBlockId();
  if (Buffer.from(id, "base64").length > MAX_BLOCK_ID_BYTES) throw invalidBlockId();
  return id;
}

export class BlockStaging {
  private readonly dir: string;
  /** This server's own staged blocks: `staged/<pid>-<random>`, so another server on the location keeps its own. */
  private readonly stagedDir: string;
  private readonly staged = new Map<string, Map<string, StagedBlock>>();
  private counter = 0;

  /** `location`: the server's directory (committed lists survive restarts); absent: a temporary one. */
  constructor(location: string | undefined) {
    this.dir = location ? join(location, "tablekit-blocks") : mkdtempSync(join(tmpdir(), "tablekit-blocks-"));
    // Staged blocks live as long as their server: those of one that stopped without closing are unreachable.
    clearOrphanedStaging(join(this.dir, "staged"));
    this.stagedDir = join(this.dir, "staged", `${process.pid}-${randomBytes(4).toString("hex")}`);
    mkdirSync(this.stagedDir, { recursive: true });
    mkdirSync(join(this.dir, "committed"), { recursive: true });
    this.temporary = location === undefined;
  }

  private readonly temporary: boolean;

  private key(account: string, container: string, blob: string): string {
    return createHash("sha256").update(`${account}\n${container}\n${blob}`).digest("hex");
  }

  /** Stages a block from a request body (replacing a staged block of the same id). */
  async stage(
    blob: { account: string; container: string; blob: string },
    id: string,
    body: AsyncIterable<Buffer>,
  ): Promise<void> {
    const key = this.key(blob.account, blob.container, blob.blob);
    // Registered before the first await: concurrent Put Blocks of one blob share the map.
    const blocks = this.staged.get(key) ?? new Map<string, StagedBlock>();
    this.staged.set(key, blocks);
    // "For a given blob, all block IDs must be the same length" (Put Block): among the uncommitted ones.
    const sameLength = Buffer.from(id, "base64").length;
    for (const other of blocks.keys()) {
      if (Buffer.from(other, "base64").length !== sameLength) {
        throw new ProtocolError(400, "InvalidBlobOrBlock", "The specified blob or block content is invalid.");
      }
      break;
    }
    if (!blocks.has(id) && blocks.size >= MAX_UNCOMMITTED_BLOCKS) {
      throw new ProtocolError(
        409,
        "BlockCountExceedsLimit",
        "The uncommitted block count cannot exceed the maximum limit of 100,000 blocks.",
      );
    }
    const file = join(this.stagedDir, `${key}-${this.counter++}`);
    let size = 0;
    async function* counted(): AsyncGenerator<Buffer> {
      for await (const chunk of body) {
        size += chunk.length;
        if (size > MAX_BLOCK_BYTES) {
          throw new ProtocolError(413, "RequestBodyTooLarge", "The block is larger than 4000 MiB.");
        }
        yield chunk;
      }
    }
    try {
      await pipeline(counted(), createWriteStream(file));
      // Durable now, so Put Block List commits by linking it and syncs only the small row.
      const handle = await open(file, "r+");
      try {
        await handle.datasync();
      } finally {
        await handle.close();
      }
    } catch (err) {
      rmSync(file, { force: true });
      throw err;
    }
    const previous = blocks.get(id);
    if (previous) rmSync(previous.file, { force: true });
    blocks.set(id, { file, size });
  }

  /** The uncommitted blocks of a blob, in the order they were staged. */
  uncommitted(account: string, container: string, blob: string): ListedBlock[] {
    const blocks = this.staged.get(this.key(account, container, blob));
    return blocks ? [...blocks].map(([id, b]) => ({ id, size: b.size })) : [];
  }

  /** The committed blocks of a blob whose ETag is `etag` (none when it was written another way). */
  committed(account: string, container: string, blob: string, etag: string | undefined): ListedBlock[] {
    if (etag === undefined) return [];
    try {
      const list = JSON.parse(
        readFileSync(join(this.dir, "committed", `${this.key(account, container, blob)}.json`), "utf8"),
      ) as CommittedList;
      return list.etag === etag ? [...list.blocks] : [];
    } catch {
      return [];
    }
  }

  /**
   * Plans a commit: each requested block from the uncommitted blocks (`Uncommitted`, or `Latest`
   * first) or the committed list (`Committed`, or `Latest` when none is staged). InvalidBlockList
   * names a block that is not there.
   */
  plan(
    blob: { account: string; container: string; blob: string },
    requested: readonly { readonly id: string; readonly list: "Committed" | "Uncommitted" | "Latest" }[],
    committed: readonly ListedBlock[],
  ): PlannedBlock[] {
    if (requested.length > MAX_COMMITTED_BLOCKS) {
      throw invalidBlockList(`A block list holds at most ${MAX_COMMITTED_BLOCKS} blocks.`);
    }
    const staged = this.staged.get(this.key(blob.account, blob.container, blob.blob)) ?? new Map();
    const offsets = new Map<string, { offset: number; size: number }>();
    let at = 0;
    for (const b of committed) {
      offsets.set(b.id, { offset: at, size: b.size });
      at += b.size;
    }
    return requested.map(({ id, list }) => {
      const fromStaged = staged.get(id);
      const fromCommitted = offsets.get(id);
      if ((list === "Uncommitted" || list === "Latest") && fromStaged) {
        return { id, size: fromStaged.size, source: { kind: "staged", file: fromStaged.file } };
      }
      if ((list === "Committed" || list === "Latest") && fromCommitted) {
        return { id, size: fromCommitted.size, source: { kind: "committed", offset: fromCommitted.offset } };
      }
      throw invalidBlockList();
    });
  }

  /** After a commit: the new committed list, the staged blocks of the blob discarded. */
  committedAs(
    blob: { account: string; container: string; blob: string },
    etag: string,
    blocks: readonly ListedBlock[],
  ): void {
    const key = this.key(blob.account, blob.container, blob.blob);
    const file = join(this.dir, "committed", `${key}.json`);
    writeFileSync(`${file}.tmp`, JSON.stringify({ etag, blocks } satisfies CommittedList));
    renameSync(`${file}.tmp`, file);
    this.discard(blob);
  }

  /** Forgets a blob's staged blocks (after a commit, or when the blob is deleted). */
  discard(blob: { account: string; container: string; blob: string }): void {
    if (this.staged.size === 0) return; // the common case, without hashing the name
    const key = this.key(blob.account, blob.container, blob.blob);
    for (const b of this.staged.get(key)?.values() ?? []) rmSync(b.file, { force: true });
    this.staged.delete(key);
  }

  close(): void {
    if (this.temporary) rmSync(this.dir, { recursive: true, force: true });
    else rmSync(this.stagedDir, { recursive: true, force: true });
  }
}

/** Removes what `staged/` holds of servers whose process is gone (and anything else in it). */
function clearOrphanedStaging(staged: string): void {
  let entries: string[];
  try {
    entries = readdirSync(staged);
  } catch {
    return; // nothing staged yet
  }
  for (const entry of entries) {
    const pid = /^(\d+)-[0-9a-f]+$/.exec(entry)?.[1];
    if (pid !== undefined && processAlive(Number(pid))) continue;
    rmSync(join(staged, entry), { recursive: true, force: true });
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0); // signal 0: only asks whether the process exists
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM"; // exists, owned by someone else
  }
}

export interface PlannedBlock {
  readonly id: string;
  readonly size: number;
  readonly source:
    | { readonly kind: "staged"; readonly file: string }
    | { readonly kind: "committed"; readonly offset: number };
}
