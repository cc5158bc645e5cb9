import type { AccessPolicy } from "../access/access-policy.js";
import { requireState } from "../access/state-port.js";
import {
  type TableSignedIdentifier,
  tableIdentifiers,
  tablePolicies,
} from "../access/stored-access-policies.js";
import type { CallOptions } from "../call-options.js";
import type { TableServiceBackend } from "./table-backend.js";

/** `Table.getAccessPolicy`: the table's stored access policies; TableNotFound when it does not exist. */
export async function getTableAccessPolicy(
  service: TableServiceBackend,
  name: string,
  call: CallOptions,
  access: AccessPolicy | undefined,
): Promise<TableSignedIdentifier[]> {
  access?.check("getAcl", name);
  const state = requireState(service.state, service.capabilities.backend, "stored access policies");
  return tableIdentifiers((await state.getState(name, "access", call)).policies);
}

/** `Table.setAccessPolicy`: replaces the table's stored access policies (checked first). */
export async function setTableAccessPolicy(
  service: TableServiceBackend,
  name: string,
  identifiers: TableSignedIdentifier[],
  call: CallOptions,
  access: AccessPolicy | undefined,
): Promise<void> {
  access?.check("setAcl", name);
  const policies = tablePolicies(identifiers);
  const state = requireState(service.state, service.capabilities.backend, "stored access policies");
  await state.setState(name, { access: { policies } }, call);
}
