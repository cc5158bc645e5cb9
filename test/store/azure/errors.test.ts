import { describe, expect, it } from "vitest";
import { TableKitError } from "../../../src/model/index.js";
import { codeFor, responseError, toTransactionError } from "../../../src/store/backends/azure/errors.js";
import {
  decodeEntityContinuation,
  encodeEntityContinuation,
  tableContinuation,
} from "../../../src/store/backends/azure/table-continuation.js";

describe("azure error codes", () => {
  it("service codes tablekit shares map one to one; others by name, then by HTTP status", () => {
    expect(codeFor("EntityAlreadyExists", 409)).toBe("EntityAlreadyExists");
    expect(codeFor("TableBeingDeleted", 409)).toBe("TableBeingDeleted");
    expect(codeFor("UpdateConditionNotSatisfied", 412)).toBe("UpdateConditionNotSatisfied");
    expect(codeFor("InvalidOperation", 400)).toBe("InvalidInput");
    expect(codeFor("RequestBodyTooLarge", 413)).toBe("RequestBodyTooLarge"); // a $batch body past 4 MiB
    expect(codeFor(undefined, 413)).toBe("RequestBodyTooLarge");
    expect(codeFor("ServerBusy", 503)).toBe("ServerBusy");
    expect(codeFor("SomethingNew", 404)).toBe("ResourceNotFound");
    expect(codeFor(undefined, 503)).toBe("ServerBusy");
    expect(codeFor(undefined, 418)).toBe("BackendError");
    // Names that are not own properties of the table of codes are not codes.
    expect(codeFor("toString", 400)).toBe("InvalidInput");
  });

  it("an error response is the service's code and message, without its RequestId", () => {
    const body = JSON.stringify({
      "odata.error": {
        code: "EntityAlreadyExists",
        message: { lang: "en-US", value: "1:The specified entity already exists.\nRequestId:x\nTime:y" },
      },
    });
    expect(responseError(409, undefined, body)).toMatchObject({
      code: "EntityAlreadyExists",
      message: "1:The specified entity already exists.",
      details: { status: 409, serviceCode: "EntityAlreadyExists" },
    });
    expect(responseError(404, "TableNotFound", "")).toMatchObject({ code: "TableNotFound" });
    expect(responseError(503, undefined, "<html>")).toMatchObject({ code: "ServerBusy" });
  });

  it("a transaction error carries the index the service prefixed to its message", () => {
    const err = toTransactionError(
      new TableKitError("EntityAlreadyExists", "3:The specified entity already exists."),
      5,
    );
    expect(err).toMatchObject({ code: "EntityAlreadyExists", index: 3 });
    expect(err.message).toBe("3:The specified entity already exists.");
    expect(toTransactionError(new TableKitError("InvalidInput", "bad batch"), 5).index).toBeUndefined();
    expect(toTransactionError(new TableKitError("InvalidInput", "9:out of range"), 5).index).toBeUndefined();
  });

  it("continuations the backend did not make are InvalidContinuationToken", () => {
    const token = Buffer.from(
      JSON.stringify({ nextPartitionKey: "1!8!cDE-", nextRowKey: "1!8!cjE-" }),
    ).toString("base64");
    expect(decodeEntityContinuation(token)).toEqual({ partitionKey: "1!8!cDE-", rowKey: "1!8!cjE-" });
    expect(encodeEntityContinuation({ partitionKey: "1!8!cDE-", rowKey: "1!8!cjE-" })).toBe(token);
    for (const bad of [
      "",
      "not base64!",
      Buffer.from("[]").toString("base64"),
      Buffer.from('{"nextRowKey":"x"}').toString("base64"),
    ]) {
      expect(() => decodeEntityContinuation(bad)).toThrow(
        expect.objectContaining({ code: "InvalidContinuationToken" }),
      );
    }
    expect(tableContinuation("1!24!dGFibGUxMjM-")).toBe("1!24!dGFibGUxMjM-");
    expect(() => tableContinuation("a b")).toThrow(
      expect.objectContaining({ code: "InvalidContinuationToken" }),
    );
  });
});
