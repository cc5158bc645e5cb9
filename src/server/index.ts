/**
 * `tablekit serve` as a library: the Azure Table REST protocol over a store, so any Azure SDK can use
 * the embedded engine. See docs/server.md.
 *
 * @example const server = await startServer({ port: 0 }); // … server.connectionString …; await server.stop();
 */
// Kept in the declarations (preserve): blob bodies, SDK slices and the server name Node types,
// which TypeScript 7 (whose "types" default is []) would not load otherwise.
/// <reference types="node" preserve="true" />
export { parseAccounts } from "./accounts.js";
export type { OAuthLevel } from "./auth/bearer-token.js";
export type { Mount } from "./service-handler.js";
export {
  type RunningServer,
  type ServerOptions,
  type ServiceEndpoint,
  type ServiceName,
  startServer,
} from "./start-server.js";
