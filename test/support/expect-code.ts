import { expect } from "vitest";
import { ERROR_STATUS, type ErrorCode, TableKitError } from "../../src/model/index.js";

/**
 * Asserts that `promise` rejects with a TableKitError of `code`, with the status the service
 * answers that code with, and any further fields given (`index`, `position`, `details`, …), also
 * read as the SDK's RestError reads (`statusCode`, `details.odataError`, `details.errorCode`).
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
  // The shape of @azure/data-tables' RestError as well, for code ported from the SDK.
  const e = err as TableKitError;
  expect({
    statusCode: e.statusCode,
    errorCode: e.details.errorCode,
    odataError: e.details.odataError,
  }).toEqual({
    statusCode: ERROR_STATUS[code],
    errorCode: code,
    odataError: { code, message: { lang: "en-US", value: e.message } },
  });
  return e;
}
