import { TableKitError, tableNotFound } from "../../../model/index.js";
import type {
  ResourceStateChange,
  StateBackend,
  StatePart,
  StoredResourceState,
  StoredServiceProperties,
} from "../../access/state-backend.js";
import type { CallOptions } from "../../call-options.js";
import type { AzureConnection } from "./connection.js";
import { codeFor, toTableKitError } from "./errors.js";
import {
  sdkServiceProperties,
  storedPolicies,
  storedServiceProperties,
  tableSdkIdentifiers,
} from "./state-codec.js";

/** A RestError of `@azure/data-tables` as a TableKitError with the service's code; a 404 names the table. */
async function tableSdkCall<T>(
  call: CallOptions,
  table: string | undefined,
  work: (o: { abortSignal?: AbortSignal }) => Promise<T>,
): Promise<T> {
  try {
    return await work(call.abortSignal ? { abortSignal: call.abortSignal } : {});
  } catch (err) {
    const e = err as { statusCode?: number; code?: string; message?: string };
    if (typeof e?.statusCode !== "number") throw toTableKitError(err, call.abortSignal);
    if (e.statusCode === 404 && table !== undefined) throw tableNotFound(table, { cause: err });
    throw new TableKitError(codeFor(e.code, e.statusCode), e.message ?? `Azure answered ${e.statusCode}`, {
      cause: err,
      details: { status: e.statusCode, ...(e.code ? { serviceCode: e.code } : {}) },
    });
  }
}

/** A table's stored access policies and the Table service's properties, through `@azure/data-tables`' own calls. */
export class AzureTableState implements StateBackend {
  constructor(private readonly connection: AzureConnection) {}

  async getState(name: string, _part: StatePart, call: CallOptions): Promise<StoredResourceState> {
    const client = this.connection.sdkClients().table(name);
    const found = await tableSdkCall(call, name, (o) => client.getAccessPolicy(o));
    return { metadata: {}, policies: storedPolicies(found) };
  }

  async setState(name: string, change: ResourceStateChange, call: CallOptions): Promise<void> {
    if (!("access" in change)) throw new TableKitError("NotSupported", "Tables have no metadata");
    const client = this.connection.sdkClients().table(name);
    await tableSdkCall(call, name, (o) =>
      client.setAccessPolicy(tableSdkIdentifiers(change.access.policies), o),
    );
  }

  async getServiceProperties(call: CallOptions): Promise<StoredServiceProperties> {
    const { service } = this.connection.sdkClients();
    const found = await tableSdkCall(call, undefined, (o) => service.getProperties(o));
    return storedServiceProperties(found as Record<string, unknown>, "logging");
  }

  async setServiceProperties(properties: StoredServiceProperties, call: CallOptions): Promise<void> {
    const { service } = this.connection.sdkClients();
    await tableSdkCall(call, undefined, (o) =>
      service.setProperties(sdkServiceProperties(properties, "logging"), o),
    );
  }
}
