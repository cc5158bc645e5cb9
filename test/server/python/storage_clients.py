"""azure.storage.queue and azure.storage.blob (Debian's python3-azure) against tablekit serve.

Also page blobs, sealed append blobs (seal_append_blob, where the installed version has it),
blob batches (delete_blobs), soft delete (the delete retention policy, include=["deleted"],
undelete_blob), and leases, snapshots, copies, index tags and access tiers.

Reads TABLEKIT_CONNECTION_STRING; asserts each behaviour and prints `ok <check>` per group.
"""
import os
from datetime import datetime, timedelta, timezone

from azure.core import MatchConditions
from azure.core.exceptions import HttpResponseError, ResourceExistsError, ResourceNotFoundError
from azure.storage.blob import (
    BlobBlock,
    BlobLeaseClient,
    BlobServiceClient,
    PartialBatchErrorException,
    RetentionPolicy,
)
from azure.storage.queue import QueueServiceClient

CONN = os.environ["TABLEKIT_CONNECTION_STRING"]
# No retries and a short read timeout: a hang or an error shows at once.
KW = {"retry_total": 0, "read_timeout": 10}


def queues():
    service = QueueServiceClient.from_connection_string(CONN, **KW)
    for name in ("pyjobs", "pyjobs-b", "other"):
        service.create_queue(name, metadata={"team": "py"} if name == "pyjobs" else None)
    try:
        service.create_queue("pyjobs", metadata={"team": "changed"})
        raise AssertionError("re-creating a queue with other metadata must fail")
    except ResourceExistsError as err:
        assert err.error_code == "QueueAlreadyExists", err.error_code
    listed = [q.name for q in service.list_queues(name_starts_with="pyjobs", include_metadata=True)]
    assert listed == ["pyjobs", "pyjobs-b"], listed
    props = service.get_queue_client("pyjobs").get_queue_properties()
    assert props.metadata == {"team": "py"}, props.metadata
    service.delete_queue("pyjobs-b")
    service.delete_queue("other")
    assert [q.name for q in service.list_queues()] == ["pyjobs"]
    try:
        service.get_queue_client("missing").get_queue_properties()
        raise AssertionError("a missing queue must be 404")
    except ResourceNotFoundError as err:
        assert err.error_code == "QueueNotFound", err.error_code
    print("ok queues")


def messages():
    queue = QueueServiceClient.from_connection_string(CONN, **KW).get_queue_client("pyjobs")
    for text in ("one", "two", "three"):
        queue.send_message(text)
    peeked = queue.peek_messages(max_messages=32)
    assert [m.content for m in peeked] == ["one", "two", "three"], [m.content for m in peeked]
    got = list(queue.receive_messages(messages_per_page=2, visibility_timeout=30, max_messages=2))
    assert [m.content for m in got] == ["one", "two"] and all(m.dequeue_count == 1 for m in got)
    updated = queue.update_message(got[0], content="uno", visibility_timeout=0)
    assert updated.pop_receipt != got[0].pop_receipt
    try:
        queue.delete_message(got[0].id, got[0].pop_receipt)
        raise AssertionError("a stale pop receipt must not delete")
    except HttpResponseError as err:
        assert err.status_code == 400 and err.error_code == "PopReceiptMismatch", err.error_code
    queue.delete_message(got[1].id, got[1].pop_receipt)
    rest = list(queue.receive_messages(max_messages=32, visibility_timeout=30))
    assert sorted(m.content for m in rest) == ["three", "uno"], [m.content for m in rest]
    assert {m.content: m.dequeue_count for m in rest}["uno"] == 2
    for m in rest:
        queue.delete_message(m)
    assert queue.get_queue_properties().approximate_message_count == 0
    queue.send_message("gone")
    queue.clear_messages()
    assert list(queue.peek_messages()) == []
    print("ok messages")


