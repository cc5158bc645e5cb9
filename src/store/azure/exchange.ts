import { AsyncLocalStorage } from "node:async_hooks";
import type { AzurePipeline, AzurePipelineRequest, AzurePipelineResponse } from "./sdk.js";

/**
 * What one SDK call exchanges with the service beyond what the SDK's API carries:
 * - `body`: the request body this backend built. The SDK's serializer cannot express everything
 *   the model holds (a property named `__proto__`, -0, an ETag on a delete inside a batch), so
 *   the SDK is handed only the keys and its request body is replaced here.
 * - `takeBody`: keep a successful response's body text for this backend, which parses it itself
 *   (the SDK's parse loses `5.0` vs `5`), and hand the SDK an empty object to parse instead of
 *   parsing and converting every entity twice. Headers (ETag, continuation) are left as they are.
 * - `response`: the raw response, also when the SDK swallows an error (it hides 409 from
 *   createTable and 404 from deleteTable, which the port must report).
 */
export interface AzureExchange {
  readonly body?: (request: AzurePipelineRequest) => string;
  readonly takeBody?: boolean;
  responseBody?: string;
  response?: AzurePipelineResponse;
}

const current = new AsyncLocalStorage<AzureExchange>();

/** Runs one SDK call with `exchange` attached to the HTTP request(s) it makes. */
export function withExchange<T>(exchange: AzureExchange, call: () => Promise<T>): Promise<T> {
  return current.run(exchange, call);
}

/**
 * Installs the policies that apply `withExchange` contexts on a client's pipeline: one in the
 * Serialize phase (the body is replaced before signing and before retries resend it), one in the
 * Retry phase, nearer the wire than the SDK's response parsing.
 */
export function installExchangePolicy(pipeline: AzurePipeline): void {
  pipeline.addPolicy(
    {
      name: "tablekitExchange",
      async sendRequest(request, next) {
        const exchange = current.getStore();
        if (exchange?.body && request.body !== undefined && request.body !== null) {
          request.body = exchange.body(request);
          request.headers.delete("Content-Length");
        }
        try {
          const response = await next(request);
          if (exchange) exchange.response = response;
          return response;
        } catch (err) {
          // The SDK turns error statuses into a RestError that still carries the response.
          const response = (err as { response?: AzurePipelineResponse }).response;
          if (exchange && response) exchange.response = response;
          throw err;
        }
      },
    },
    { phase: "Serialize" },
  );
  pipeline.addPolicy(
    {
      name: "tablekitResponseBody",
      async sendRequest(request, next) {
        const response = await next(request);
        const exchange = current.getStore();
        if (exchange?.takeBody && response.status >= 200 && response.status < 300 && response.bodyAsText) {
          exchange.responseBody = response.bodyAsText;
          (response as { bodyAsText?: string }).bodyAsText = "{}";
        }
        return response;
      },
    },
    { phase: "Retry" },
  );
}
