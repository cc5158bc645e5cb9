import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { AZURE_LIMITS } from "../../../src/model/index.js";
import { parseLocation } from "../../../src/store/backends/dynamodb/connection.js";
import { dynamodbLimits, layoutReserve } from "../../../src/store/backends/dynamodb/table-capabilities.js";

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

describe("without @aws-sdk/client-dynamodb", () => {
  it("opening a dynamodb: store is NotSupported, saying what to install", () => {
    // A child process whose module resolution cannot find the SDK, as in an app that never installed it.
    const hooks = `export async function resolve(specifier, context, next) {
      if (specifier === "@aws-sdk/client-dynamodb") {
        throw Object.assign(new Error("Cannot find package '@aws-sdk/client-dynamodb'"), { code: "ERR_MODULE_NOT_FOUND" });
      }
      return next(specifier, context);
    }`;
    const register = `import { register } from "node:module"; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`;
    const script = `
      const { openStore } = await import(${JSON.stringify(pathToFileURL(resolve("src/index.ts")).href)});
      try { await openStore("dynamodb://127.0.0.1:9"); console.log("opened"); }
      catch (err) { console.log(JSON.stringify({ code: err.code, message: err.message })); }`;
    const run = spawnSync(
      process.execPath,
      [
        "--import",
        "tsx",
        "--import",
        `data:text/javascript,${encodeURIComponent(register)}`,
        "--input-type=module",
        "-e",
        script,
      ],
      { encoding: "utf8" },
    );
    const result = JSON.parse(run.stdout.trim().split("\n").at(-1)!);
    expect(result.code).toBe("NotSupported");
    expect(result.message).toContain("npm install @aws-sdk/client-dynamodb");
  });
});
