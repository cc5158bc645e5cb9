import type { Backend } from "../backend.js";
import { AzureStore } from "./azure-store.js";
import { azureCapabilities } from "./capabilities.js";
import { AZURE_OPTION_KEYS, AzureConnection, type AzureStoreOptions } from "./connection.js";
import { loadAzureSdk } from "./sdk.js";

export type { AzureStoreOptions } from "./connection.js";

/**
 * The `azure:` backend: Azure Table Storage, Cosmos DB's Table API, or Azurite, through the
 * optional peer dependencies `@azure/data-tables` and `@azure/core-rest-pipeline` (loaded here, on
 * first use, and nowhere else).
 *
 * @example openStore("azure:DefaultEndpointsProtocol=https;AccountName=…;AccountKey=…;EndpointSuffix=core.windows.net")
 */
export const azureBackend: Backend<AzureStoreOptions> = {
  optionKeys: AZURE_OPTION_KEYS,
  async open(location, options) {
    const connection = AzureConnection.open(await loadAzureSdk(), location, options);
    return new AzureStore(connection, azureCapabilities(options.limits, connection.emulator));
  },
};