def blobs():
    service = BlobServiceClient.from_connection_string(CONN, **KW)
    container = service.create_container("pyfiles", metadata={"owner": "py"})
    assert container.get_container_properties().metadata == {"owner": "py"}
    data = bytes(range(256)) * 40
    blob = container.get_blob_client("dir/a.bin")
    blob.upload_blob(data, metadata={"kind": "raw"})
    assert blob.download_blob().readall() == data
    assert blob.download_blob(offset=100, length=50).readall() == data[100:150]
    props = blob.get_blob_properties()
    assert props.size == len(data) and props.metadata == {"kind": "raw"}, props
    blob.set_blob_metadata({"kind": "changed"})
    assert blob.get_blob_properties().metadata == {"kind": "changed"}
    print("ok upload and download")

    blocks = container.get_blob_client("dir/blocks.txt")
    blocks.stage_block("YmxvY2stMQ==", b"hello ")
    blocks.stage_block("YmxvY2stMg==", b"world")
    committed, uncommitted = blocks.get_block_list("all")
    assert committed == [] and sorted(b.id for b in uncommitted) == ["YmxvY2stMQ==", "YmxvY2stMg=="]
    blocks.commit_block_list([BlobBlock("YmxvY2stMQ=="), BlobBlock("YmxvY2stMg==")])
    assert blocks.download_blob().readall() == b"hello world"
    committed, _ = blocks.get_block_list("committed")
    assert [(b.id, b.size) for b in committed] == [("YmxvY2stMQ==", 6), ("YmxvY2stMg==", 5)]
    print("ok block list")

    log = container.get_blob_client("logs/today.log")
    log.create_append_blob()
    log.append_block(b"line 1\n")
    log.append_block(b"line 2\n", appendpos_condition=7)
    try:
        log.append_block(b"line 3\n", appendpos_condition=7)
        raise AssertionError("a wrong append position must fail")
    except HttpResponseError as err:
        assert err.status_code == 412 and err.error_code == "AppendPositionConditionNotMet", err.error_code
    assert log.download_blob().readall() == b"line 1\nline 2\n"
    print("ok append blob")

    container.get_blob_client("dir/sub/c.txt").upload_blob(b"c")
    container.get_blob_client("top.txt").upload_blob(b"t")
    names = [b.name for b in container.list_blobs(name_starts_with="dir/")]
    assert names == ["dir/a.bin", "dir/blocks.txt", "dir/sub/c.txt"], names
    walked = [(getattr(b, "prefix", None) is not None, b.name) for b in container.walk_blobs(delimiter="/")]
    assert walked == [(True, "dir/"), (True, "logs/"), (False, "top.txt")], walked
    listed = [b for b in container.list_blobs(name_starts_with="dir/a", include=["metadata"])]
    assert [b.metadata for b in listed] == [{"kind": "changed"}]
    print("ok listing")

    etag = blob.get_blob_properties().etag
    try:
        blob.upload_blob(b"other", overwrite=True, etag='"0x0000000000000000"', match_condition=MatchConditions.IfNotModified)
        raise AssertionError("If-Match with another ETag must fail")
    except HttpResponseError as err:
        assert err.status_code == 412 and err.error_code == "ConditionNotMet", err.error_code
    try:
        blob.download_blob(if_unmodified_since=datetime.now(timezone.utc) - timedelta(days=1)).readall()
        raise AssertionError("If-Unmodified-Since before the last change must fail")
    except HttpResponseError as err:
        assert err.status_code == 412, err.status_code
    assert blob.download_blob().readall() == data, "a failed condition wrote nothing"
    blob.upload_blob(b"new", overwrite=True, etag=etag, match_condition=MatchConditions.IfNotModified)
    assert blob.download_blob().readall() == b"new"
    print("ok conditions")

    service.delete_container("pyfiles")
    assert [c.name for c in service.list_containers()] == []
    print("ok containers")


def page_blobs_seal_and_batches():
    service = BlobServiceClient.from_connection_string(CONN, **KW)
    container = service.create_container("pypages")
    disk = container.get_blob_client("disk.vhd")
    disk.create_page_blob(4 * 512, sequence_number=3)
    written = disk.upload_page(b"a" * 1024, offset=0, length=1024)
    assert written["blob_sequence_number"] == 3, written
    disk.clear_page(offset=512, length=512)
    pages, cleared = disk.get_page_ranges()
    assert [(r["start"], r["end"]) for r in pages] == [(0, 511)], pages
    assert cleared == [], cleared
    assert disk.download_blob().readall() == b"a" * 512 + bytes(1536)
    props = disk.get_blob_properties()
    assert (props.blob_type, props.size, props.page_blob_sequence_number) == ("PageBlob", 2048, 3), props
    try:
        disk.upload_page(b"b" * 512, offset=2048, length=512)
        raise AssertionError("a write past the blob's end must fail")
    except HttpResponseError as err:
        assert err.status_code == 416 and err.error_code == "InvalidPageRange", err.error_code
    try:
        disk.upload_page(b"b" * 512, offset=0, length=512, if_sequence_number_eq=4)
        raise AssertionError("a failed sequence-number condition must fail")
    except HttpResponseError as err:
        assert err.status_code == 412 and err.error_code == "SequenceNumberConditionNotMet", err.error_code
    assert disk.set_sequence_number("increment")["blob_sequence_number"] == 4
    disk.resize_blob(512)
    assert disk.get_blob_properties().size == 512
    print("ok page blobs")

    log = container.get_blob_client("sealed.log")
    log.create_append_blob()
    log.append_block(b"last line\n")
    if hasattr(log, "seal_append_blob"):
        log.seal_append_blob()
        assert log.get_blob_properties().is_append_blob_sealed is True
        try:
            log.append_block(b"more\n")
            raise AssertionError("an append to a sealed blob must fail")
        except HttpResponseError as err:
            assert err.status_code == 409 and err.error_code == "BlobIsSealed", err.error_code
        assert log.download_blob().readall() == b"last line\n"
    print("ok seal")

    for name in ("b1", "b2", "b3"):
        container.get_blob_client(name).upload_blob(name.encode())
    answers = list(container.delete_blobs("b1", "missing", "b3", raise_on_any_failure=False))
    assert [a.status_code for a in answers] == [202, 404, 202], [a.status_code for a in answers]
    assert [b.name for b in container.list_blobs(name_starts_with="b")] == ["b2"]
    try:
        container.delete_blobs("b2", "missing")
        raise AssertionError("a batch with a failed delete must raise by default")
    except PartialBatchErrorException as err:
        assert [p.status_code for p in err.parts] == [202, 404], err.parts
    assert [b.name for b in container.list_blobs(name_starts_with="b")] == []
    service.delete_container("pypages")
    print("ok batch")


