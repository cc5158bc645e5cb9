import type { BackendFactory } from "../backend.js";
import { AzureBlobService } from "./azure-blob-service.js";
import { AzureStore } from "./azure-store.js";
import { azureBlobCapabilities } from "./blob-capabilities.js";
import { blobTargetOf } from "./blob-connection.js";
import { azureCapabilities } from "./capabilities.js";
import { AzureConnection, type AzureStoreOptions } from "./connection.js";
import { loadAzureSdk } from "./sdk.js";

export type { AzureBlobOptions } from "./blob-connection.js";
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
  const store = new AzureStore(connection, azureCapabilities(options.limits, connection.emulator));
  // The blob port, when the settings name a Blob service (docs/blobs.md).
  const credential =
    azureOptions.credential ??
    (azureOptions.sasToken ? new sdk.AzureSASCredential(azureOptions.sasToken) : undefined);
  const blobTarget = blobTargetOf(location.trim(), azureOptions, credential);
  if (!blobTarget) return store;
  return Object.assign(store, {
    blobs: new AzureBlobService(
      blobTarget,
      azureBlobCapabilities(connection.emulator),
      azureOptions.clientOptions ?? {},
    ),
  });
};
