"""Python's azure.data.tables (Debian's python3-azure) against tablekit serve.

Run by test/server/sdk-python.test.ts with TABLEKIT_CONNECTION_STRING and TABLEKIT_TABLE_URL set.
Each check asserts; the script prints one line per passed check and exits non-zero on the first failure.
"""
import datetime
import os
import sys
import uuid

from azure.core.credentials import AzureNamedKeyCredential, AzureSasCredential
from azure.core.exceptions import HttpResponseError, ResourceExistsError, ResourceNotFoundError
from azure.data.tables import (
    EdmType,
    EntityProperty,
    TableClient,
    TableSasPermissions,
    TableServiceClient,
    TableTransactionError,
    UpdateMode,
    generate_table_sas,
)

connection_string = os.environ["TABLEKIT_CONNECTION_STRING"]
endpoint = os.environ["TABLEKIT_TABLE_URL"]
service = TableServiceClient.from_connection_string(connection_string)


def check(name):
    print(f"ok {name}", flush=True)


def error_code(fn):
    try:
        fn()
    except HttpResponseError as err:
        code = getattr(err, "error_code", None) or err.response.headers.get("x-ms-error-code")
        return err.status_code, getattr(code, "value", code)
    raise AssertionError("expected a failure")


# Tables
service.create_table("PyAlpha")
service.create_table("PyBeta")
try:
    service.create_table("PyAlpha")
    raise AssertionError("a second create must fail")
except ResourceExistsError as err:
    assert err.response.headers.get("x-ms-error-code") == "TableAlreadyExists"
names = [t.name for t in service.query_tables("TableName ge 'Py' and TableName lt 'Pz'")]
assert names == ["PyAlpha", "PyBeta"], names
service.delete_table("PyBeta")
assert [t.name for t in service.list_tables()].count("PyBeta") == 0
check("tables")

# Every EDM type
table = service.get_table_client("PyAlpha")
when = datetime.datetime(2024, 2, 29, 12, 34, 56, 789000, tzinfo=datetime.timezone.utc)
guid = uuid.UUID("c9da6455-213d-42c9-9a79-3e9149a57833")
table.create_entity(
    {
        "PartitionKey": "p",
        "RowKey": "types",
        "text": "héllo 𝄞",
        "int32": 2147483647,
        "int64": EntityProperty(-9223372036854775808, EdmType.INT64),
        "double": 1.5,
        "integral_double": EntityProperty(5.0, EdmType.DOUBLE),
        "flag": True,
        "when": when,
        "guid": guid,
        "blob": b"\x00\x01\xff",
    }
)
read = table.get_entity("p", "types")
assert read["text"] == "héllo 𝄞"
assert read["int32"] == 2147483647
int64 = read["int64"]
assert (int64.value if isinstance(int64, EntityProperty) else int64) == -9223372036854775808, int64
assert read["double"] == 1.5
assert isinstance(read["integral_double"], float) and read["integral_double"] == 5.0, read["integral_double"]
assert read["flag"] is True
assert read["when"] == when, read["when"]
assert read["guid"] == guid, read["guid"]
assert read["blob"] == b"\x00\x01\xff", read["blob"]
check("edm types")

# CRUD with ETags and the service's codes
created = table.create_entity({"PartitionKey": "p", "RowKey": "r", "a": 1})
assert error_code(lambda: table.create_entity({"PartitionKey": "p", "RowKey": "r"})) == (409, "EntityAlreadyExists")
table.update_entity({"PartitionKey": "p", "RowKey": "r", "b": 2}, mode=UpdateMode.MERGE)
merged = table.get_entity("p", "r")
assert merged["a"] == 1 and merged["b"] == 2
from azure.core import MatchConditions

status = error_code(
    lambda: table.update_entity(
        {"PartitionKey": "p", "RowKey": "r"}, mode=UpdateMode.REPLACE, etag=created["etag"], match_condition=MatchConditions.IfNotModified
    )
)
assert status == (412, "UpdateConditionNotSatisfied"), status
table.upsert_entity({"PartitionKey": "p", "RowKey": "u", "c": 3}, mode=UpdateMode.REPLACE)
table.delete_entity("p", "u")
assert error_code(lambda: table.get_entity("p", "u")) == (404, "ResourceNotFound")
assert error_code(lambda: service.get_table_client("PyMissing").get_entity("p", "r"))[0] == 404
check("crud")

# Queries with paging
paging = service.create_table("PyPaging")
paging.submit_transaction([("create", {"PartitionKey": "q", "RowKey": f"{i:03}", "n": i}) for i in range(50)])
pages = paging.query_entities("n ge @low", parameters={"low": 10}, results_per_page=15, select=["n"]).by_page()
seen, count = [], 0
for page in pages:
    items = list(page)
    assert len(items) <= 15
    count += 1
    seen.extend(e["n"] for e in items)
assert seen == list(range(10, 50)), seen
assert count >= 3, count
check("paging")

# A batch with a failing operation
try:
    paging.submit_transaction(
        [("create", {"PartitionKey": "q", "RowKey": "new"}), ("create", {"PartitionKey": "q", "RowKey": "001"})]
    )
    raise AssertionError("the batch must fail")
except TableTransactionError as err:
    assert err.error_code == "EntityAlreadyExists", err.error_code
    assert err.index == 1, err.index
assert error_code(lambda: paging.get_entity("q", "new"))[0] == 404
check("batch")

# A SAS with a key range
for pk in ["alice", "bob", "carol"]:
    paging.create_entity({"PartitionKey": pk, "RowKey": "1"})
credential = AzureNamedKeyCredential(connection_string.split("AccountName=")[1].split(";")[0], connection_string.split("AccountKey=")[1].split(";")[0])
sas = generate_table_sas(
    credential,
    "PyPaging",
    permission=TableSasPermissions(read=True, add=True),
    expiry=datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(hours=1),
    start_pk="bob",
    end_pk="bob",
)
scoped = TableClient(endpoint, "PyPaging", credential=AzureSasCredential(sas))
assert [e["PartitionKey"] for e in scoped.list_entities()] == ["bob"]
scoped.create_entity({"PartitionKey": "bob", "RowKey": "2"})
assert error_code(lambda: scoped.create_entity({"PartitionKey": "carol", "RowKey": "2"})) == (403, "AuthorizationFailure")
assert error_code(lambda: scoped.delete_entity("bob", "2")) == (403, "AuthorizationPermissionMismatch")
check("sas")
sys.exit(0)
