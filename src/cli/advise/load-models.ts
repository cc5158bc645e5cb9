/** Models from a user's module, for `--models`. */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { TableKitError } from "../../model/index.js";
import type { Model } from "../../patterns/index.js";

// biome-ignore lint/suspicious/noExplicitAny: any model, whatever its fields.
export type AnyModel = Model<any, any, any, any, any>;

/** Every exported value of the module that is a model (duck-typed: another copy of tablekit may have made it). */
export async function loadModels(path: string): Promise<AnyModel[]> {
  let mod: Record<string, unknown>;
  try {
    mod = await import(pathToFileURL(resolve(path)).href);
  } catch (cause) {
    throw new TableKitError(
      "InvalidInput",
      `Cannot load the models module ${path}: ${(cause as Error).message}`,
      { cause },
    );
  }
  const models = Object.values(mod).filter(
    (v): v is AnyModel =>
      typeof v === "object" &&
      v !== null &&
      typeof (v as AnyModel).compiled?.partitionKey?.encode === "function",
  );
  if (models.length === 0)
    throw new TableKitError("InvalidInput", `${path} exports no model made by defineModel`);
  return models;
}
