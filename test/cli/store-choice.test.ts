/**
 * Which store a command opens: --store, TABLEKIT_STORE, AZURE_STORAGE_CONNECTION_STRING, the AWS
 * variables, then file:./tablekit.db — and stderr says which one when --store did not name it.
 * The Azure and AWS cases run the real binary against Azurite and DynamoDB Local.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chooseStore, displayStoreUrl } from "../../src/cli/store-choice.js";
import { openStore } from "../../src/index.js";
import { type Azurite, startAzurite } from "../support/azurite.js";
import { type DynamoDbLocal, startDynamoDbLocal } from "../support/dynamodb-local.js";
import { cli, tempDir } from "./run-cli.js";

const AZURE =
  "DefaultEndpointsProtocol=http;AccountName=acct;AccountKey=c2VjcmV0;TableEndpoint=http://127.0.0.1:1/acct";

describe("the precedence of the store's sources", () => {
  const aws = { AWS_REGION: "eu-west-1", AWS_ACCESS_KEY_ID: "AKIDEXAMPLE" };
  const everything = { TABLEKIT_STORE: "file:./env.db", AZURE_STORAGE_CONNECTION_STRING: AZURE, ...aws };

  it("--store wins over every variable", () => {
    expect(chooseStore("memory:", everything)).toEqual({ url: "memory:", source: "--store" });
  });

  it("then TABLEKIT_STORE, then AZURE_STORAGE_CONNECTION_STRING, then the AWS variables, then the file", () => {
    expect(chooseStore(undefined, everything)).toEqual({ url: "file:./env.db", source: "TABLEKIT_STORE" });
    const { TABLEKIT_STORE: _t, ...azureAndAws } = everything;
    expect(chooseStore(undefined, azureAndAws)).toEqual({
      url: `azure:${AZURE}`,
      source: "AZURE_STORAGE_CONNECTION_STRING",
    });
    expect(chooseStore(undefined, aws)).toEqual({
      url: "dynamodb:?region=eu-west-1",
      source: "AWS_REGION, AWS_ACCESS_KEY_ID",
    });
    expect(chooseStore(undefined, {})).toEqual({ url: "file:./tablekit.db", source: "default" });
  });

  it("takes a DynamoDB store from an endpoint, or from a region with credentials — not from a region alone", () => {
    expect(chooseStore(undefined, { AWS_REGION: "eu-west-1" }).source).toBe("default");
    expect(chooseStore(undefined, { AWS_ACCESS_KEY_ID: "AKIDEXAMPLE" }).source).toBe("default");
    expect(chooseStore(undefined, { AWS_DEFAULT_REGION: "us-west-2", AWS_PROFILE: "ops" })).toEqual({
      url: "dynamodb:?region=us-west-2",
      source: "AWS_DEFAULT_REGION, AWS_PROFILE",
    });
    expect(chooseStore(undefined, { AWS_ENDPOINT_URL_DYNAMODB: "http://127.0.0.1:8000" })).toEqual({
      url: "dynamodb://127.0.0.1:8000",
      source: "AWS_ENDPOINT_URL_DYNAMODB",
    });
    expect(
      chooseStore(undefined, {
        AWS_ENDPOINT_URL_DYNAMODB: "https://dynamo.internal:8443",
        AWS_REGION: "eu-west-1",
      }),
    ).toEqual({
      url: "dynamodb://dynamo.internal:8443?region=eu-west-1&tls=true",
      source: "AWS_ENDPOINT_URL_DYNAMODB, AWS_REGION",
    });
  });

  it("refuses an AWS endpoint that is not an http(s) URL, naming the variable", () => {
    for (const endpoint of ["not a url", "ftp://127.0.0.1:21"]) {
      expect(() => chooseStore(undefined, { AWS_ENDPOINT_URL_DYNAMODB: endpoint })).toThrow(
        expect.objectContaining({
          code: "InvalidStoreUrl",
          message: expect.stringContaining("AWS_ENDPOINT_URL_DYNAMODB"),
        }),
      );
    }
  });

  it("never shows an account key or a shared access signature", () => {
    expect(displayStoreUrl(`azure:${AZURE}`)).toBe(
      "azure:DefaultEndpointsProtocol=http;AccountName=acct;AccountKey=…;TableEndpoint=http://127.0.0.1:1/acct",
    );
    expect(displayStoreUrl("azure:TableEndpoint=http://h/a;SharedAccessSignature=sv=2020&sig=abc")).toBe(
      "azure:TableEndpoint=http://h/a;SharedAccessSignature=…",
    );
    expect(displayStoreUrl("azure:BlobEndpoint=http://h/a?sv=2020&sig=abc%2B;AccountName=a")).toBe(
      "azure:BlobEndpoint=http://h/a?sv=2020&sig=…;AccountName=a",
    );
  });
});

describe("tablekit with the store in the environment", { timeout: 120_000 }, () => {
  const { dir, cleanup } = tempDir();
  let azurite: Azurite;
  let dynamo: DynamoDbLocal;
  beforeAll(async () => {
    [azurite, dynamo] = await Promise.all([startAzurite(), startDynamoDbLocal()]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([azurite?.stop(), dynamo?.stop()]);
    cleanup();
  });

  it("honours AZURE_STORAGE_CONNECTION_STRING, says so on stderr without the key, creates no file", async () => {
    const env = { AZURE_STORAGE_CONNECTION_STRING: azurite.connectionString };
    const created = await cli(["--verbose", "tables", "create", "FromEnv"], { cwd: dir, env });
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).toMatch(
      /^store azure:.*AccountName=devstoreaccount1;AccountKey=…;.* \(from AZURE_STORAGE_CONNECTION_STRING\)$/m,
    );
    expect(created.stderr).not.toContain(azurite.connectionString.match(/AccountKey=([^;]+)/)![1]);
    const listed = await cli(["tables"], { cwd: dir, env });
    expect(listed.stdout).toBe("FromEnv\n");
    // Without --verbose, a store from the environment is not news on every command.
    expect(listed.stderr).toBe("");
    expect(existsSync(join(dir, "tablekit.db"))).toBe(false);
    const store = await openStore(azurite.storeUrl);
    try {
      const names: string[] = [];
      for await (const t of store.listTables()) names.push(t.name);
      expect(names).toEqual(["FromEnv"]);
    } finally {
      await store.close();
    }
  });

  it("honours AWS_ENDPOINT_URL_DYNAMODB, below TABLEKIT_STORE", async () => {
    const env = { AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint };
    const created = await cli(["tables", "create", "FromAws", "--verbose"], { cwd: dir, env });
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).toContain(`store ${dynamo.storeUrl} (from AWS_ENDPOINT_URL_DYNAMODB)`);
    expect((await cli(["tables", "--store", dynamo.storeUrl], { cwd: dir })).stdout).toBe("FromAws\n");
    const overridden = await cli(["tables", "--verbose"], {
      cwd: dir,
      env: { ...env, TABLEKIT_STORE: "memory:" },
    });
    expect(overridden.stdout).toBe("");
    expect(overridden.stderr).toBe("store memory: (from TABLEKIT_STORE)\nno tables\n");
  });

  it("says nothing about the store when --store names it", async () => {
    const r = await cli(["tables", "--store", "memory:"], { cwd: dir });
    expect(r).toMatchObject({ code: 0, stdout: "", stderr: "no tables\n" });
  });
});
