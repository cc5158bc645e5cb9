import type { BackendFactory } from "../backend.js";
import { AzureQueues } from "./azure-queues.js";
import { AzureStore } from "./azure-store.js";
import { azureCapabilities, azureQueueCapabilities } from "./capabilities.js";
import { AzureConnection, type AzureStoreOptions } from "./connection.js";
import { queueTargetOf } from "./queue-connection.js";
import { loadAzureSdk } from "./sdk.js";

export { AZURITE_DIVERGENCES, AZURITE_QUEUE_DIVERGENCES } from "./capabilities.js";
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
  const queueTarget = queueTargetOf(location, azureOptions);
  const queues = queueTarget
    ? new AzureQueues(
        queueTarget,
        azureOptions,
        azureQueueCapabilities(connection.emulator),
        connection.emulator,
      )
    : undefined;
  return new AzureStore(connection, azureCapabilities(options.limits, connection.emulator), queues);
};
