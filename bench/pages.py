"""The chronicle's part of `tally bench run`: how long its pages take to
answer over HTTP from the real server on loopback, on the generated
campaign, at random points. Each kind of page gets its median — the log
filtered by type, by character and by words among them; the figure held to
its target is the slowest kind's median. The first character page after an
append is reported apart (``chronicle_first_character_page_ms``, the median
of several, each right after a command recorded a fact): it pays for
bringing the kept histories up to date (projections/kept.py)."""

from __future__ import annotations

import random
import statistics
import time
import urllib.request
from urllib.parse import urlencode

PAGES_PER_KIND = 10


def _addresses(store, name: str, seed: int, count: int) -> dict[str, list[str]]:
    from projections.reading import load
    from projections import views

    rng = random.Random(seed)
    with store.reading() as tx:
        ctx = load(tx, name)
        first, last = ctx.campaign.start, ctx.campaign.today
        characters = [c.name for c in ctx.world.stable.characters.values()]
        sessions = [s.number for s in ctx.world.sessions.sessions]
        epochs = [e["epoch"] for e in views.epochs(ctx)]
        head = ctx.upto

    def pick(options):
        return options[rng.randrange(len(options))]

    return {
        "campaign": ["?" + urlencode({"day": rng.randint(first, last)}) for _ in range(count)],
        "character": ["character?" + urlencode({"name": pick(characters)}) for _ in range(count)],
        "why": ["why?" + urlencode({"subject": pick(characters), "field": pick(["cash", "wealth", "boons"])})
                for _ in range(count)],
        "event": [f"event?n={rng.randint(1, head)}" for _ in range(count)],
        "dice": [f"dice?epoch={pick(epochs)}" for _ in range(count)],
        "session": [f"session?n={pick(sessions)}" for _ in range(count)],
        "timeline": ["timeline"] * count,
        "log": ["log"] * count,
        "log_by_type": ["log?" + urlencode({"type": pick(["wealth.attempted", "cash.changed", "boon.gained"])})
                        for _ in range(count)],
        "log_by_character": ["log?" + urlencode({"character": pick(characters)}) for _ in range(count)],
        "log_by_words": ["log?" + urlencode({"q": pick(["Wealth", "Income", "a job", "nothing like this"])})
                         for _ in range(count)],
    }


def _get(base: str, address: str) -> float:
    start = time.perf_counter()
    with urllib.request.urlopen(base + address, timeout=60) as response:
        response.read()
        if response.status != 200:
            raise RuntimeError(f"the chronicle answered {response.status} to {address}")
    return (time.perf_counter() - start) * 1000


def pages(store, name: str, seed: int, count: int = PAGES_PER_KIND) -> dict:
    """Median milliseconds per kind of page, the slowest kind's median, and the median first
    character page after an append."""
    from chronicle.app import serving_in_thread
    from commands.economy import change_cash

    figures, medians = {}, []
    addresses = _addresses(store, name, seed, count)
    with serving_in_thread(store, name) as base:
        for kind, wanted in addresses.items():
            times = [_get(base, address) for address in wanted]
            figures[f"chronicle_{kind}_page_median_ms"] = round(statistics.median(times), 1)
            medians.append(statistics.median(times))
        after_append = []
        for i, address in enumerate(addresses["character"][:5]):
            change_cash(store, name, "Hero 1", 1, why=f"before a page {i}", actor="bench")
            after_append.append(_get(base, address))
        figures["chronicle_first_character_page_ms"] = round(statistics.median(after_append), 1)
    figures["chronicle_slowest_page_median_ms"] = round(max(medians + [statistics.median(after_append)]), 1)
    return figures
