"""The S3 backend: each blob an object in one bucket under a prefix, through boto3, the AWS SDK for
Python. boto3 because it is the reference client that every S3-compatible server (MinIO, Ceph's
RGW, Garage, R2, Backblaze B2, SeaweedFS) tests against, is released weekly by AWS, streams uploads
as multipart (upload_fileobj: a dump or an artifact is never held whole) and retries throttling
and dropped connections by itself ("standard" retry mode).

An S3 PUT is atomic (a reader sees the old object or the new one), which is all the interface
promises. Credentials come from the settings when given, else from boto3's own chain
(AWS_ACCESS_KEY_ID..., an instance profile), so a deployment may keep them out of LADDER_*.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from ladder.storage.base import Blob, BlobMissing, StoreError, check_key

MISSING = ("404", "NoSuchKey", "NotFound")


class S3Store:
    def __init__(self, bucket: str, prefix: str = "", *, endpoint: str | None = None, region: str | None = None,
                 access_key: str | None = None, secret_key: str | None = None):
        import boto3
        from botocore.config import Config

        self.bucket = bucket
        self.prefix = prefix.strip("/") + "/" if prefix.strip("/") else ""
        self.endpoint = endpoint
        # an endpoint of our own (MinIO, a test server) serves buckets as paths, not as host names
        config = Config(retries={"mode": "standard", "max_attempts": 5}, connect_timeout=5, read_timeout=60,
                        s3={"addressing_style": "path"} if endpoint else None)
        self.client = boto3.session.Session().client(
            "s3", endpoint_url=endpoint, region_name=region, aws_access_key_id=access_key,
            aws_secret_access_key=secret_key, config=config)

    @property
    def location(self) -> str:
        where = f"s3://{self.bucket}/{self.prefix}"
        return f"{where} at {self.endpoint}" if self.endpoint else where

    def _name(self, key: str) -> str:
        return self.prefix + check_key(key)

    def _call(self, what: str, key: str, fn, **kwargs):
        from botocore.exceptions import BotoCoreError, ClientError

        try:
            return fn(Bucket=self.bucket, **kwargs)
        except ClientError as exc:
            if exc.response.get("Error", {}).get("Code") in MISSING:
                raise BlobMissing(key) from None
            raise StoreError(f"{what} {key} in {self.location}: {exc}") from None
        except BotoCoreError as exc:
            raise StoreError(f"{what} {key} in {self.location}: {exc}") from None

    def put(self, key: str, data: bytes | BinaryIO) -> int:
        stream = io.BytesIO(data) if isinstance(data, bytes | bytearray | memoryview) else data
        counted = _Counting(stream)
        self._call("writing", key, lambda **kw: self.client.upload_fileobj(counted, kw["Bucket"], self._name(key)))
        return counted.count

    def put_file(self, key: str, path: Path) -> int:
        with open(path, "rb") as src:
            return self.put(key, src)

    def get(self, key: str) -> bytes:
        with self.open(key) as body:
            return body.read()

    def open(self, key: str) -> BinaryIO:
        return self._call("reading", key, self.client.get_object, Key=self._name(key))["Body"]

    def stat(self, key: str) -> Blob | None:
        try:
            head = self._call("looking up", key, self.client.head_object, Key=self._name(key))
        except BlobMissing:
            return None
        return Blob(key, head["ContentLength"], head["LastModified"])

    def exists(self, key: str) -> bool:
        return self.stat(key) is not None

    def delete(self, key: str) -> None:
        with contextlib.suppress(BlobMissing):
            self._call("deleting", key, self.client.delete_object, Key=self._name(key))

    def list(self, prefix: str = "") -> Iterator[Blob]:
        pages = self.client.get_paginator("list_objects_v2").paginate(Bucket=self.bucket, Prefix=self.prefix + prefix)
        try:
            for page in pages:
                for obj in page.get("Contents", []):
                    yield Blob(obj["Key"][len(self.prefix):], obj["Size"], obj["LastModified"])
        except Exception as exc:
            from botocore.exceptions import BotoCoreError, ClientError

            if isinstance(exc, BotoCoreError | ClientError):
                raise StoreError(f"listing {prefix!r} in {self.location}: {exc}") from None
            raise


class _Counting(io.RawIOBase):
    """A read-through wrapper that counts the bytes an upload sent."""

    def __init__(self, inner: BinaryIO):
        self.inner, self.count = inner, 0

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        block = self.inner.read(size)
        self.count += len(block)
        return block
