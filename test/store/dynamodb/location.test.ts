import { describe, expect, it } from "vitest";
import { AZURE_LIMITS } from "../../../src/model/index.js";
import { dynamodbLimits, layoutReserve } from "../../../src/store/dynamodb/capabilities.js";
import { parseLocation } from "../../../src/store/dynamodb/location.js";

describe("dynamodb: store URLs", () => {
  it("dynamodb: alone leaves endpoint, region and credentials to the SDK's defaults", () => {
    expect(parseLocation("", {})).toEqual({
      client: undefined,
      endpoint: undefined,
      region: undefined,
      credentials: undefined,
      tablePrefix: "",
    });
  });

  it("reads region and prefix from the query string", () => {
    expect(parseLocation("?region=eu-west-1&prefix=app_", {})).toMatchObject({
      endpoint: undefined,
      region: "eu-west-1",
      tablePrefix: "app_",
    });
  });

  it("a host:port is an http endpoint; on loopback it gets dummy credentials and us-east-1", () => {
    expect(parseLocation("//127.0.0.1:8000?prefix=tk_", {})).toMatchObject({
      endpoint: "http://127.0.0.1:8000",
      region: "us-east-1",
      credentials: { accessKeyId: "tablekit", secretAccessKey: "tablekit" },
      tablePrefix: "tk_",
    });
    expect(parseLocation("//dynamo.internal:443?tls=true&region=eu-west-1", {})).toMatchObject({
      endpoint: "https://dynamo.internal",
      region: "eu-west-1",
      credentials: undefined,
    });
  });

  it("options win over the URL", () => {
    const credentials = { accessKeyId: "a", secretAccessKey: "b" };
    expect(
      parseLocation("//127.0.0.1:8000?region=us-east-1&prefix=x_", {
        region: "ap-south-1",
        tablePrefix: "y_",
        credentials,
      }),
    ).toMatchObject({ region: "ap-south-1", tablePrefix: "y_", credentials });
  });

  it("rejects unknown parameters, paths, bad prefixes and garbage with InvalidStoreUrl", () => {
    for (const bad of ["?colour=red", "//127.0.0.1:8000/tables", "?prefix=a/b", "nonsense", "//:::"]) {
      expect(() => parseLocation(bad, {}), bad).toThrow(expect.objectContaining({ code: "InvalidStoreUrl" }));
    }
  });
});

describe("dynamodb limits", () => {
  it("start from Azure's and measure keys in UTF-8, at most 1,024 bytes (DynamoDB's sort key)", () => {
    const limits = dynamodbLimits();
    expect(limits).toMatchObject({ ...AZURE_LIMITS, keyEncoding: "utf8", maxKeyBytes: 1024 });
  });

  it("declare the 400 KiB item rule less what the layout adds to a worst-case entity", () => {
    expect(dynamodbLimits().maxItemBytes).toBe(400 * 1024 - layoutReserve(252));
    expect(dynamodbLimits({ maxProperties: 10 }).maxItemBytes).toBe(400 * 1024 - layoutReserve(10));
  });
});
