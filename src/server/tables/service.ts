import { answerServiceProperties } from "../protocol/service-properties.js";
import type { Route } from "./route.js";

/** `?restype=service&comp=properties` (get, set) and `comp=stats`: answered in XML, as the service does. */
export const serviceRoute: Route = {
  name: "service",
  xml: true,
  matches: (ctx) => ctx.resource.kind === "service" && ctx.query.get("restype") === "service",
  handle: (ctx, { store, access, cors }) =>
    answerServiceProperties(ctx, {
      service: "table",
      store,
      cors,
      check: (operation) => access?.check(operation),
    }),
};
