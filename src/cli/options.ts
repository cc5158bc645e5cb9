/** Options and argument parsers shared by the commands. */
import { type Command, InvalidArgumentError, Option } from "commander";
import { DEFAULT_STORE_URL, openStore, type Store } from "../store/index.js";

/** The store URL a command uses: `--store`, else $TABLEKIT_STORE, else `file:./tablekit.db`. */
export function resolveStoreUrl(option: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return option ?? (env.TABLEKIT_STORE || DEFAULT_STORE_URL);
}

/** Adds `--store URL` to a command. */
export function withStoreOption(command: Command): Command {
  return command.option(
    "-s, --store <url>",
    `store URL: file:PATH, memory:, … (default: $TABLEKIT_STORE, else ${DEFAULT_STORE_URL})`,
  );
}

/** Opens the store named by the options, runs `fn`, and always closes it. */
export async function usingStore<T>(url: string | undefined, fn: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(resolveStoreUrl(url));
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
