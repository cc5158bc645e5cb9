/** Options and argument parsers shared by the commands. */

import { existsSync } from "node:fs";
import { type Command, InvalidArgumentError, Option } from "commander";
import { fileError } from "../model/file-error.js";
import { TableKitError } from "../model/index.js";
import { parseEmbeddedLocation } from "../store/backends/embedded/connection.js";
import { openStore, type Store } from "../store/index.js";
import { terminal } from "./output/terminal.js";
import { announceStore, chooseStore, displayStoreUrl } from "./store-choice.js";

/** Where a command's store comes from without `--store` (docs/cli.md, "Which store"). */
export const STORE_DEFAULTS =
  "$TABLEKIT_STORE, $AZURE_STORAGE_CONNECTION_STRING, the AWS variables, else file:./tablekit.db";

/** The store URL a command uses (`--store` or the environment), said on stderr when not named. */
export function resolveStoreUrl(option: string | undefined): string {
  const choice = chooseStore(option);
  announceStore(choice, terminal().err);
  return choice.url;
}

/** Adds `--store URL` to a command. */
export function withStoreOption(command: Command): Command {
  return command.option(
    "-s, --store <url>",
    `store URL: file:PATH, memory:, azure:…, dynamodb:… (default: ${STORE_DEFAULTS})`,
  );
}

/**
 * Opens the store named by `--store` (or the environment: resolveStoreUrl), runs `fn`, and always
 * closes it. `readOnly`: a command that only reads opens a `file:` store only if its database
 * exists (FileNotAccessible otherwise), so a mistyped path creates no directory and no file.
 */
export async function usingStore<T>(
  url: string | undefined,
  fn: (store: Store) => Promise<T>,
  options: { readonly readOnly?: boolean } = {},
): Promise<T> {
  const resolved = resolveStoreUrl(url);
  if (options.readOnly) requireExistingFile(resolved);
  const store = await openStore(resolved);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

/** Parses a positive integer option, optionally at most `max`. */
export function positiveInt(max = Number.MAX_SAFE_INTEGER) {
  return (text: string): number => {
    if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > max) {
      throw new InvalidArgumentError(`expected an integer from 1 to ${max}`);
    }
    return Number(text);
  };
}

/** A `--select` list with the keys added: output always says which entity a row is. */
export function selectWithKeys(select: readonly string[] | undefined): string[] | undefined {
  return select ? [...new Set(["PartitionKey", "RowKey", ...select])] : undefined;
}

/** A comma-separated list of property names. */
export function nameList(text: string): string[] {
  const names = text
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  if (names.length === 0) throw new InvalidArgumentError("expected property names separated by commas");
  return names;
}

/** An option whose value must be one of `choices`. */
export function choiceOption(
  flags: string,
  description: string,
  choices: readonly string[],
  fallback?: string,
) {
  const option = new Option(flags, description).choices(choices);
  return fallback === undefined ? option : option.default(fallback);
}

/**
 * `-o, --output <format>`: how a command prints its results, the one convention of every command
 * that prints some. `jsonOption()` goes with it.
 */
export function outputOption(formats: readonly string[], fallback: string): Option {
  return choiceOption("-o, --output <format>", "output format", formats, fallback);
}

/** `--json`, accepted everywhere `-o json` is (as the Azure CLI's habit has it). */
export function jsonOption(): Option {
  return new Option("--json", "same as --output json").implies({ output: "json" });
}

/** For a `file:` URL, FileNotAccessible unless its database file exists (nothing is created). */
export function requireExistingFile(url: string): void {
  if (!url.startsWith("file:")) return;
  const { location } = parseEmbeddedLocation(url.slice("file:".length));
  if (location === "" || existsSync(location)) return;
  const err = fileError({ code: "ENOENT" }, "read the store", displayStoreUrl(url));
  throw new TableKitError(
    err.code,
    `${err.message}; a command that only reads creates no database (one that writes, such as \`tablekit tables create NAME\`, does)`,
    { details: err.details },
  );
}