def soft_delete():
    service = BlobServiceClient.from_connection_string(CONN, **KW)
    service.set_service_properties(delete_retention_policy=RetentionPolicy(enabled=True, days=2))
    try:
        container = service.create_container("pysoft")
        blob = container.get_blob_client("note.txt")
        blob.upload_blob(b"keep me", metadata={"who": "py"})
        blob.delete_blob()
        try:
            blob.get_blob_properties()
            raise AssertionError("a soft-deleted blob must not be found")
        except ResourceNotFoundError:
            pass
        assert [b.name for b in container.list_blobs()] == []
        listed = list(container.list_blobs(include=["deleted"]))
        assert [(b.name, b.deleted) for b in listed] == [("note.txt", True)], listed
        assert listed[0].deleted_time is not None and listed[0].remaining_retention_days == 2, listed[0]
        blob.undelete_blob()
        assert blob.download_blob().readall() == b"keep me"
        assert blob.get_blob_properties().metadata == {"who": "py"}
        service.delete_container("pysoft")
    finally:
        service.set_service_properties(delete_retention_policy=RetentionPolicy(enabled=False))
    print("ok soft delete")


def leases_snapshots_copies_tags_tiers():
    service = BlobServiceClient.from_connection_string(CONN, **KW)
    container = service.create_container("pyapps")
    job = container.get_blob_client("job.json")
    job.upload_blob(b"idle")
    lease = BlobLeaseClient(job)
    lease.acquire(lease_duration=15)
    try:
        job.upload_blob(b"stolen", overwrite=True)
        raise AssertionError("a write without the lease id must fail")
    except HttpResponseError as err:
        assert err.status_code == 412 and err.error_code == "LeaseIdMissing", err.error_code
    job.upload_blob(b"running", overwrite=True, lease=lease)
    props = job.get_blob_properties()
    assert (props.lease.state, props.lease.status, props.lease.duration) == ("leased", "locked", "fixed"), props.lease
    lease.release()
    assert job.get_blob_properties().lease.state == "available"
    print("ok leases")

    snap = job.create_snapshot(metadata={"stage": "running"})["snapshot"]
    job.upload_blob(b"done", overwrite=True)
    old = container.get_blob_client("job.json", snapshot=snap)
    assert old.download_blob().readall() == b"running"
    assert old.get_blob_properties().metadata == {"stage": "running"}
    listed = [(b.name, b.snapshot) for b in container.list_blobs(include=["snapshots"])]
    assert listed == [("job.json", snap), ("job.json", None)], listed
    try:
        job.delete_blob()
        raise AssertionError("a blob with snapshots must refuse a plain delete")
    except HttpResponseError as err:
        assert err.status_code == 409 and err.error_code == "SnapshotsPresent", err.error_code
    print("ok snapshots")

    copy = container.get_blob_client("copy.json")
    started = copy.start_copy_from_url(job.url)
    assert started["copy_status"] == "success", started
    assert copy.download_blob().readall() == b"done"
    assert copy.get_blob_properties().copy.status == "success"
    print("ok copy")

    copy.set_blob_tags({"project": "alpha", "stage": "final"})
    assert copy.get_blob_tags() == {"project": "alpha", "stage": "final"}
    found = [b.name for b in container.find_blobs_by_tags("\"project\" = 'alpha'")]
    assert found == ["copy.json"], found
    try:
        copy.set_blob_tags({"project": "beta"}, if_tags_match_condition="\"stage\" = 'draft'")
        raise AssertionError("an unmet x-ms-if-tags must fail")
    except HttpResponseError as err:
        assert err.status_code == 412, err.status_code
    print("ok tags")

    copy.set_standard_blob_tier("Cool")
    props = copy.get_blob_properties()
    assert (props.blob_tier, props.blob_tier_inferred) == ("Cool", False), (props.blob_tier, props.blob_tier_inferred)
    copy.set_standard_blob_tier("Archive")
    try:
        copy.download_blob().readall()
        raise AssertionError("an archived blob must refuse reads")
    except HttpResponseError as err:
        assert err.status_code == 409 and err.error_code == "BlobArchived", err.error_code
    job.delete_blob(delete_snapshots="include")
    service.delete_container("pyapps")
    print("ok tiers")


queues()
messages()
blobs()
page_blobs_seal_and_batches()
soft_delete()
leases_snapshots_copies_tags_tiers()
