"""A small in-memory LRU for rendered page parts that never change (a finished match's replay).

Keys carry a render version: bump RENDER_VERSION when a template or renderer changes what a cached
part looks like, and old entries are simply never asked for again (they age out). Only parts that
are the same for every visitor may go in: nothing that depends on who is logged in.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from threading import Lock
from typing import TypeVar

T = TypeVar("T")
RENDER_VERSION = 1
MAX_ENTRIES = 128  # a rendered long replay is about 1-2 MB of HTML: this bounds the memory


class LRU:
    def __init__(self, size: int = MAX_ENTRIES) -> None:
        self.size = size
        self._items: OrderedDict[Hashable, object] = OrderedDict()
        self._lock = Lock()

    def get_or_make(self, key: Hashable, make: Callable[[], T]) -> T:
        """The cached value for `key`, made (outside the lock: rendering is slow) when missing."""
        key = (RENDER_VERSION, key)
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]  # type: ignore[return-value]
        value = make()
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return value

    def __len__(self) -> int:
        return len(self._items)
