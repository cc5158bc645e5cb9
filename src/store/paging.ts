import { createHash, hash } from "node:crypto";
import { TableKitError } from "../model/index.js";

/** One page of results, as `@azure/data-tables` returns them: an array with its continuation token. */
export type Page<T> = T[] & { continuationToken?: string };

export interface PageSettings {
  /** At most this many items in a page (the service caps it at 1,000). */
  maxPageSize?: number;
  /** Resume where a previous page ended. */
  continuationToken?: string;
}

/** An async iterable over every item, with `byPage()` for page-at-a-time access. */
export interface PagedAsyncIterableIterator<T> extends AsyncIterableIterator<T> {
  byPage(settings?: PageSettings): AsyncIterableIterator<Page<T>>;
}

/**
 * Fetches one page given a backend continuation and a page size; `after`, for a listing with
 * `nameMarkers`, when the caller's token was a name: the page starts after it.
 */
export type PageFetcher<T> = (
  maxPageSize: number,
  continuation: string | undefined,
  after?: string,
) => Promise<{ items: T[]; continuation?: string }>;

/**
 * A listing whose tokens may be names (blobs and containers on a backend with
 * capabilities.nameMarkers, as Azurite's markers are): a page ending on an item that `nameOf`
 * names gets that name as its token; a token that is not checksummed is a name, checked by `read`
 * (which throws InvalidContinuationToken), and the listing resumes after it.
 */
export interface NameMarkers<T> {
  /** The item's name when a page ending on it may resume after that name; undefined otherwise. */
  nameOf(item: T): string | undefined;
  read(token: string): string;
}

/** Tokens of this shape are tablekit's (checksummed), never names: `tk1.` older, `tk2.` current. */
const CHECKSUMMED = /^tk\d+\./;

/**
 * Tokens are `tk2.` and base64url of an 8-byte digest followed by the backend's continuation. The
 * digest is SHA-256 over the token's scope (which listing, which table, which filter) and the
 * continuation: a token used with another query, or damaged, is refused. It is a checksum, not a
 * signature (no key, so tokens survive restarts and work in other processes): docs/api.md.
 */
const TOKEN_PREFIX = "tk2.";
const DIGEST_BYTES = 8;

/**
 * What a token is bound to: entities of one table (names compare case-insensitively), the table
 * list or the queue list, and the filter text (or queue-name prefix) exactly as given (blank or
 * absent: none). Select and page size are
 * not part of it: they do not change where a token resumes.
 */
export function tokenScope(
  listing: "entities" | "tables" | "queues",
  resourceName: string,
  query: unknown,
): string {
  // A filter (or prefix) that is not a string fails when the listing starts; here it only has to not throw.
  const text = typeof query === "string" && query.trim() !== "" ? query : "";
  return `${listing}\n${String(resourceName).toLowerCase()}\n${text}`;
}

function digest(scope: string, continuation: Buffer): Buffer {
  return createHash("sha256")
    .update(scope)
    .update("\n")
    .update(continuation)
    .digest()
    .subarray(0, DIGEST_BYTES);
}

/** Wraps a backend continuation into the opaque token callers see, bound to `scope`. */
export function encodeContinuationToken(backendContinuation: string, scope: string): string {
  // Every page a caller sees makes one: the one-shot hash of the same bytes (scope, "\n", the
  // continuation's UTF-8) costs half of a Hash object's updates, and the token is written in place.
  const sum = hash("sha256", `${scope}\n${backendContinuation}`, "buffer");
  const length = Buffer.byteLength(backendContinuation, "utf8");
  const token = Buffer.allocUnsafe(DIGEST_BYTES + length);
  sum.copy(token, 0, 0, DIGEST_BYTES);
  token.write(backendContinuation, DIGEST_BYTES, length, "utf8");
  return TOKEN_PREFIX + token.toString("base64url");
}

/**
 * Unwraps a caller's token: InvalidContinuationToken unless it is well formed and its digest
 * matches `scope` and the continuation it carries.
 */
export function decodeContinuationToken(token: string, scope: string): string {
  const body = typeof token === "string" && token.startsWith(TOKEN_PREFIX) ? token.slice(4) : undefined;
  if (body === undefined || !/^[A-Za-z0-9_-]*$/.test(body)) {
    const older = typeof token === "string" && token.startsWith("tk1.");
    throw new TableKitError(
      "InvalidContinuationToken",
      older
        ? "The continuation token comes from an older tablekit; start the listing again"
        : "The continuation token is malformed",
    );
  }
  const bytes = Buffer.from(body, "base64url");
  const continuation = bytes.subarray(DIGEST_BYTES);
  if (bytes.length <= DIGEST_BYTES || !bytes.subarray(0, DIGEST_BYTES).equals(digest(scope, continuation))) {
    throw new TableKitError(
      "InvalidContinuationToken",
      "The continuation token belongs to another query (another table or filter) or was altered",
    );
  }
  return continuation.toString("utf8");
}

