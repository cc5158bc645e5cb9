import type { RequestContext } from "../http/request-context.js";
import { invalidUri } from "../protocol/protocol-error.js";
import type { ServiceDeps, StorageService } from "../service-handler.js";

/** The Blob service (being built). */
export function blobService(deps: ServiceDeps): StorageService<RequestContext> {
  return {
    name: "Blob",
    state: deps.state,
    context: (ctx) => ctx,
    errorsInXml: () => true,
    async answer() {
      throw invalidUri();
    },
  };
}
