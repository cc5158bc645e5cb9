/**
 * Checks of the files a command names, made before it opens a store, so a command that cannot read
 * its input or write its output fails with `FileNotAccessible` and creates nothing (not even the
 * store's database file).
 */
import { accessSync, constants, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileError } from "../model/file-error.js";

/** Throws FileNotAccessible unless `path` is a readable file. */
export function checkReadable(path: string): void {
  try {
    if (statSync(path).isDirectory()) throw Object.assign(new Error("a directory"), { code: "EISDIR" });
    accessSync(path, constants.R_OK);
  } catch (err) {
    throw fileError(err, "read", path);
  }
}

/** Throws FileNotAccessible unless `path` is a writable file, or could be created as one. */
export function checkWritable(path: string): void {
  try {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat?.isDirectory()) throw Object.assign(new Error("a directory"), { code: "EISDIR" });
    if (stat) accessSync(path, constants.W_OK);
    else {
      const dir = dirname(resolve(path));
      if (!statSync(dir).isDirectory())
        throw Object.assign(new Error("not a directory"), { code: "ENOTDIR" });
      accessSync(dir, constants.W_OK);
    }
  } catch (err) {
    throw fileError(err, "write", path);
  }
}
