"""Names a bot or a user may not have: a deny list checked at upload and at sign-up.

The list is words (settings.name_deny_list, comma-separated, plus the built-in ones unless the
operator replaces them); a name is refused when, folded (lower case, the usual digit-for-letter
swaps undone, separators dropped), it contains a folded word. The refusal says which word, so an
honest author knows what to change; matching is deliberately blunt: a false refusal costs a
rename, a name that slips through costs a moderator's action (services/moderation.py).
"""

from __future__ import annotations

import re
from functools import lru_cache

# A short built-in list of words a public ladder refuses anywhere in a name (slurs and the like);
# the operator adds their own with LADDER_NAME_DENY_LIST (or replaces these: see docs/operations.md).
BUILTIN = ("fuck", "nazi", "hitler", "nigger", "faggot", "retard", "cunt", "rape", "kike", "heil")
RESERVED_PREFIXES = ("hidden-",)  # what a moderator's hidden name becomes: never chosen by anyone
_FOLD = str.maketrans("0134578@$", "oieastbas")
_SEPARATORS = re.compile(r"[^a-z]")


def fold(text: str) -> str:
    return _SEPARATORS.sub("", text.lower().translate(_FOLD))


@lru_cache(maxsize=8)
def deny_words(setting: str) -> tuple[str, ...]:
    """The folded words of a deny-list setting ("-" or starting with "-,": the built-in words too)."""
    parts = [p.strip() for p in setting.split(",")]
    words = [p for p in parts if p and p != "-"]
    if "-" in parts:
        words += BUILTIN
    return tuple(dict.fromkeys(w for w in (fold(w) for w in words) if w))


def refusal(name: str, setting: str = "-") -> str | None:
    """Why `name` is refused, or None when it may be used."""
    lowered = name.strip().lower()
    for prefix in RESERVED_PREFIXES:
        if lowered.startswith(prefix):
            return f"names starting with {prefix!r} are reserved for moderators"
    folded = fold(name)
    for word in deny_words(setting):
        if word in folded:
            return (f"the name {name!r} is refused: it contains {word!r}, which this ladder's name rules "
                    "(its deny list) do not allow; choose another name")
    return None
