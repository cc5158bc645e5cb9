import { TableKitError } from "../model/index.js";
import { type AccountKeys, DEVELOPMENT_ACCOUNT } from "../store/index.js";

/**
 * The accounts a server accepts, in Azurite's `AZURITE_ACCOUNTS` format
 * (`name1:key1:key2;name2:key1`); without it, the development account and its well-known key.
 */
export function parseAccounts(text: string | undefined): AccountKeys[] {
  if (text === undefined || text.trim() === "") {
    return [{ name: DEVELOPMENT_ACCOUNT.name, keys: [DEVELOPMENT_ACCOUNT.key] }];
  }
  return text
    .split(";")
    .filter((entry) => entry.trim() !== "")
    .map((entry) => {
      const [name, ...keys] = entry.trim().split(":");
      if (!name || keys.length === 0 || keys.some((k) => !/^[A-Za-z0-9+/]+={0,2}$/.test(k))) {
        throw new TableKitError(
          "InvalidInput",
          `AZURITE_ACCOUNTS: '${entry}' is not name:key1[:key2] with base64 keys`,
        );
      }
      return { name, keys };
    });
}
