"""deploy/compose.no-registry.yml and the images it builds (deploy/images/), against docker-compose.yml.

Building and running them is deploy/podman-smoke.sh's work (by hand: it needs Podman and a
15-minute build); this checks what drifts silently when the main file changes: a renamed service,
another PostgreSQL major version, a different base image.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def services(path: Path) -> dict[str, dict]:
    return yaml.safe_load(path.read_text())["services"]


def base_image(containerfile: Path) -> str:
    return re.search(r"^FROM\s+(\S+)", containerfile.read_text(), re.MULTILINE).group(1)


def test_the_override_replaces_only_images_of_the_main_files_services_with_the_same_versions():
    main = services(ROOT / "docker-compose.yml")
    override = services(ROOT / "deploy" / "compose.no-registry.yml")
    # an operator with Docker Hub keeps the official images: the main file names them itself
    assert (main["postgres"]["image"], main["redis"]["image"]) == ("postgres:15", "redis:7")
    assert set(override) == {"postgres", "redis"}
    for name, service in override.items():
        assert set(service) == {"image", "build"}, name  # nothing of the main file's service changes
        assert service["image"].split(":")[1] == main[name]["image"].split(":")[1], name
        assert (ROOT / service["build"] / "Containerfile").is_file(), name
    major = main["postgres"]["image"].split(":")[1]
    containerfile = (ROOT / override["postgres"]["build"] / "Containerfile").read_text()
    assert re.search(rf"install .*\bpostgresql-{major}\b", containerfile)
    assert f"/usr/lib/postgresql/{major}/bin" in containerfile  # pg_isready for the health check


def test_the_images_start_from_the_dockerfiles_base():
    # the base a registry-less host imports once (deploy/podman-build.sh) serves all three
    for name in ("postgres", "redis"):
        assert base_image(ROOT / "deploy" / "images" / name / "Containerfile") == base_image(ROOT / "Dockerfile")


def test_the_scripts_parse():
    subprocess.run(["sh", "-n", str(ROOT / "deploy" / "images" / "postgres" / "entrypoint.sh")], check=True)
    for script in ("podman-build.sh", "podman-smoke.sh"):
        subprocess.run(["bash", "-n", str(ROOT / "deploy" / script)], check=True)
