"""Blobs outside the database, behind one interface (base.Store): a folder (folder.FolderStore) or
an S3-compatible bucket (s3.S3Store), chosen by the settings' LADDER_STORE (docs/operations.md,
"The store"). What lives there, by key prefix:

- `builds/<key>.tar`        compiled bots (services/builds.py; the row keeps the metadata and log)
- `dumps/<game>/<file>.zip` the daily dumps (services/dumps.py), served at /datasets
"""

from __future__ import annotations

from urllib.parse import urlparse

from ladder.storage.base import Blob, BlobMissing, Store, StoreError, check_key, chunks
from ladder.storage.folder import FolderStore

__all__ = ["Blob", "BlobMissing", "FolderStore", "Store", "StoreError", "check_key", "chunks", "open_store"]


def open_store(settings) -> Store:
    """The store the settings name (Settings.store_url: LADDER_STORE, or the embedded folder)."""
    url = urlparse(settings.store_url)
    if url.scheme == "file":
        from pathlib import Path

        return FolderStore(Path(url.path))
    from ladder.storage.s3 import S3Store

    return S3Store(url.netloc, url.path, endpoint=settings.store_endpoint, region=settings.store_region,
                   access_key=settings.store_access_key, secret_key=settings.store_secret_key)
