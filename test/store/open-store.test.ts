/** openStore's options: typed by the URL's scheme at compile time, checked by key at run time. */
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  type AzureStoreOptions,
  type DynamoDbStoreOptions,
  type EmbeddedStoreOptions,
  openStore,
  type StoreOptions,
} from "../../src/index.js";
import { expectCode } from "../support/expect-code.js";
import { handMadeTableSas } from "../support/hand-made-sas.js";

describe("openStore options", () => {
  it("the options type follows the URL's scheme", () => {
    expectTypeOf<StoreOptions<"memory:">>().toEqualTypeOf<EmbeddedStoreOptions>();
    expectTypeOf<StoreOptions<"file:./x.db">>().toEqualTypeOf<EmbeddedStoreOptions>();
    expectTypeOf<StoreOptions<"AZURE:UseDevelopmentStorage=true">>().toEqualTypeOf<AzureStoreOptions>();
    expectTypeOf<StoreOptions<"dynamodb://127.0.0.1:8000">>().toEqualTypeOf<DynamoDbStoreOptions>();
    // A URL known only at run time takes any scheme's options.
    expectTypeOf<StoreOptions<string>>().toEqualTypeOf<
      EmbeddedStoreOptions | AzureStoreOptions | DynamoDbStoreOptions
    >();
    expectTypeOf<StoreOptions<"nosuch:x">>().toBeNever();
  });

  it("a misspelt option does not compile, and is InvalidInput naming it at run time", async () => {
    // @ts-expect-error `tablePrefx` is no option of a dynamodb: store (tablePrefix is).
    const misspelt = openStore("dynamodb:", { tablePrefx: "app_" });
    const err = await expectCode(misspelt, "InvalidInput", {
      details: { option: "tablePrefx", scheme: "dynamodb" },
    });
    expect(err.message).toContain("'tablePrefx'");
    // @ts-expect-error `region` is an option of dynamodb:, not of memory:.
    await expectCode(openStore("memory:", { region: "eu-west-1" }), "InvalidInput", {
      details: { option: "region" },
    });
    // @ts-expect-error `emulatr` is no option of an azure: store.
    await expectCode(openStore("azure:UseDevelopmentStorage=true", { emulatr: true }), "InvalidInput");
    const dynamic: string = "memory:";
    // @ts-expect-error not an option of any scheme.
    await expectCode(openStore(dynamic, { limitz: {} }), "InvalidInput");
  });

  it("each scheme's own options are accepted", async () => {
    const store = await openStore("memory:", { limits: { pageTimeBudgetMs: 7 } });
    expect(store.capabilities.limits.pageTimeBudgetMs).toBe(7);
    await store.close();
  });

  it("accessToken: a row bound without its partition bound, or another account's token, fails before the store opens", async () => {
    const first = { name: "accounta", key: Buffer.alloc(64, 5).toString("base64") };
    const second = { name: "accountb", key: Buffer.alloc(64, 6).toString("base64") };
    const fields = { tn: "Orders", sp: "raud", se: "2099-01-01T00:00:00Z" };
    for (const bounds of [{ srk: "5" }, { erk: "5" }, { spk: "a", srk: "1", erk: "9" }]) {
      const accessToken = handMadeTableSas(first, { ...fields, ...bounds });
      await expectCode(openStore("memory:", { accessToken, accessAccount: first }), "AuthenticationFailed");
    }
    const whole = handMadeTableSas(first, { ...fields, spk: "a", srk: "1", epk: "b", erk: "9" });
    await (await openStore("memory:", { accessToken: whole, accessAccount: first })).close();
    await expectCode(
      openStore("memory:", { accessToken: whole, accessAccount: second }),
      "AuthenticationFailed",
    );
    await expectCode(
      openStore("memory:", { accessToken: handMadeTableSas(second, fields), accessAccount: first }),
      "AuthenticationFailed",
    );
  });
});
