import type { BackendFactory } from "../backend.js";
import { AzureStore } from "./azure-store.js";
import { azureCapabilities } from "./capabilities.js";
import { AzureConnection, type AzureStoreOptions } from "./connection.js";
import { loadAzureSdk } from "./sdk.js";

export { AZURITE_DIVERGENCES } from "./capabilities.js";
export type { AzureStoreOptions } from "./connection.js";

/**
 * The `azure:` backend: Azure Table Storage, Cosmos DB's Table API, or Azurite, through the
 * optional peer dependency `@azure/data-tables` (loaded here, on first use, and nowhere else).
 *
 * @example openStore("azure:DefaultEndpointsProtocol=https;AccountName=…;AccountKey=…;EndpointSuffix=core.windows.net")
 */
export const azureBackend: BackendFactory = async (location, options) => {
  const sdk = await loadAzureSdk();
  const azureOptions = options as AzureStoreOptions;
  const connection = AzureConnection.open(sdk, location, azureOptions);
  return new AzureStore(connection, azureCapabilities(options.limits, connection.emulator));
};
