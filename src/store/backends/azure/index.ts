import type { Backend } from "../../backend.js";
import { AzureContainers } from "./azure-containers.js";
import { AzureQueues } from "./azure-queues.js";
import { AzureStore } from "./azure-store.js";
import { azureBlobCapabilities } from "./blob-capabilities.js";
import { blobTargetOf } from "./blob-connection.js";
import { AZURE_OPTION_KEYS, AzureConnection, type AzureStoreOptions } from "./connection.js";
import { azureQueueCapabilities } from "./queue-capabilities.js";
import { queueTargetOf } from "./queue-connection.js";
import { azureCapabilities } from "./table-capabilities.js";
import { loadAzureSdk } from "./table-sdk.js";

export type { AzureStoreOptions } from "./connection.js";

/**
 * The `azure:` backend: Azure Table Storage, Cosmos DB's Table API, or Azurite, through the
 * optional peer dependencies `@azure/data-tables` and `@azure/core-rest-pipeline` (loaded here, on
 * first use, and nowhere else); its Queue service through `@azure/storage-queue`, loaded on the
 * first queue call.
 *
 * @example openStore("azure:DefaultEndpointsProtocol=https;AccountName=…;AccountKey=…;EndpointSuffix=core.windows.net")
 */
export const azureBackend: Backend<AzureStoreOptions> = {
  optionKeys: AZURE_OPTION_KEYS,
  async open(location, options) {
    const sdk = await loadAzureSdk();
    const connection = AzureConnection.open(sdk, location, options);
    const queueTarget = queueTargetOf(location, options);
    const queues = queueTarget
      ? new AzureQueues(
          queueTarget,
          options,
          azureQueueCapabilities(connection.emulator),
          connection.emulator,
        )
      : undefined;
    // The blob port, when the settings name a Blob service (docs/blobs.md); its SDK loads on first use.
    const credential =
      options.credential ??
      (options.sasToken ? new sdk.tables.AzureSASCredential(options.sasToken) : undefined);
    const blobTarget = blobTargetOf(location.trim(), options, credential);
    const blobs = blobTarget
      ? new AzureContainers(
          blobTarget,
          azureBlobCapabilities(connection.emulator),
          options.clientOptions ?? {},
        )
      : undefined;
    return new AzureStore(connection, azureCapabilities(options.limits, connection.emulator), {
      ...(queues ? { queues } : {}),
      ...(blobs ? { blobs } : {}),
    });
  },
};
