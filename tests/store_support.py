"""An S3 server for the tests: moto's server mode (`moto[server]` from PyPI), started as a real HTTP
server on a free loopback port, once per test process; each test gets a bucket of its own.

Why moto: no S3-compatible server is packaged in Debian here, and of what the registries offer it is
the one that installs as a plain Python package (MinIO, Garage and SeaweedFS are Go binaries not on
PyPI; localstack needs Docker; npm's s3rver is unmaintained). It implements the S3 REST API that
boto3 speaks (multipart uploads, list_objects_v2 pagination, HEAD), so the S3 backend is tested over
HTTP as it runs against a real bucket. Unavailable (moto not installed, the server not starting):
skipped on a laptop, a failure under LADDER_REQUIRE_SERVICES=1.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from dataclasses import dataclass

import pytest
from needs import unavailable

ACCESS_KEY, SECRET_KEY, REGION = "testing", "testing-secret", "us-east-1"


@dataclass(frozen=True)
class S3Server:
    endpoint: str

    def client(self):
        import boto3

        return boto3.client("s3", endpoint_url=self.endpoint, region_name=REGION, aws_access_key_id=ACCESS_KEY,
                            aws_secret_access_key=SECRET_KEY)

    def new_bucket(self) -> str:
        name = f"ladder-test-{uuid.uuid4().hex[:12]}"
        self.client().create_bucket(Bucket=name)
        return name

    def env(self, bucket: str, prefix: str = "ladder") -> dict[str, str]:
        """The LADDER_* settings of a ladder process storing in `bucket`."""
        return {"LADDER_STORE": f"s3://{bucket}/{prefix}", "LADDER_STORE_ENDPOINT": self.endpoint,
                "LADDER_STORE_REGION": REGION, "LADDER_STORE_ACCESS_KEY": ACCESS_KEY,
                "LADDER_STORE_SECRET_KEY": SECRET_KEY}


def free_port() -> int:
    """A loopback port free now (the kernel's pick: parallel test processes never collide on it)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def s3_server():
    try:
        import boto3  # noqa: F401
        import moto.server  # noqa: F401
    except ImportError as exc:
        unavailable(f"no S3 test server: {exc} (pip install 'moto[server]')")
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    endpoint = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(f"{endpoint}/moto-api/", timeout=2).close()
            break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                err = proc.stderr.read().decode(errors="replace")[-2000:]
                unavailable(f"moto's S3 server did not start on {endpoint}: {err}")
            time.sleep(0.1)
    try:
        yield S3Server(endpoint)
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture
def s3_bucket(s3_server) -> str:
    return s3_server.new_bucket()
