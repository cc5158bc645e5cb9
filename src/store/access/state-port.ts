import { TableKitError } from "../../model/index.js";
import type { CallOptions } from "../call-options.js";
import {
  mergeServiceProperties,
  type ServiceProperties,
  type StorageServiceName,
  withDefaults,
} from "./service-properties.js";
import type { StateBackend } from "./state-backend.js";

/** The port's state calls, or NotSupported naming what the backend cannot keep. */
export function requireState(state: StateBackend | undefined, backend: string, what: string): StateBackend {
  if (!state) {
    throw new TableKitError(
      "NotSupported",
      `The ${backend} backend keeps no ${what} (its port has no state)`,
    );
  }
  return state;
}

/** The state calls when they include the service's properties, or NotSupported. */
export function requireServiceProperties(
  state: StateBackend | undefined,
  backend: string,
): Required<Pick<StateBackend, "getServiceProperties" | "setServiceProperties">> {
  const found = requireState(state, backend, "service properties");
  const { getServiceProperties, setServiceProperties } = found;
  if (!getServiceProperties || !setServiceProperties) {
    throw new TableKitError("NotSupported", `The ${backend} backend keeps no service properties`);
  }
  return {
    getServiceProperties: getServiceProperties.bind(found),
    setServiceProperties: setServiceProperties.bind(found),
  };
}

type PropertiesBackend = Required<Pick<StateBackend, "getServiceProperties" | "setServiceProperties">>;

export async function readServiceProperties(
  state: PropertiesBackend,
  service: StorageServiceName,
  call: CallOptions,
): Promise<ServiceProperties> {
  return withDefaults(service, await state.getServiceProperties(call));
}

/** Merges `change` over the stored properties (checked first: nothing is written when it is refused). */
export async function writeServiceProperties(
  state: PropertiesBackend,
  service: StorageServiceName,
  change: ServiceProperties,
  call: CallOptions,
): Promise<void> {
  const stored = await state.getServiceProperties(call);
  await state.setServiceProperties(mergeServiceProperties(service, stored, change), call);
}
