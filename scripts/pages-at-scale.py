"""Each chronicle page's time, in-process, on an existing ledger (the bench's campaign):
`python scripts/pages-at-scale.py sqlite:///c1m.db` — first and median of a few requests at
random characters, days, events, epochs and sessions; then the first character page after
each of five appends. For a ledger too big to generate inside `tally bench run` on a
shared machine (docs/performance.md, round three)."""

import random
import statistics
import sys
import time

from chronicle import links
from chronicle.pages import Chronicle
from commands.economy import change_cash
from ledger.store import Store
from projections import views
from projections.reading import load
from projections.timeline import Pin

CAMPAIGN = "Bench Open Table"


def main(url: str) -> None:
    store = Store(url, create=False)
    rng = random.Random(1)
    with store.reading() as tx:
        ctx = load(tx, CAMPAIGN)
        chars = [c.name for c in ctx.world.stable.characters.values()]
        sessions = [s.number for s in ctx.world.sessions.sessions]
        epochs = [e["epoch"] for e in views.epochs(ctx)]
        head, first, last = ctx.upto, ctx.campaign.start, ctx.campaign.today
    print(f"{head} events, {len(chars)} characters, {len(sessions)} sessions")
    chronicle, here = Chronicle(store, None), links.ServerLinks()

    def log(**only):
        return {"types": None, "session": None, "character": None, "text": None, "before": None, "limit": 500,
                **only}

    pages = {
        "campaign": lambda: chronicle.campaign_page(Pin(), here),
        "campaign at a day": lambda: chronicle.campaign_page(Pin(as_of=f"day:{rng.randint(first, last)}"), here),
        "character": lambda: chronicle.character_page(Pin(), here, rng.choice(chars)),
        "why": lambda: chronicle.why_page(Pin(), here, rng.choice(chars), "cash"),
        "event": lambda: chronicle.event_page(Pin(), here, rng.randint(1, head)),
        "dice epoch": lambda: chronicle.dice_page(Pin(), here, rng.choice(epochs)),
        "dice index": lambda: chronicle.dice_index(Pin(), here),
        "session": lambda: chronicle.session_page(Pin(), here, rng.choice(sessions)),
        "timeline": lambda: chronicle.timeline_page(Pin(), here),
        "log": lambda: chronicle.log_page(Pin(), here, log()),
        "log by type": lambda: chronicle.log_page(Pin(), here, log(types=["wealth.attempted"])),
        "log by character": lambda: chronicle.log_page(Pin(), here, log(character=rng.choice(chars))),
        "log by words": lambda: chronicle.log_page(Pin(), here, log(text="zzzz")),
    }
    for name, page in pages.items():
        times = []
        for _ in range(5):
            start = time.perf_counter()
            page()
            times.append((time.perf_counter() - start) * 1000)
        print(f"{name:18s} first {times[0]:8.1f}  median {statistics.median(times):8.1f} ms")
    after = []
    for i in range(5):
        change_cash(store, CAMPAIGN, chars[0], 1, why=f"pages-at-scale {i}", actor="bench")
        start = time.perf_counter()
        chronicle.character_page(Pin(), here, chars[0])
        after.append((time.perf_counter() - start) * 1000)
    print(f"first character page after an append: {[round(t) for t in after]}, median {statistics.median(after):.0f} ms")


if __name__ == "__main__":
    main(sys.argv[1])
