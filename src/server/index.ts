/**
 * `tablekit serve` as a library: the Azure Table REST protocol over a store, so any Azure SDK can use
 * the embedded engine. See docs/server.md.
 *
 * @example const server = await startServer({ port: 0 }); // … server.connectionString …; await server.stop();
 */
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
