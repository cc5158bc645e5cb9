import { expect } from "vitest";
import { ERROR_STATUS, type ErrorCode, TableKitError } from "../../src/model/index.js";

/**
 * Asserts that `promise` rejects with a TableKitError of `code`, with the status the service
 * answers that code with, and any further fields given (`index`, `position`, `details`, …).
 * Returns the error, for further checks.
 */
export async function expectCode(
  promise: Promise<unknown>,
  code: ErrorCode,
  more: Record<string, unknown> = {},
): Promise<TableKitError> {
  const err = await promise.then(
    () => new Error(`expected a TableKitError ${code}, and the call succeeded`),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TableKitError);
  expect(err).toMatchObject({ name: "TableKitError", code, status: ERROR_STATUS[code], ...more });
  return err as TableKitError;
}
