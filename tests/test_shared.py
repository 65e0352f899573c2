"""The store of things shared by models of one key (plans, houses, technique lists)."""

from __future__ import annotations

from grader.core.shared import SharedByKey


def test_a_value_is_built_once_per_key_and_the_least_recently_used_goes_first():
    built: list[str] = []

    def build(key: str):
        return lambda: built.append(key) or key.upper()

    store: SharedByKey[str] = SharedByKey(2)
    assert store.get("a", build("a")) == "A"
    assert store.get("b", build("b")) == "B"
    assert store.get("a", build("a")) == "A"  # kept, and now the most recently used
    store.get("c", build("c"))  # drops b, the least recently used
    store.get("a", build("a"))
    store.get("b", build("b"))
    assert built == ["a", "b", "c", "b"]
