"""`tally chronicle --out DIR`: the chronicle as a static site that opens from
file:// (a USB stick, a file share). Pages are found by following links from
the campaign page, so no link points at a page that was not written. The
campaign page is pre-rendered for the start, each session's first and last
day and today (day-N.html; the scrubber is a list of those days); every other
page shows the campaign as it is now. The export of the whole log and the
campaign's latest checkpoint are written beside the pages."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Optional

from chronicle import folder, reports
from chronicle.export import write_campaign_export
from chronicle.links import SiteLinks
from chronicle.pages import Chronicle
from ledger.errors import BadInput
from ledger.store import Store
from projections import views
from projections.timeline import Pin

STATIC = Path(__file__).parent / "static"
NOW = Pin()


class Crawl(SiteLinks):
    """The site's links, remembering every page a rendered page links to."""

    def __init__(self) -> None:
        self.wanted: dict[str, tuple] = {}

    def _want(self, name: str, page: tuple) -> str:
        self.wanted.setdefault(name, page)
        return name

    def campaign(self, day: Optional[int] = None, **_ignored) -> str:
        return self._want(super().campaign(day), ("campaign", day))

    def character(self, name: str) -> str:
        return self._want(super().character(name), ("character", name))

    def why(self, subject: str, field: Optional[str] = None, before: Optional[str] = None) -> str:
        return self._want(super().why(subject, field, before), ("why", subject, field, before))

    def event(self, position: int) -> str:
        found = super().event(position)
        self._want(found.partition("#")[0], ("log", (position - 1) // self.LOG_WINDOW))
        return found

    def log_window(self, window: int) -> str:
        return self._want(super().log_window(window), ("log", window))

    def days(self) -> str:
        return self._want(super().days(), ("days",))

    def dice(self, epoch: Optional[int] = None, before: Optional[int] = None) -> str:
        return self._want(super().dice(epoch, before), ("dice", epoch, before))

    def session(self, number: int) -> str:
        return self._want(super().session(number), ("session", number))

    def recap(self, number: int) -> str:
        return self._want(super().recap(number), ("recap", number))

    def luck(self, number: int) -> str:
        return self._want(super().luck(number), ("luck", number))

    def timeline(self, last: Optional[int] = None) -> str:
        return self._want(super().timeline(last), ("timeline", last))

    def log(self) -> str:
        return self.log_window(self.windows - 1)

    def secrets(self) -> str:
        return self._want(super().secrets(), ("secrets",))


def build(store: Store, campaign: Optional[str], out: str, *, force: bool = False) -> dict:
    """Write the static chronicle to ``out``: built aside, then put in place whole (chronicle/folder.py)."""
    own = folder.ledger_files(store)
    target = folder.check_out(out, force, own)
    chronicle = Chronicle(store, campaign)
    try:
        folder.remove_stale(target)
        with chronicle.held():
            (name, days, note), _ = chronicle.read(NOW, lambda c: (c.name, _prerendered(c), views.latest_checkpoint(c)))
            staging = folder.staging(target, name)
            try:
                pages = _write_pages(chronicle, staging, days, note is not None)
                with open(staging / "export.jsonl", "w", encoding="utf-8", newline="\n") as handle:
                    exported = write_campaign_export(chronicle.transaction, name, handle)
                shutil.copytree(STATIC, staging / "static")
                if note is not None:
                    (staging / "checkpoint.txt").write_text(note, encoding="utf-8")
                folder.check_out(out, force, own)  # once more: what is there now is what gets replaced
                folder.put_in_place(staging, target)
            finally:
                folder.discard(staging)  # a failed build's staging folder (a swapped one is gone)
    except OSError as exc:
        raise BadInput(f"cannot write the chronicle to {out}: {exc.strerror or exc}") from None
    return {"out": str(target), "pages": pages, "days": days, "events": exported["events"],
            "withheld": exported["withheld"], "checkpoint": note is not None}


def _prerendered(ctx) -> list[int]:
    """The days the campaign page is written for: its start, the day each session ended, today."""
    days = {ctx.campaign.start, ctx.campaign.today}
    days.update(s["end_day"] for s in views.sessions_list(ctx) if s["end_day"] is not None)
    return sorted(days)


def _write_pages(chronicle: Chronicle, folder: Path, days: list[int], checkpoint: bool) -> int:
    links = Crawl()
    links.checkpoint = checkpoint
    links.windows = max(1, -(-chronicle.head() // links.LOG_WINDOW))
    links.wanted["index.html"] = ("campaign", None)
    for day in days:
        links.campaign(day)
    done: set[str] = set()
    while len(done) < len(links.wanted):
        for name, page in list(links.wanted.items()):
            if name in done:
                continue
            done.add(name)
            (folder / name).write_text(_render(chronicle, links, page, days), encoding="utf-8")
    return len(done)


def _render(chronicle: Chronicle, links: Crawl, page: tuple, days: list[int]) -> str:
    kind, *args = page
    if kind == "campaign":
        pin = NOW if args[0] is None else Pin(as_of=f"day:{args[0]}")
        return chronicle.campaign_page(pin, links, prerendered=tuple(days))
    if kind == "character":
        return chronicle.character_page(NOW, links, args[0])
    if kind == "why":
        return chronicle.why_page(NOW, links, args[0], args[1], args[2])
    if kind == "days":
        return chronicle.days_page(NOW, links, tuple(days))
    if kind == "dice":
        return chronicle.dice_index(NOW, links, args[1]) if args[0] is None else chronicle.dice_page(NOW, links, args[0])
    if kind == "session":
        return chronicle.session_page(NOW, links, args[0])
    if kind in ("recap", "luck"):
        return getattr(reports, f"{kind}_page")(chronicle, NOW, links, args[0])
    if kind == "timeline":
        return chronicle.timeline_page(NOW, links, args[0])
    if kind == "secrets":
        return chronicle.secrets_page(NOW, links)
    return chronicle.log_window_page(NOW, links, args[0])
