"""The engine's and the bots' board caches keep what was used lately, within a bound."""

from __future__ import annotations

from games.chudopoly.engine.recent import Recent


def test_an_entry_put_is_found_again() -> None:
    cache: Recent[str, int] = Recent(4)
    cache.put("a", 1)
    assert cache.get("a") == 1
    assert cache.get("b") is None


def test_the_cache_never_holds_more_than_two_generations() -> None:
    cache: Recent[int, int] = Recent(3)
    for k in range(20):
        cache.put(k, k)
    assert len(cache) <= 6
    assert cache.get(19) == 19
    assert cache.get(0) is None


def test_an_entry_used_lately_survives_the_next_turnover() -> None:
    cache: Recent[str, int] = Recent(2)
    cache.put("kept", 1)
    cache.put("x", 2)
    cache.put("y", 3)  # the first generation ("kept", "x") becomes the older one
    assert cache.get("kept") == 1  # found in the older one: moved to the newer
    cache.put("z", 4)  # another turnover drops "x"
    assert cache.get("kept") == 1
    assert cache.get("x") is None


def test_clear_forgets_everything() -> None:
    cache: Recent[str, int] = Recent(2)
    cache.put("a", 1)
    cache.clear()
    assert len(cache) == 0
    assert cache.get("a") is None
