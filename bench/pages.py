"""The chronicle's part of `tally bench run`: how long its pages take to
answer over HTTP from the real server on loopback, on the generated
campaign, at random points. Each kind of page gets its median; the figure
held to its target is the slowest kind's median. The server keeps a point's
fold for the pages after it (chronicle/pages.py), so the first character
page is reported apart: it pays for the fold the others reuse."""

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
    }


def pages(store, name: str, seed: int, count: int = PAGES_PER_KIND) -> dict:
    """Median milliseconds per kind of page, and the slowest kind's median."""
    figures, medians = {}, []
    from chronicle.app import serving_in_thread

    with serving_in_thread(store, name) as base:
        for kind, addresses in _addresses(store, name, seed, count).items():
            times = []
            for address in addresses:
                start = time.perf_counter()
                with urllib.request.urlopen(base + address, timeout=60) as response:
                    response.read()
                    if response.status != 200:
                        raise RuntimeError(f"the chronicle answered {response.status} to {address}")
                times.append((time.perf_counter() - start) * 1000)
            figures[f"chronicle_{kind}_page_median_ms"] = round(statistics.median(times), 1)
            if kind == "character":  # the first folds the campaign; the pages after it at that point reuse the fold
                figures["chronicle_first_character_page_ms"] = round(times[0], 1)
            medians.append(statistics.median(times))
    figures["chronicle_slowest_page_median_ms"] = round(max(medians), 1)
    return figures
