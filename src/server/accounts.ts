import { TableKitError } from "../model/index.js";
import { type AccountKeys, DEVELOPMENT_ACCOUNT, type Store } from "../store/index.js";

/** An account a server serves: its keys, and its own store (accounts share no tables). */
export interface ServedAccount extends AccountKeys {
  readonly store: Store;
}

/**
 * The accounts a server accepts, in Azurite's `AZURITE_ACCOUNTS` format
 * (`name1:key1:key2;name2:key1`); without it, the development account and its well-known key.
 * A key that is not base64 (Azurite's own SAS tests use `testing_key`) is accepted as Azurite and
 * the SDKs accept it: both sign with whatever bytes base64-decoding it gives, and so do we;
 * `warn` hears of each such key once.
 */
export function parseAccounts(text: string | undefined, warn?: (message: string) => void): AccountKeys[] {
  if (text === undefined || text.trim() === "") {
    return [{ name: DEVELOPMENT_ACCOUNT.name, keys: [DEVELOPMENT_ACCOUNT.key] }];
  }
  const accounts = text
    .split(";")
    .filter((entry) => entry.trim() !== "")
    .map((entry) => {
      const [name, ...keys] = entry.trim().split(":");
      if (!name || keys.length === 0 || keys.some((k) => k === "")) {
        throw new TableKitError("InvalidInput", `AZURITE_ACCOUNTS: '${entry}' is not name:key1[:key2]`);
      }
      for (const key of keys) {
        if (!/^[A-Za-z0-9+/]+={0,2}$/.test(key) || key.length % 4 !== 0) {
          warn?.(
            `AZURITE_ACCOUNTS: a key of '${name}' is not base64; requests are signed with the bytes it decodes to, as Azurite and the SDKs do`,
          );
        }
      }
      return { name, keys };
    });
  checkAccountNames(accounts);
  return accounts;
}

/**
 * Account names as the service allows them (3-24 lowercase letters and digits), each once: an
 * account's name chooses its store and its database file, so two entries must not share one.
 */
export function checkAccountNames(accounts: readonly AccountKeys[]): void {
  const seen = new Set<string>();
  for (const { name } of accounts) {
    if (!/^[a-z0-9]{3,24}$/.test(name)) {
      throw new TableKitError(
        "InvalidInput",
        `The account name '${name}' is not 3 to 24 lowercase letters and digits.`,
      );
    }
    if (seen.has(name)) throw new TableKitError("InvalidInput", `The account '${name}' is given twice.`);
    seen.add(name);
  }
}
