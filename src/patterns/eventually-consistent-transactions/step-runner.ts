import { TableKitError } from "../../model/index.js";
import { runBlobStep } from "./blob-steps.js";
import type { StepContext, StepResult } from "./step-context.js";
import type { CheckedStep } from "./steps.js";
import { runTableStep } from "./table-steps.js";

/**
 * Runs one step so that a redelivery knows whether it ran before
 * (docs/patterns/eventually-consistent-transactions.md#evidence): every write of a table or blob
 * step carries the step's mark, and a step whose target already holds it, or whose effect a later
 * writer deleted (the journal's record), counts as done. Handler steps keep their own contract.
 */
export function runStep(s: CheckedStep, ctx: StepContext): Promise<StepResult> {
  // Not async: a table or blob step's promise is handed on as it is (no frame per step).
  switch (s.kind) {
    case "insertIfAbsent":
    case "upsert":
    case "updateIfMatch":
    case "deleteIfPresent":
      return runTableStep(s, ctx);
    case "putBlob":
    case "deleteBlobIfPresent":
      return runBlobStep(s, ctx);
    case "call":
      return runHandler(s, ctx);
  }
}

async function runHandler(s: Extract<CheckedStep, { kind: "call" }>, ctx: StepContext): Promise<StepResult> {
  const handler = ctx.handlers.get(s.handler);
  if (!handler)
    throw new TableKitError("InvalidInput", `No handler ${JSON.stringify(s.handler)} is registered`);
  await handler.run(ctx.handlerContext(), s.args);
  return { outcome: "applied" };
}
