"""deploy/nginx/ladder.conf passes `nginx -t` (with a self-signed certificate made here), and holds
what the recipe promises: TLS, HSTS, header and body timeouts, the websocket upgrade, one
forwarded hop, /metrics kept from the public."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from needs import unavailable

CONF = Path(__file__).resolve().parents[2] / "deploy" / "nginx" / "ladder.conf"


def _nginx() -> str:
    path = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    if path is None:
        unavailable("nginx is not installed (apt-get install nginx)")
    return path


def _checked(tmp_path: Path, conf: str) -> subprocess.CompletedProcess:
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
                    "/CN=ladder.example.org", "-keyout", str(tmp_path / "privkey.pem"),
                    "-out", str(tmp_path / "fullchain.pem")], check=True, capture_output=True, timeout=60)
    site = tmp_path / "ladder.conf"
    site.write_text(conf.replace("/etc/ssl/ladder/", f"{tmp_path}/"))
    main = tmp_path / "nginx.conf"
    main.write_text(f"pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\nevents {{}}\n"
                    f"http {{\n  access_log off;\n  include {site};\n}}\n")
    return subprocess.run([_nginx(), "-t", "-q", "-p", str(tmp_path), "-e", str(tmp_path / "error.log"),
                           "-c", str(main)], capture_output=True, text=True, timeout=60)


def test_the_recipe_passes_nginx_t(tmp_path):
    checked = _checked(tmp_path, CONF.read_text())
    assert checked.returncode == 0, checked.stderr


def test_nginx_t_catches_a_broken_recipe(tmp_path):
    checked = _checked(tmp_path, CONF.read_text().replace("client_header_timeout 10s;", "client_header_timeout;"))
    assert checked.returncode != 0 and "client_header_timeout" in checked.stderr


def test_the_recipe_holds_what_it_promises():
    text = CONF.read_text()
    for needed in ("listen 443 ssl", "Strict-Transport-Security", "client_header_timeout", "client_body_timeout",
                   "proxy_set_header Upgrade $http_upgrade", "proxy_set_header X-Forwarded-For $remote_addr",
                   "proxy_set_header X-Forwarded-Proto $scheme", "location = /metrics", "return 301 https://"):
        assert needed in text, needed
