"""The process-wide render caches hold a bounded number of bytes, not only of entries
(games/platform/bounded_cache.py)."""

from __future__ import annotations

from games.platform import swaps
from games.platform.bounded_cache import ENTRY_OVERHEAD, BoundedCache
from games.platform.presenters import SharedPartials
from games.platform.templatetags.shared_includes import SharedRenders


def test_the_oldest_entries_go_once_the_bytes_are_over_the_bound() -> None:
    cache: BoundedCache[str] = BoundedCache(max_entries=100, max_bytes=3 * (ENTRY_OVERHEAD + 20))
    for name in "abc":
        cache.put(name * 10, "x" * 10)
    cache.get("a" * 10)  # used lately: kept before the others
    cache.put("d" * 10, "x" * 10)
    assert [cache.get(k * 10) is not None for k in "abcd"] == [True, False, True, True]
    assert cache.bytes == 3 * (ENTRY_OVERHEAD + 20)


def test_an_entry_read_by_an_equal_copy_of_its_key_is_the_most_recent() -> None:
    cache: BoundedCache[str] = BoundedCache(max_entries=3, max_bytes=100_000)
    keys = [("t.html", bytes([n]) * 300) for n in range(3)]
    for key in keys:
        cache.put(key, "x")
    cache.put(keys[0], "y")  # put again: the most recent, under the key put last
    assert cache.get(("t.html", bytes(keys[1][1]))) == "x"  # read by a copy
    cache.put(("t.html", b"new"), "x")
    assert [cache.get(key) for key in keys] == ["y", "x", None]
    cache.put(("t.html", b"newer"), "x")  # the entry not read since goes
    assert cache.get(("t.html", b"new")) is None and cache.get(keys[0]) == "y"


def test_an_entry_put_again_is_counted_once() -> None:
    cache: BoundedCache[str] = BoundedCache(max_entries=100, max_bytes=10_000)
    cache.put("k", "x" * 100)
    cache.put("k", "y" * 50)
    assert cache.get("k") == "y" * 50 and cache.bytes == ENTRY_OVERHEAD + 51


def test_an_entry_bigger_than_the_bound_is_not_kept() -> None:
    cache: BoundedCache[str] = BoundedCache(max_entries=100, max_bytes=1_000)
    cache.put("k", "x" * 2_000)
    assert cache.get("k") is None and len(cache) == 0 and cache.bytes == 0


def test_the_render_caches_count_their_keys_content_and_their_html() -> None:
    renders, partials = SharedRenders(), SharedPartials()
    big_values = b"v" * (renders.MAX_BYTES // 4)
    for n in range(8):
        renders.put(("card.html", True, None, None, big_values + bytes([n])), "<p>card</p>")
        partials.put(("hand.html", True, True, big_values + bytes([n])), "<p>hand</p>")
    assert len(renders._entries) < 4 and renders._entries.bytes <= renders.MAX_BYTES
    assert len(partials._entries) < 4 and partials._entries.bytes <= partials.MAX_BYTES
    assert renders.get(("card.html", True, None, None, big_values + bytes([7]))) == "<p>card</p>"


def test_the_trees_count_their_html_and_their_elements() -> None:
    trees = swaps.Trees()
    html = "<ul>" + "".join(f'<li id="i{n}">{n}</li>' for n in range(50)) + "</ul>"
    tree = trees.of(html)
    assert trees.of(html) is tree
    assert trees._entries.bytes == len(html) + 50 * swaps.ELEMENT_BYTES + ENTRY_OVERHEAD


def test_the_swaps_kept_for_a_pair_of_trees_keep_neither_tree_alive() -> None:
    import gc
    import weakref

    items = "".join(f'<li id="i{n}">{n}</li>' for n in range(30))
    old = swaps.Tree(f'<ul id="l">{items}</ul>')
    new = swaps.Tree(f'<ul id="l">{items.replace(">7<", ">seven<")}</ul>')
    assert swaps.swaps(old, new) == ['<li hx-swap-oob="true" id="i7">seven</li>']
    gone = weakref.ref(old)
    del old
    gc.collect()
    assert gone() is None


def test_a_key_written_by_orjson_is_kept_at_its_own_size() -> None:
    import tracemalloc

    import orjson

    cache: BoundedCache[str] = BoundedCache(max_entries=1000, max_bytes=10_000_000)
    tracemalloc.start()
    try:
        for n in range(200):
            cache.put(("t.html", orjson.dumps({"tile": n, "name": "Dock"})), "<p>tile</p>")
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert held < 200 * 1024  # orjson's own buffers were 4 KB and more a key
    assert cache.get(("t.html", orjson.dumps({"tile": 7, "name": "Dock"}))) == "<p>tile</p>"


def test_a_content_key_is_kept_at_its_own_size() -> None:
    import tracemalloc

    from games.platform.rendering import content_key

    tracemalloc.start()
    try:
        keys = [content_key({"tile": n, "name": "Dock"}) for n in range(200)]
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(keys) == 200 and held < 200 * 1024


def test_a_key_of_own_bytes_is_kept_as_the_very_key_looked_up() -> None:
    import orjson

    from games.platform.rendering import OwnBytes, own_bytes

    cache: BoundedCache[str] = BoundedCache(max_entries=10, max_bytes=10_000)
    written = own_bytes(orjson.dumps({"hand": [1, 2, 3]}))
    key = ("t.html", True, written)
    cache.put(key, "<p>hand</p>")
    kept_key = next(iter(cache._entries))
    # Not copied again: the hash its look-up worked out is the one kept.
    assert kept_key[2] is written and isinstance(written, OwnBytes)
    # Looked up by plain bytes of the same content all the same.
    assert cache.get(("t.html", True, orjson.dumps({"hand": [1, 2, 3]}))) == "<p>hand</p>"


def test_own_bytes_are_kept_at_their_own_size() -> None:
    import tracemalloc

    import orjson

    from games.platform.rendering import own_bytes

    cache: BoundedCache[str] = BoundedCache(max_entries=1000, max_bytes=10_000_000)
    tracemalloc.start()
    try:
        for n in range(200):
            cache.put(("t.html", own_bytes(orjson.dumps({"tile": n}))), "<p>tile</p>")
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert held < 200 * 1024
