import {
  isTableKitError,
  type NormalizedEntity,
  TableKitError,
  type TypedValue,
  typedProperties,
  typedValuesEqual,
} from "../../../model/index.js";
import type { OperationOptions, Store, UpdateMode } from "../../../store/index.js";
import type { HandlerContext, StepHandler } from "./handler.js";
import { type CheckedStep, describeStep } from "./steps.js";
import { writableEntity } from "./typed-json.js";

/** How a step ended: it wrote, or it found its effect already there (a redelivery). */
export type StepOutcome = "applied" | "already";

/** What the runner needs besides the step. */
export interface StepContext {
  readonly store: Store;
  readonly handlers: ReadonlyMap<string, StepHandler>;
  readonly call: OperationOptions;
  /** The handler context of a `call` step. */
  handlerContext(): HandlerContext;
}

/**
 * A step whose precondition failed and whose effect is not there either: retrying cannot help
 * (the entity or blob changed since the transaction was declared). The worker parks the
 * transaction in the poison queue at once. The code is the store's own (412, 409 or 404).
 */
export function isStepConflict(err: unknown): err is TableKitError {
  return isTableKitError(err) && err.details?.conflict === true;
}

function conflict(s: CheckedStep, cause: TableKitError, why: string): TableKitError {
  return new TableKitError(cause.code, `${describeStep(s)}: ${why}`, {
    cause,
    details: { conflict: true },
  });
}

/** Every property equal (Replace), or every property of the step equal (Merge). */
function holds(
  current: ReadonlyMap<string, TypedValue>,
  wanted: NormalizedEntity,
  mode: UpdateMode,
): boolean {
  if (mode === "Replace" && current.size !== wanted.properties.size) return false;
  for (const [name, tv] of wanted.properties) {
    const have = current.get(name);
    if (!have || !typedValuesEqual(have, tv)) return false;
  }
  return true;
}

/**
 * Runs one step by its kind's idempotence rule (docs/patterns/eventually-consistent-transactions.md):
 * insert-if-absent and delete-if-present count "already there"/"already gone" as done; upsert is
 * the same write again; an ETag-guarded update or blob put whose precondition fails counts as
 * done when the entity or blob already holds the step's content ("expected before OR already
 * after"), and is a conflict otherwise.
 */
export async function runStep(s: CheckedStep, ctx: StepContext): Promise<StepOutcome> {
  const { store, call } = ctx;
  switch (s.kind) {
    case "insertIfAbsent":
      try {
        await store.table(s.table).createEntity(writableEntity(s.entity), call);
        return "applied";
      } catch (err) {
        if (isTableKitError(err, "EntityAlreadyExists")) return "already";
        throw err;
      }
    case "upsert":
      await store.table(s.table).upsertEntity(writableEntity(s.entity), s.mode, call);
      return "applied";
    case "updateIfMatch": {
      const table = store.table(s.table);
      try {
        await table.updateEntity(writableEntity(s.entity), s.mode, { ...call, etag: s.etag });
        return "applied";
      } catch (err) {
        if (!isTableKitError(err, "UpdateConditionNotSatisfied", "ResourceNotFound")) throw err;
        const current = await readProperties(store, s.table, s.entity.partitionKey, s.entity.rowKey, call);
        if (current && holds(current, s.entity, s.mode)) return "already";
        throw conflict(
          s,
          err,
          current ? "the entity changed since its ETag was taken" : "the entity is gone",
        );
      }
    }
    case "deleteIfPresent":
      try {
        await store.table(s.table).deleteEntity(s.partitionKey, s.rowKey, { ...call, etag: s.etag ?? "*" });
        return "applied";
      } catch (err) {
        if (isTableKitError(err, "ResourceNotFound")) return "already";
        if (isTableKitError(err, "UpdateConditionNotSatisfied")) {
          throw conflict(s, err, "the entity changed since its ETag was taken");
        }
        throw err;
      }
    case "putBlob":
      return putBlob(s, ctx);
    case "deleteBlobIfPresent": {
      const { succeeded } = await store.container(s.container).getBlobClient(s.name).deleteIfExists(call);
      return succeeded ? "applied" : "already";
    }
    case "call": {
      const handler = ctx.handlers.get(s.handler);
      if (!handler)
        throw new TableKitError("InvalidInput", `No handler ${JSON.stringify(s.handler)} is registered`);
      await handler.run(ctx.handlerContext(), s.args);
      return "applied";
    }
  }
}

async function readProperties(
  store: Store,
  table: string,
  partitionKey: string,
  rowKey: string,
  call: OperationOptions,
): Promise<Map<string, TypedValue> | undefined> {
  try {
    return typedProperties(await store.table(table).getEntity(partitionKey, rowKey, call));
  } catch (err) {
    if (isTableKitError(err, "ResourceNotFound")) return undefined;
    throw err;
  }
}

/** The blob's bytes, or undefined when it does not exist. */
async function readBlob(store: Store, container: string, name: string, call: OperationOptions) {
  try {
    return await store.container(container).getBlobClient(name).downloadToBuffer(undefined, undefined, call);
  } catch (err) {
    if (isTableKitError(err, "BlobNotFound")) return undefined;
    throw err;
  }
}

type PutBlobStep = Extract<CheckedStep, { kind: "putBlob" }>;

/**
 * A blob put under its precondition. Where the backend cannot write conditionally
 * (`blobCapabilities.conditionalWrites` false: s3rver, S3 servers without conditional PUT) the
 * precondition is checked by a read just before an unconditional write: not atomic against a
 * writer outside the transaction between the two (documented degrade).
 */
async function putBlob(s: PutBlobStep, ctx: StepContext): Promise<StepOutcome> {
  const { store, call } = ctx;
  const client = store.container(s.container).getBlockBlobClient(s.name);
  const conditional = store.blobCapabilities?.conditionalWrites === true;
  const upload = (conditions?: { ifMatch?: string; ifNoneMatch?: "*" }) =>
    client.upload(s.data, s.data.byteLength, {
      ...call,
      ...(s.contentType === undefined ? {} : { blobHTTPHeaders: { blobContentType: s.contentType } }),
      ...(conditions ? { conditions } : {}),
    });
  const sameBytes = async () => {
    const current = await readBlob(store, s.container, s.name, call);
    return current !== undefined && Buffer.from(s.data).equals(current);
  };
  if (s.ifMatch === undefined && s.ifNoneMatch === undefined) {
    await upload();
    return "applied";
  }
  if (!conditional) {
    const exists = await client.exists(call);
    const etag = exists ? (await client.getProperties(call).catch(() => undefined))?.etag : undefined;
    const holdsNow = s.ifNoneMatch === "*" ? !exists : etag === s.ifMatch;
    if (holdsNow) {
      await upload();
      return "applied";
    }
    if (await sameBytes()) return "already";
    throw conflict(
      s,
      new TableKitError(s.ifNoneMatch ? "BlobAlreadyExists" : "ConditionNotMet", "The precondition failed"),
      s.ifNoneMatch ? "the blob exists with other content" : "the blob changed since its ETag was taken",
    );
  }
  try {
    await upload(s.ifNoneMatch ? { ifNoneMatch: "*" } : { ifMatch: s.ifMatch! });
    return "applied";
  } catch (err) {
    if (!isTableKitError(err, "BlobAlreadyExists", "ConditionNotMet")) throw err;
    if (await sameBytes()) return "already";
    throw conflict(
      s,
      err,
      s.ifNoneMatch ? "the blob exists with other content" : "the blob changed since its ETag was taken",
    );
  }
}
