import type { BlobContainer, BlobPart } from "../../store/index.js";
import type { StorageCaller } from "../auth/storage-access.js";
import { readBody } from "../http/read-body.js";
import { invalidXml, parseXml } from "../protocol/xml.js";
import type { HttpConditions } from "./blob-conditions.js";
import { underWriteConditions } from "./blob-conditions.js";
import { blobOptions, propertiesOrNone, refuseUnkeptHeaders, writeResult } from "./blob-routes.js";
import type { BlobContext, BlobDeps } from "./blob-service.js";
import { allowBlobWrite } from "./blob-service.js";
import { checkBlockId, invalidBlockList, type PlannedBlock } from "./block-staging.js";

/**
 * Put Block List: the chosen staged and committed blocks, in order, committed through the port
 * (which links the staged files where it can, so no byte is copied).
 */

function parseBlockList(xml: string): { id: string; list: "Committed" | "Uncommitted" | "Latest" }[] {
  const root = parseXml(xml);
  if (root.name !== "BlockList") throw invalidXml();
  return root.children.map((c) => {
    if (c.name !== "Committed" && c.name !== "Uncommitted" && c.name !== "Latest") throw invalidXml();
    return { id: checkBlockIdInList(c.text), list: c.name };
  });
}

function checkBlockIdInList(id: string): string {
  try {
    return checkBlockId(id);
  } catch {
    throw invalidBlockList();
  }
}

export async function putBlockList(
  ctx: BlobContext,
  caller: StorageCaller,
  deps: BlobDeps,
  container: BlobContainer,
  name: string,
  conditions: HttpConditions,
): Promise<void> {
  const client = container.getBlobClient(name);
  const properties = propertiesOrNone(client);
  const grant = await allowBlobWrite(
    caller,
    container.containerName,
    deps,
    ctx.account,
    async () => !!(await properties()),
  );
  refuseUnkeptHeaders(ctx);
  const requested = parseBlockList(await readBody(ctx.req, 8 * 1024 * 1024));
  const where = { account: ctx.account, container: container.containerName, blob: name };
  let blocks: PlannedBlock[] = [];
  const result = await underWriteConditions(grant, conditions, properties, async (c) => {
    // Committed blocks are ranges of the blob as it is now, pinned to its ETag.
    const current = await properties();
    const committed = deps.staging.committed(ctx.account, container.containerName, name, current?.etag);
    blocks = deps.staging.plan(where, requested, committed);
    const parts = blocks.map(
      (b): BlobPart =>
        b.source.kind === "staged"
          ? { kind: "file", path: b.source.file, size: b.size }
          : { kind: "current", offset: b.source.offset, size: b.size },
    );
    return container.getBlockBlobClient(name).commitParts(parts, {
      ...blobOptions(ctx, c),
      ...(current ? { basedOn: current.etag } : {}),
    });
  });
  deps.staging.committedAs(
    where,
    result.etag,
    blocks.map((b) => ({ id: b.id, size: b.size })),
  );
  writeResult(ctx, 201, result);
}
