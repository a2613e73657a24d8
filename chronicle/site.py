"""`tally chronicle --out DIR`: the chronicle as a static site that opens from
file:// (a USB stick, a file share). Pages are found by following links from
the campaign page, so no link points at a page that was not written. The
campaign page is pre-rendered for the start, each session's first and last
day and today (day-N.html; the scrubber is a list of those days); every other
page shows the campaign as it is now. The export of the whole log and the
campaign's latest checkpoint are written beside the pages."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Optional

from chronicle.links import SiteLinks
from chronicle.pages import Chronicle
from ledger.errors import BadInput
from ledger.store import Store
from commands.transfer import export
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
        return self._want(super().event(position), ("event", position))

    def dice(self, epoch: Optional[int] = None, before: Optional[int] = None) -> str:
        return self._want(super().dice(epoch, before), ("dice", epoch, before))

    def session(self, number: int) -> str:
        return self._want(super().session(number), ("session", number))

    def timeline(self, last: Optional[int] = None) -> str:
        return self._want(super().timeline(last), ("timeline", last))

    def log(self) -> str:
        return self._want(super().log(), ("log",))


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def check_out(out: str, force: bool) -> Path:
    """The folder to write: refused if it is a file, the filesystem's root, or a folder with
    something in it and no --force."""
    if not out.strip() or not out.isprintable() or not _encodable(out):
        raise BadInput(f"--out {out!r} is not a folder path (blank, control characters or not UTF-8): "
                       "give a new or empty folder")
    try:
        path = Path(out).absolute()
        if path.exists() and not path.is_dir():
            raise BadInput(f"{out} is a file, not a folder: give --out a new or empty folder")
        if path.parent == path:
            raise BadInput(f"{out} is the filesystem's root: give the chronicle a folder of its own")
        if path.is_dir() and any(path.iterdir()) and not force:
            raise BadInput(f"{out} is not empty: give an empty or new folder, or --force to write the chronicle "
                           "into it")
        if not path.parent.is_dir():
            raise BadInput(f"the folder {str(path.parent)!r} does not exist: create it first")
    except (OSError, ValueError) as exc:
        raise BadInput(f"cannot write the chronicle to {out!r}: {getattr(exc, 'strerror', None) or 'not a usable path'}") from None
    return path


def build(store: Store, campaign: Optional[str], out: str, *, force: bool = False) -> dict:
    """Write the static chronicle to ``out``; all of it, or nothing (it is built aside, then moved in)."""
    target = check_out(out, force)
    chronicle = Chronicle(store, campaign)
    try:
        staging = Path(tempfile.mkdtemp(prefix=".chronicle-", dir=target.parent))
    except OSError as exc:
        raise BadInput(f"cannot write the chronicle beside {out}: {exc.strerror}") from None
    try:
        with chronicle.held():
            (days, note), _ = chronicle.read(NOW, lambda c: (_prerendered(c), views.latest_checkpoint(c)))
            pages = _write_pages(chronicle, staging, days, note is not None)
        shutil.copytree(STATIC, staging / "static")
        events = export(store, str(staging / "export.jsonl"))
        if note is not None:
            (staging / "checkpoint.txt").write_text(note, encoding="utf-8")
        _move_in(staging, target)
    except OSError as exc:
        raise BadInput(f"cannot write the chronicle to {out}: {exc.strerror}") from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return {"out": str(target), "pages": pages, "days": days, "events": events, "checkpoint": note is not None}


def _prerendered(ctx) -> list[int]:
    days = {ctx.campaign.start, ctx.campaign.today}
    for s in views.sessions_list(ctx):
        days.add(s["start_day"])
        if s["end_day"] is not None:
            days.add(s["end_day"])
    return sorted(days)


def _write_pages(chronicle: Chronicle, folder: Path, days: list[int], checkpoint: bool) -> int:
    links = Crawl()
    links.checkpoint = checkpoint
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
    if kind == "event":
        return chronicle.event_page(NOW, links, args[0])
    if kind == "dice":
        return chronicle.dice_index(NOW, links, args[1]) if args[0] is None else chronicle.dice_page(NOW, links, args[0])
    if kind == "session":
        return chronicle.session_page(NOW, links, args[0])
    if kind == "timeline":
        return chronicle.timeline_page(NOW, links, args[0])
    return chronicle.log_page(NOW, links, {"limit": 10 ** 9})


def _move_in(staging: Path, target: Path) -> None:
    if not target.exists():
        os.replace(staging, target)
        return
    for item in staging.iterdir():
        destination = target / item.name
        if destination.is_dir() and not destination.is_symlink():
            shutil.rmtree(destination)
        elif destination.exists() or destination.is_symlink():
            destination.unlink()
        os.replace(item, destination)