export interface PagingOptions<T> {
  defaultPageSize: number;
  maxPageSize: number;
  tokenScope: string;
  names?: NameMarkers<T>;
}

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/**
 * Builds the paged iterator. The page size is checked, and a continuation token decoded, on the
 * first `next()`, so a bad `maxPageSize` or token rejects there, as the SDK's iterators do.
 *
 * Written as plain iterator objects rather than async generators: an async generator left
 * suspended after its first page (a newest-10 read takes one page and drops the rest) survives
 * young-generation collections in V8, so every abandoned listing was copied and promoted, which
 * cost more than the read itself.
 */
export function pagedIterator<T>(
  fetchPage: PageFetcher<T>,
  options: PagingOptions<T>,
): PagedAsyncIterableIterator<T> {
  let source: AsyncIterableIterator<Page<T>> | undefined;
  let buffer: T[] = [];
  let index = 0;
  let done = false;
  const iterator: PagedAsyncIterableIterator<T> = {
    async next(): Promise<IteratorResult<T>> {
      while (index >= buffer.length) {
        if (done) return DONE;
        source ??= new PageIterator(fetchPage, options, {}, false);
        const page = await source.next();
        if (page.done) {
          done = true;
          return DONE;
        }
        buffer = page.value;
        index = 0;
      }
      return { done: false, value: buffer[index++]! };
    },
    async return(): Promise<IteratorResult<T>> {
      done = true;
      buffer = [];
      await source?.return?.(undefined);
      return DONE;
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
    byPage: (settings: PageSettings = {}) => new PageIterator(fetchPage, options, settings, true),
  };
  return iterator;
}

/**
 * The pages of a listing; `withTokens` false for the flat iterator, whose pages nobody sees (a
 * token is a SHA-256). A class, not closures: a listing makes one per `byPage()`.
 */
class PageIterator<T> implements AsyncIterableIterator<Page<T>> {
  private state: "start" | "more" | "last" | "done" = "start";
  private size = 0;
  private continuation: string | undefined;
  /** The name a caller's name token resumes after, for the first page only. */
  private after: string | undefined;
  /** The call in flight, so that concurrent `next()` calls take pages one after another. */
  private previous: Promise<IteratorResult<Page<T>>> | undefined;

  constructor(
    private readonly fetchPage: PageFetcher<T>,
    private readonly options: PagingOptions<T>,
    private readonly settings: PageSettings,
    private readonly withTokens: boolean,
  ) {}

  next(): Promise<IteratorResult<Page<T>>> {
    const result =
      this.previous === undefined
        ? this.step()
        : this.previous.then(
            () => this.step(),
            () => this.step(),
          );
    this.previous = result;
    return result;
  }

  async return(): Promise<IteratorResult<Page<T>>> {
    this.state = "done";
    return DONE;
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<Page<T>> {
    return this;
  }

  /** The last item's name where the listing takes names (and it cannot read as checksummed), else a checksummed token. */
  private tokenFor(items: T[], next: string): string {
    const name = items.length > 0 ? this.options.names?.nameOf(items.at(-1)!) : undefined;
    if (name !== undefined && name !== "" && !CHECKSUMMED.test(name)) return name;
    return encodeContinuationToken(next, this.options.tokenScope);
  }

  private async step(): Promise<IteratorResult<Page<T>>> {
    if (this.state === "last" || this.state === "done") {
      this.state = "done";
      return DONE;
    }
    try {
      if (this.state === "start") {
        const { settings, options } = this;
        this.size = checkPageSize(settings.maxPageSize ?? options.defaultPageSize, options.maxPageSize);
        const token = settings.continuationToken;
        if (token !== undefined && options.names !== undefined && !CHECKSUMMED.test(String(token))) {
          this.after = options.names.read(token);
        } else if (token !== undefined) {
          this.continuation = decodeContinuationToken(token, options.tokenScope);
        }
        this.state = "more";
      }
      const { after } = this;
      this.after = undefined;
      const { items, continuation: next } = await this.fetchPage(this.size, this.continuation, after);
      const page = items as Page<T>;
      if (next === undefined) this.state = "last";
      else if (this.withTokens) page.continuationToken = this.tokenFor(items, next);
      this.continuation = next;
      return { done: false, value: page };
    } catch (err) {
      this.state = "done";
      throw err;
    }
  }
}

/** A page size from 1 to `max`; anything else is InvalidInput. */
function checkPageSize(size: number, max: number): number {
  if (!Number.isInteger(size) || size < 1 || size > max) {
    throw new TableKitError("InvalidInput", `maxPageSize must be an integer from 1 to ${max}`, {
      details: { maxPageSize: size },
    });
  }
  return size;
}
