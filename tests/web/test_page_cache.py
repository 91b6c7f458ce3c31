"""The page-part LRU: made once per key, bounded, and a new render version never reads old parts."""

from __future__ import annotations

from ladder.web import page_cache
from ladder.web.page_cache import LRU


def test_made_once_per_key_and_the_least_recently_used_goes_first(monkeypatch):
    cache, made = LRU(size=2), []

    def make(key):
        return lambda: made.append(key) or f"html {key}"

    assert cache.get_or_make(1, make(1)) == cache.get_or_make(1, make(1)) == "html 1"
    cache.get_or_make(2, make(2))
    cache.get_or_make(1, make(1))  # 1 is now the most recent
    cache.get_or_make(3, make(3))  # so 2 is dropped
    assert len(cache) == 2 and made == [1, 2, 3]
    cache.get_or_make(1, make(1))
    cache.get_or_make(2, make(2))
    assert made == [1, 2, 3, 2]
    monkeypatch.setattr(page_cache, "RENDER_VERSION", page_cache.RENDER_VERSION + 1)
    cache.get_or_make(2, make(2))
    assert made == [1, 2, 3, 2, 2]  # a new render version renders again
