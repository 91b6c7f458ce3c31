"""THE runtime table: which languages a bot may be written in, and exactly what each may run.

Every other place reads this table: the packaging checks (the entry point picks the runtime), the
sandbox (a bot sees only its runtime's files, see workers/build/runtime_view.py), the compile step
(workers/build/builds.py), `ladder match`, `ladder up`/`ladder worker` (which runtimes were found), the
upload page, docs/bots.md (generated: `ladder runtimes --markdown`) and the Dockerfile and CI
(`python3 -m ladder.bot.runtimes --packages` prints the Debian packages to install).

A runtime's files are the files of the Debian packages it names plus their dependencies, except
dependencies that would bring a program of their own (anything in a bin directory): those are
left out unless the row names them. So what a bot can execute is exactly what its row lists.

Versions are read from dpkg's database (no process is started, so the web app may ask too).
This module imports only the standard library.
"""

from __future__ import annotations

import functools
import os
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

DPKG_STATUS = Path("/var/lib/dpkg/status")
DPKG_INFO = Path("/var/lib/dpkg/info")
JAVA_HOME = "/usr/lib/jvm/java-17-openjdk-amd64"
# What every build has besides its compiler: a shell for the recipe, cp, and tar to hand the
# artifact back (the build's stdout is a tar stream; its stderr is the compiler output).
BUILD_BASE = ("dash", "coreutils", "tar", "findutils")


@dataclass(frozen=True)
class Runtime:
    name: str
    title: str
    entry: str  # the file at the package's root that picks this runtime
    run: tuple[str, ...]  # the command in the sandbox, cwd /bot (the built artifact's or the upload's files)
    packages: tuple[str, ...]  # Debian packages whose files a running bot sees
    version_of: tuple[str, ...]  # packages whose versions say what the runtime is (shown to authors)
    build: str | None = None  # shell recipe run in a copy of the upload; it leaves the artifact in "$OUT"
    build_packages: tuple[str, ...] = ()  # what the compile step sees (plus BUILD_BASE)
    build_env: tuple[tuple[str, str], ...] = ()
    executables: tuple[str, ...] = ()  # files of the staged bot that must be executable
    notes: str = ""
    # What the runtime needs beyond the match's defaults (None: the defaults), as floors: loading
    # PyTorch alone takes about 300 MB and some seconds, which the defaults (512 MiB, 5 s to ready)
    # leave too little room for; a seat never gets less than the match gives every bot.
    memory_bytes: int | None = None
    startup_ms: int | None = None

    @property
    def compiled(self) -> bool:
        return self.build is not None

    def all_packages(self) -> tuple[str, ...]:
        extra = (*BUILD_BASE, *self.build_packages) if self.compiled else ()
        return tuple(dict.fromkeys((*self.packages, *extra)))


_GCC = ("gcc", "gcc-12", "cpp", "cpp-12", "binutils", "binutils-x86-64-linux-gnu", "libc6-dev", "libc-dev-bin")

