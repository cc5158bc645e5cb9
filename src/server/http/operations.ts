import type { RequestContext } from "./request-context.js";

/**
 * The route recipe of the Table, Queue and Blob services: each service is a list of operations, one entry
 * per operation of the REST reference, each declaring the request it answers (method, resource
 * kind, `comp`, `restype`), what the core must allow (`needs`: the operation's name in
 * src/store/access/storage-operations.ts; for tables, the `AccessOperation` of access-policy.ts),
 * and its handler. One dispatcher matches them; what no entry matches is answered by the service's
 * own `unmatched` (its codes for unknown operations).
 */
export interface Operation<C extends RequestContext, K extends string, N extends string, A, D> {
  /** The operation's name in the REST reference (Put Blob, Get Messages, …). */
  readonly name: string;
  /** The HTTP methods it answers; `"*"`: any (an entry that answers every verb with the service's own codes). */
  readonly methods: readonly string[] | "*";
  /** The resource kind the path names (the service's own parser gives it). */
  readonly resource: K;
  /** The `comp` parameter it carries; absent: none; `"*"`: any (the message operations ignore it). */
  readonly comp?: string;
  /** The `restype` parameter it carries, where the service tells operations apart by it. */
  readonly restype?: string;
  /** A further test on the request (Peek Messages: `peekonly=true`). */
  readonly when?: (ctx: C) => boolean;
  /** What the request's token must allow, asked of the core before the handler reads anything. */
  readonly needs?: N;
  /** Runs the operation: `caller` is who asks (their scoped store), `deps` the service's own. */
  readonly handle: (ctx: C, caller: A, deps: D) => Promise<void>;
}

/**
 * The operation a request asks for: the first entry whose method, resource, comp, restype and test
 * match. `comp` is the request's, unless the service reads it otherwise (Blob: an empty one is none).
 */
export function matchOperation<
  C extends RequestContext,
  K extends string,
  O extends Operation<C, K, string, never, never>,
>(
  operations: readonly O[],
  ctx: C,
  resource: K,
  comp: string | undefined = ctx.query.get("comp") ?? undefined,
): O | undefined {
  for (const op of operations) {
    if (op.resource !== resource || (op.methods !== "*" && !op.methods.includes(ctx.method))) continue;
    if (op.comp !== "*" && op.comp !== comp) continue;
    if (op.restype !== undefined && ctx.query.get("restype") !== op.restype) continue;
    if (op.when && !op.when(ctx)) continue;
    return op;
  }
  return undefined;
}
