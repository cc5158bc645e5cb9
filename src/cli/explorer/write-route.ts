/** The explorer's writes: a typed form read into an entity, then create, replace (If-Match) or delete (If-Match). */
import type { IncomingMessage } from "node:http";
import { ERROR_STATUS, isTableKitError, TableKitError, type TypedValue } from "../../model/index.js";
import type { Table } from "../../store/index.js";
import { entityFromRow } from "../formats/entity-row.js";
import { parseValueText, requireEdmType } from "../formats/value-text.js";
import type { EntityView, PropertyField } from "./entity-page.js";

const MAX_FORM_BYTES = 4 * 1024 * 1024;

/** A url-encoded form body (at most 4 MiB). */
export async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_FORM_BYTES)
      throw new TableKitError("RequestBodyTooLarge", "The form is larger than 4 MiB.");
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

export type WriteOutcome =
  | { readonly ok: true; readonly deleted: boolean; readonly partitionKey: string; readonly rowKey: string }
  | { readonly ok: false; readonly status: number; readonly view: Omit<EntityView, "table"> };

/** Runs the form's action; a failure comes back with the form as the user sent it, and why. */
export async function writeEntity(table: Table, form: URLSearchParams): Promise<WriteOutcome> {
  const action = form.get("action") ?? "save";
  const partitionKey = form.get("pk") ?? "";
  const rowKey = form.get("rk") ?? "";
  const etag = form.get("etag") ?? undefined;
  const names = form.getAll("name");
  const types = form.getAll("type");
  const values = form.getAll("value");
  const fields: PropertyField[] = names
    .map((name, i) => ({ name, type: types[i] ?? "String", value: values[i] ?? "" }))
    .filter((f) => f.name !== "");
  try {
    if (action === "delete") {
      await table.deleteEntity(partitionKey, rowKey, etag ? { etag } : {});
      return { ok: true, deleted: true, partitionKey, rowKey };
    }
    const properties = new Map<string, TypedValue>();
    for (const f of fields) {
      if (properties.has(f.name))
        throw new TableKitError("InvalidInput", `The property '${f.name}' is given twice.`);
      properties.set(f.name, parseValueText(f.name, requireEdmType(`Edm.${f.type}`, f.name), f.value));
    }
    const entity = entityFromRow({ partitionKey, rowKey, properties });
    if (action === "create") await table.createEntity(entity);
    else await table.updateEntity(entity, "Replace", etag ? { etag } : {});
    return { ok: true, deleted: false, partitionKey, rowKey };
  } catch (err) {
    if (!isTableKitError(err)) throw err;
    const conflict = err.code === "UpdateConditionNotSatisfied";
    const message = conflict
      ? "The entity changed after you opened it: it no longer has the ETag you loaded, so nothing was written. Your edits are below; open the entity again to see the current version."
      : err.message;
    return {
      ok: false,
      status: ERROR_STATUS[err.code] ?? 400,
      view: {
        ...(action === "create" ? {} : { existing: { partitionKey, rowKey, etag: etag ?? "" } }),
        partitionKey,
        rowKey,
        properties: fields,
        error: { code: err.code, message },
      },
    };
  }
}