RUNTIMES: tuple[Runtime, ...] = (
    Runtime(
        "python", "Python 3 with numpy and scipy", "main.py", ("/usr/bin/python3", "-s", "main.py"),
        packages=("python3", "python3-minimal", "python3.11", "python3.11-minimal", "python3-numpy",
                  "python3-scipy"),
        version_of=("python3.11", "python3-numpy", "python3-scipy"),
        notes="the SDK (`bots.sdk`, `bots.forward` and the game rules) is on PYTHONPATH",
    ),
    Runtime(
        "python-ml", "Python 3 with PyTorch (CPU) and scikit-learn", "main_ml.py",
        ("/usr/bin/python3", "-s", "main_ml.py"),
        packages=("python3", "python3-minimal", "python3.11", "python3.11-minimal", "python3-numpy",
                  "python3-scipy", "python3-torch", "python3-sklearn"),
        version_of=("python3.11", "python3-torch", "python3-sklearn", "python3-numpy"),
        memory_bytes=1 << 30, startup_ms=20_000,
        notes="as `python`, plus torch and sklearn; 1 GiB of memory and 20 s to ready (importing torch takes seconds)",
    ),
    Runtime(
        "node", "Node.js", "main.js", ("/usr/bin/node", "main.js"),
        packages=("nodejs",), version_of=("nodejs",), notes="core modules only (no npm install)",
    ),
    Runtime(
        "c", "C (gcc, C17)", "main.c", ("./bot",), packages=("libc6",), version_of=("gcc-12",),
        build='gcc -O2 -std=gnu17 -o "$OUT/bot" *.c -lm', build_packages=_GCC, executables=("bot",),
        notes="every .c file at the root is compiled",
    ),
    Runtime(
        "cpp", "C++ (g++, C++17)", "main.cpp", ("./bot",), packages=("libc6", "libstdc++6"),
        version_of=("g++-12",), build='g++ -O2 -std=gnu++17 -o "$OUT/bot" *.cpp -lm',
        build_packages=(*_GCC, "g++", "g++-12", "libstdc++-12-dev"), executables=("bot",),
        notes="every .cpp file at the root is compiled",
    ),
    Runtime(
        "rust", "Rust (cargo, no crates)", "Cargo.toml", ("./bot",), packages=("libc6", "libgcc-s1"),
        # Debian 12's rustc-web and cargo-web (kept current by bookworm-security, 1.96 in 2026), not
        # rustc 1.63 (2022), on which `let ... else` and other current Rust that compiles on an
        # author's machine failed on the ladder. The versioned libstd comes in as a dependency.
        version_of=("rustc-web", "cargo-web"),
        build='cargo build --release --offline && cp target/release/bot "$OUT/bot"',
        build_packages=("rustc-web", "cargo-web", "libstd-rust-web-dev", *_GCC),
        build_env=(("CARGO_HOME", "/tmp/cargo"), ("CARGO_TERM_COLOR", "never")), executables=("bot",),
        notes="the package (or its [[bin]]) is named `bot`; offline, so no crates from the registry",
    ),
    Runtime(
        "go", "Go", "go.mod", ("./bot",), packages=(), version_of=("golang-1.19-go",),
        build='go build -o "$OUT/bot" .',  # -trimpath would rebuild the standard library (7 s)
        build_packages=("golang-go", "golang-1.19-go", "golang-1.19-src", "golang-src"),
        build_env=(("GOCACHE", "/tmp/gocache"), ("GOPATH", "/tmp/gopath"), ("GOPROXY", "off"),
                   ("GOFLAGS", "-mod=mod"), ("CGO_ENABLED", "0")),
        executables=("bot",), notes="standard library only (GOPROXY=off); a static binary, so it runs with no files",
    ),
    Runtime(
        "java", "Java 17", "Main.java",
        (f"{JAVA_HOME}/bin/java", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xmx256m", "-Xss8m",
         "-cp", "/bot", "Main"),
        packages=("openjdk-17-jre-headless",), version_of=("openjdk-17-jre-headless",),
        build="javac -encoding UTF-8 -d \"$OUT\" $(find . -name '*.java')",
        build_packages=("openjdk-17-jdk-headless", "openjdk-17-jre-headless"),
        notes="every .java file is compiled; the class `Main` (no package) is started",
    ),
    Runtime(
        "static", "Static Linux x86-64 executable", "bot", ("./bot",), packages=(), version_of=(),
        executables=("bot",), notes="built by you (e.g. `gcc -static`); it sees no system files at all",
    ),
)

BY_NAME = {r.name: r for r in RUNTIMES}
BY_ENTRY = {r.entry: r for r in RUNTIMES}


def by_entry(entry: str) -> Runtime:
    return BY_ENTRY[entry]


# -- dpkg's database (read as files: nothing is run) -----------------------------------------------


@dataclass(frozen=True)
class Package:
    name: str
    version: str
    depends: tuple[tuple[str, ...], ...]  # each a list of alternatives


@functools.cache
def installed() -> dict[str, Package]:
    """Installed packages by name; {} where there is no dpkg database (not a Debian host)."""
    try:
        text = DPKG_STATUS.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return {}
    packages: dict[str, Package] = {}
    provides: dict[str, str] = {}
    for block in text.split("\n\n"):
        fields: dict[str, str] = {}
        key = None
        for line in block.splitlines():
            if line[:1] in (" ", "\t") and key:
                fields[key] += " " + line.strip()
            elif ":" in line:
                key, _, value = line.partition(":")
                fields[key] = value.strip()
        if "Package" not in fields or not fields.get("Status", "").endswith(" installed"):
            continue
        deps = []
        for field in ("Pre-Depends", "Depends"):
            for group in filter(None, (g.strip() for g in fields.get(field, "").split(","))):
                deps.append(tuple(_bare(alt) for alt in group.split("|")))
        name = fields["Package"]
        packages[name] = Package(name, fields.get("Version", "?"), tuple(deps))
        for item in filter(None, (p.strip() for p in fields.get("Provides", "").split(","))):
            provides.setdefault(_bare(item), name)
    for virtual, real in provides.items():
        packages.setdefault(virtual, packages[real])
    return packages


def _bare(relation: str) -> str:
    """'libc6:any (>= 2.34)' -> 'libc6'."""
    return re.split(r"[\s:(\[]", relation.strip(), maxsplit=1)[0]


