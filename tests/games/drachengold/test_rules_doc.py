"""docs/rules.md: every Drachengold rule row names at least one test, and every named test exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "rules.md"
REF = re.compile(r"(tests/[\w/]+\.py)::(\w+)")


def drachengold_rows() -> list[str]:
    text = DOC.read_text().split("<!-- treasure -->")[0]
    return [line for line in text.splitlines() if re.match(r"\| \d+ \|", line)]


def test_every_rule_row_names_a_test():
    rows = drachengold_rows()
    assert len(rows) >= 100
    numbers = [int(row.split("|")[1]) for row in rows]
    assert numbers == list(range(1, len(rows) + 1))
    for row in rows:
        assert REF.search(row.split("|")[-2]), f"no test named in: {row[:80]}"


def test_every_named_test_is_defined():
    for row in drachengold_rows():
        for path, name in REF.findall(row):
            source = (ROOT / path).read_text()
            assert re.search(rf"^def {name}\(", source, re.M), f"{path}::{name} is not defined"


def test_the_treasure_table_has_its_place():
    assert DOC.read_text().rstrip().endswith("<!-- treasure -->")
