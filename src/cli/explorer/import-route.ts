/**
 * The explorer's import: an NDJSON or typed CSV file into a table, through the same code as
 * `tablekit import` (each line checked by the table, one partition per entity group transaction,
 * a bad line N stopping the import with lines 1..N-1 written).
 */
import { isTableKitError, TableKitError } from "../../model/index.js";
import type { Store } from "../../store/index.js";
import { importRecords } from "../transfer/import-records.js";
import { formatOfPath, INPUT_FORMATS, type InputFormat, inputRecords } from "../transfer/input-records.js";
import type { UploadForm } from "./upload-form.js";

/** What an import did: entities written (or checked), and the error that stopped it. */
export interface ImportOutcome {
  readonly file: string;
  readonly entities: number;
  readonly check: boolean;
  readonly error?: TableKitError;
}

/** Imports the form's `file` into `tableName` (`format`, `mode` and `check` as the CLI's options). */
export async function importUpload(
  store: Store,
  tableName: string,
  form: UploadForm,
): Promise<ImportOutcome> {
  const upload = form.file("file");
  const check = form.field("check") === "1";
  const outcome = (entities: number, error?: unknown): ImportOutcome => ({
    file: upload?.name ?? "",
    entities,
    check,
    ...(error ? { error: error as TableKitError } : {}),
  });
  let written = 0;
  try {
    if (!upload || upload.name === "") throw new TableKitError("InvalidInput", "Choose a file to import.");
    const chosen = form.field("format");
    const format: InputFormat = INPUT_FORMATS.includes(chosen as InputFormat)
      ? (chosen as InputFormat)
      : formatOfPath(upload.name);
    const mode = form.field("mode") === "merge" ? "Merge" : "Replace";
    const table = store.table(tableName);
    const count = await importRecords(inputRecords([upload.bytes], format), {
      table,
      limits: store.capabilities.limits,
      mode,
      check,
      committed: ({ entities }) => {
        written = entities;
      },
    });
    return outcome(count);
  } catch (error) {
    if (!isTableKitError(error)) throw error;
    return outcome(check ? 0 : written, error);
  }
}
