import { describe, expect, it } from "vitest";
import { DEVELOPMENT_ACCOUNT, generateTableSas, type Store, type TableSasOptions } from "../../src/index.js";
import { defineModel, field, partitionToken } from "../../src/patterns/index.js";
import { expectCode, listAll } from "../conformance/helpers.js";
import { handMadeTableSas } from "../support/hand-made-sas.js";
import type { PatternsRef } from "./target.js";

const account = DEVELOPMENT_ACCOUNT;
const hour = () => new Date(Date.now() + 3_600_000);
const all = { query: true, add: true, update: true, delete: true };

/** One user's notes: the partition is the user, so a partition token is "this user's data". */
function notesModel(table: string) {
  return defineModel({
    table,
    fields: { userId: field.string(), noteId: field.string(), text: field.string() },
    partitionKey: (k) => k.literal("user_").field("userId"),
    rowKey: (k) => k.field("noteId"),
  });
}

async function seeded(target: PatternsRef) {
  const table = await target().freshTable();
  const Notes = notesModel(table.tableName);
  const repo = Notes.on(table);
  for (const userId of ["ann", "bob", "cy"]) {
    for (const noteId of ["1", "2"])
      await repo.create({ userId, noteId, text: `${userId}'s note ${noteId}` });
  }
  return { table, Notes };
}

function scoped(store: Store, options: Omit<TableSasOptions, "account">): Store {
  return store.withAccessToken(generateTableSas({ account, ...options }));
}