@functools.cache
def package_files(name: str) -> tuple[str, ...]:
    for candidate in (DPKG_INFO / f"{name}.list", DPKG_INFO / f"{name}:amd64.list"):
        try:
            return tuple(line for line in candidate.read_text(errors="replace").splitlines() if line)
        except OSError:
            continue
    return ()


BIN_DIRS = ("/bin/", "/sbin/", "/usr/bin/", "/usr/sbin/", "/usr/games/", "/usr/local/bin/")


def ships_programs(name: str) -> bool:
    return any(_in_bin_dir(path) for path in package_files(name))


def _in_bin_dir(path: str) -> bool:
    return any(path.startswith(d) and "/" not in path[len(d):] and path[len(d):] for d in BIN_DIRS)


def closure(roots: Iterable[str]) -> tuple[set[str], set[str]]:
    """(packages whose files are exposed, dependencies left out because they bring programs).

    Every root is taken; a dependency is followed unless it ships a program in a bin directory
    (a shell, perl, openssl, python for node-gyp...): the row must name such a package itself."""
    db = installed()
    roots = list(roots)
    chosen: set[str] = set()
    left_out: set[str] = set()
    todo = list(roots)
    while todo:
        name = todo.pop()
        package = db.get(name)
        if package is None or package.name in chosen:
            continue
        if name not in roots and package.name not in roots and ships_programs(package.name):
            left_out.add(package.name)
            continue
        chosen.add(package.name)
        for alternatives in package.depends:
            todo.append(next((a for a in alternatives if a in db), alternatives[0]))
    return chosen, left_out


def missing_packages(runtime: Runtime) -> list[str]:
    db = installed()
    return [name for name in runtime.all_packages() if name not in db]


def available(runtime: Runtime) -> tuple[bool, str]:
    """Whether this host can run (and build) `runtime`, and if not, what to install."""
    if not installed():  # not a Debian host: no isolated runtime; a plain interpreter still runs
        if runtime.compiled:
            return False, "no dpkg database here: compiled runtimes are built from Debian's packages"
        if runtime.packages and not os.access(runtime.run[0], os.X_OK):
            return False, f"{runtime.run[0]} is missing"
        return True, "the host's own files (no dpkg database: not isolated per runtime)"
    missing = missing_packages(runtime)
    if missing:
        return False, f"missing Debian packages: apt-get install {' '.join(missing)}"
    if not os.path.exists(runtime.run[0]) and runtime.run[0].startswith("/"):
        return False, f"{runtime.run[0]} is missing"
    return True, version(runtime)


def version(runtime: Runtime) -> str:
    db = installed()
    parts = [f"{name} {_upstream(db[name].version)}" for name in runtime.version_of if name in db]
    return ", ".join(parts) or "no system files"


def _upstream(debian_version: str) -> str:
    """'1:1.24.2-1+deb12u1' -> '1.24.2'."""
    v = debian_version.split(":", 1)[-1]
    return re.split(r"[-+~]", v, maxsplit=1)[0] if "-" in v else v


def report(names: Iterable[str] | None = None) -> tuple[list[tuple[Runtime, str]], list[tuple[Runtime, str]]]:
    """(found, missing): each runtime with its version, or with what to install."""
    found, missing = [], []
    for runtime in RUNTIMES:
        if names is not None and runtime.name not in names:
            continue
        ok, detail = available(runtime)
        (found if ok else missing).append((runtime, detail))
    return found, missing


def report_line(names: Iterable[str] | None = None) -> str:
    found, missing = report(names)
    line = "runtimes: " + (", ".join(f"{r.name} ({d})" for r, d in found) or "none")
    if missing:
        line += "; missing: " + "; ".join(f"{r.name} ({d})" for r, d in missing)
    return line


def debian_packages() -> list[str]:
    """Every Debian package the table needs, for the Dockerfile and CI."""
    return list(dict.fromkeys(p for r in RUNTIMES for p in r.all_packages()))


def markdown_table() -> str:
    """The runtime table as docs/bots.md shows it (a test keeps the two equal)."""
    rows = ["| runtime | entry point | build (in the sandbox) | run | Debian packages | notes |",
            "|---|---|---|---|---|---|"]
    for r in RUNTIMES:
        build = f"`{r.build}`" if r.build else "none"
        rows.append(f"| {r.title} | `{r.entry}` | {build} | `{' '.join(r.run)}` | "
                    f"{', '.join(r.packages) or 'none'} | {r.notes} |")
    return "\n".join(rows)


if __name__ == "__main__":  # python3 -m ladder.bot.runtimes --packages (no virtualenv needed)
    if sys.argv[1:] == ["--packages"]:
        print(" ".join(debian_packages()))
    else:
        print(report_line())