/** Scoped access tokens: generated SAS tokens, enforced by the core on every read and write. */
export function accessSuite(target: PatternsRef): void {
  describe("scoped access tokens", () => {
    it("a partition token reaches one user's entities and nothing else", async () => {
      const { table, Notes } = await seeded(target);
      const token = partitionToken(
        Notes,
        { userId: "bob" },
        { account, permissions: all, expiresOn: hour() },
      );
      const bob = Notes.on(target().store.withAccessToken(token));
      expect((await bob.list({ userId: "bob" }).toArray()).map((n) => n.text)).toEqual([
        "bob's note 1",
        "bob's note 2",
      ]);
      // A query over the whole table sees only the token's range.
      const everything = await listAll(target().store.withAccessToken(token).table(table.tableName));
      expect(everything.map((e) => e.partitionKey)).toEqual(["user_bob", "user_bob"]);
      await bob.create({ userId: "bob", noteId: "3", text: "new" });
      await bob.update({ userId: "bob", noteId: "1", text: "edited" });
      await bob.delete({ userId: "bob", noteId: "2" });
      await expectCode(bob.get({ userId: "ann", noteId: "1" }), "AuthorizationFailure");
      await expectCode(bob.create({ userId: "cy", noteId: "9", text: "x" }), "AuthorizationFailure");
      await expectCode(Notes.on(table).get({ userId: "cy", noteId: "9" }), "ResourceNotFound");
      // A Table service token reaches no other service of the store.
      const tokenStore = target().store.withAccessToken(token);
      expect(() => tokenStore.queue("notes")).toThrow(
        expect.objectContaining({ code: "AuthorizationServiceMismatch" }),
      );
      expect(() => tokenStore.container("notes")).toThrow(
        expect.objectContaining({ code: "AuthorizationServiceMismatch" }),
      );
    });

    it("permissions: each operation needs its own (upserts need add and update)", async () => {
      const { table } = await seeded(target);
      const store = target().store;
      const name = table.tableName;
      const readOnly = scoped(store, {
        tableName: name,
        permissions: { query: true },
        expiresOn: hour(),
      }).table(name);
      expect(await listAll(readOnly)).toHaveLength(6);
      await expectCode(
        readOnly.createEntity({ partitionKey: "user_ann", rowKey: "9" }),
        "AuthorizationPermissionMismatch",
      );
      await expectCode(readOnly.deleteEntity("user_ann", "1"), "AuthorizationPermissionMismatch");
      const addOnly = scoped(store, { tableName: name, permissions: { add: true }, expiresOn: hour() }).table(
        name,
      );
      await addOnly.createEntity({ partitionKey: "user_ann", rowKey: "9" });
      await expectCode(
        addOnly.upsertEntity({ partitionKey: "user_ann", rowKey: "9" }),
        "AuthorizationPermissionMismatch",
      );
      await expectCode(addOnly.getEntity("user_ann", "9"), "AuthorizationPermissionMismatch");
      const addUpdate = scoped(store, {
        tableName: name,
        permissions: { add: true, update: true },
        expiresOn: hour(),
      });
      await addUpdate.table(name).upsertEntity({ partitionKey: "user_ann", rowKey: "9", x: 1 });
      await expectCode(addUpdate.table(name).deleteTable(), "AuthorizationResourceTypeMismatch");
      await expectCode(addUpdate.createTable("tOther"), "AuthorizationResourceTypeMismatch");
      await expectCode(addUpdate.listTables().next(), "AuthorizationResourceTypeMismatch");
      await expectCode(
        addUpdate.table(`${name}x`).createEntity({ partitionKey: "a", rowKey: "b" }),
        "AuthorizationFailure",
      );
    });

    it("key ranges compare (PartitionKey, RowKey) pairs in key order, inclusive at both ends", async () => {
      const table = await target().freshTable();
      for (const [pk, rk] of [
        ["a", "4"],
        ["a", "5"],
        ["b", "0"],
        ["b", "9"],
        ["c", "2"],
        ["c", "3"],
      ]) {
        await table.createEntity({ partitionKey: pk!, rowKey: rk! });
      }
      const range = { startPartitionKey: "a", startRowKey: "5", endPartitionKey: "c", endRowKey: "2" };
      const view = scoped(target().store, {
        tableName: table.tableName,
        permissions: all,
        expiresOn: hour(),
        ...range,
      });
      const seen = await listAll(view.table(table.tableName));
      expect(seen.map((e) => `${e.partitionKey}${e.rowKey}`)).toEqual(["a5", "b0", "b9", "c2"]);
      const filtered = await listAll(view.table(table.tableName), "RowKey ge '3'");
      expect(filtered.map((e) => `${e.partitionKey}${e.rowKey}`)).toEqual(["a5", "b9"]);
      await expectCode(view.table(table.tableName).getEntity("a", "4"), "AuthorizationFailure");
      await expectCode(view.table(table.tableName).deleteEntity("c", "3"), "AuthorizationFailure");
      await view.table(table.tableName).updateEntity({ partitionKey: "b", rowKey: "9", seen: true });
    });

    it("a transaction touching one entity outside the range fails at that action and writes nothing", async () => {
      const table = await target().freshTable();
      const view = scoped(target().store, {
        tableName: table.tableName,
        permissions: all,
        expiresOn: hour(),
        startPartitionKey: "p",
        startRowKey: "a",
        endPartitionKey: "p",
        endRowKey: "m",
      });
      await expectCode(
        view.table(table.tableName).submitTransaction([
          ["create", { partitionKey: "p", rowKey: "b" }],
          ["create", { partitionKey: "p", rowKey: "z" }],
        ]),
        "AuthorizationFailure",
        { index: 1 },
      );
      expect(await listAll(table)).toEqual([]);
    });

    it("a row bound without its partition bound is refused, both ways; an empty bound cannot be made", async () => {
      const store = target().store;
      const tableName = (await target().freshTable()).tableName;
      const fields = { tn: tableName, sp: "raud", se: "2099-01-01T00:00:00Z" };
      for (const bounds of [
        { srk: "5" },
        { erk: "5" },
        { srk: "1", erk: "5" },
        { spk: "a", srk: "1", erk: "5" },
        { srk: "1", epk: "b", erk: "5" },
        { spk: "", srk: "5" },
      ]) {
        const token = handMadeTableSas(account, { ...fields, ...bounds });
        expect(() => store.withAccessToken(token), JSON.stringify(bounds)).toThrow(
          expect.objectContaining({ code: "AuthenticationFailed" }),
        );
      }
      for (const bound of ["startPartitionKey", "startRowKey", "endPartitionKey", "endRowKey"] as const) {
        expect(() =>
          generateTableSas({
            account,
            tableName,
            permissions: all,
            expiresOn: hour(),
            startPartitionKey: "a",
            endPartitionKey: "b",
            [bound]: "",
          }),
        ).toThrow(expect.objectContaining({ code: "InvalidInput" }));
      }
    });

    it("a token signed by one account is refused for another, whichever way round", async () => {
      const store = target().store;
      const tableName = (await target().freshTable()).tableName;
      const first = { name: "accounta", key: Buffer.alloc(64, 3).toString("base64") };
      const second = { name: "accountb", key: Buffer.alloc(64, 4).toString("base64") };
      for (const [signer, verifier] of [
        [first, second],
        [second, first],
      ] as const) {
        const token = generateTableSas({ account: signer, tableName, permissions: all, expiresOn: hour() });
        expect(() => store.withAccessToken(token, { account: verifier })).toThrow(
          expect.objectContaining({ code: "AuthenticationFailed" }),
        );
        // The other account's key under this account's name is refused too.
        expect(() =>
          store.withAccessToken(token, { account: { name: signer.name, key: verifier.key } }),
        ).toThrow(expect.objectContaining({ code: "AuthenticationFailed" }));
        expect(store.withAccessToken(token, { account: signer }).access?.scope.kind).toBe("table");
      }
    });

    it("times, signatures and accounts: expired, not yet valid, tampered or foreign tokens fail authentication", async () => {
      const table = await target().freshTable();
      const store = target().store;
      const tableName = table.tableName;
      const expired = scoped(store, { tableName, permissions: all, expiresOn: new Date(Date.now() - 1000) });
      await expectCode(
        expired.table(tableName).createEntity({ partitionKey: "a", rowKey: "b" }),
        "AuthenticationFailed",
      );
      const early = scoped(store, { tableName, permissions: all, startsOn: hour(), expiresOn: hour() });
      await expectCode(
        early.table(tableName).createEntity({ partitionKey: "a", rowKey: "b" }),
        "AuthenticationFailed",
      );
      const token = generateTableSas({ account, tableName, permissions: { query: true }, expiresOn: hour() });
      expect(() => store.withAccessToken(token.replace("sp=r", "sp=raud"))).toThrow(
        expect.objectContaining({ code: "AuthenticationFailed" }),
      );
      const foreign = generateTableSas({
        account: { name: account.name, key: Buffer.alloc(64, 7).toString("base64") },
        tableName,
        permissions: all,
        expiresOn: hour(),
      });
      expect(() => store.withAccessToken(foreign)).toThrow(
        expect.objectContaining({ code: "AuthenticationFailed" }),
      );
      expect(() => store.withAccessToken(token, { account: { name: "other", key: account.key } })).toThrow(
        expect.objectContaining({ code: "AuthenticationFailed" }),
      );
    });
  });
}
