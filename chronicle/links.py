"""Where a page's links point: the live server's query strings, or the static
site's file names. Every link is relative and every page sits at the top
level, so the same templates work under `tally serve` and from file://."""

from __future__ import annotations

import hashlib
import re
from typing import Optional
from urllib.parse import quote, urlencode

from ledger.names import key


def slug(name: str) -> str:
    """A file name for a name: readable, and distinct for names that differ."""
    readable = re.sub(r"[^a-z0-9]+", "-", key(name).lower()).strip("-")[:40] or "x"
    return f"{readable}-{hashlib.sha256(key(name).encode()).hexdigest()[:6]}"


class ServerLinks:
    """Links of the live view: every page carries the point it is pinned at."""

    static_site = False

    def __init__(self, pin: Optional[dict] = None) -> None:
        self.pin = {k: v for k, v in (pin or {}).items() if v not in (None, "")}

    def _to(self, page: str, **params) -> str:
        query = urlencode({**{k: v for k, v in params.items() if v is not None}, **self.pin})
        return f"{page}?{query}" if query else page

    def campaign(self, **pin) -> str:
        if pin:
            query = urlencode({k: v for k, v in pin.items() if v is not None})
            return f"./?{query}" if query else "./"
        return self._to("./")

    def character(self, name: str) -> str:
        return self._to("character", name=name)

    def why(self, subject: str, field: Optional[str] = None, before: Optional[str] = None) -> str:
        return self._to("why", subject=subject, field=field, before=before)

    def event(self, position: int) -> str:
        return self._to("event", n=position)

    def dice(self, epoch: Optional[int] = None, before: Optional[int] = None) -> str:
        return self._to("dice", epoch=epoch, before=before)

    def session(self, number: int) -> str:
        return self._to("session", n=number)

    def recap(self, number: int) -> str:
        return self._to("recap", n=number)

    def luck(self, number: int) -> str:
        return self._to("luck", n=number)

    def timeline(self, last: Optional[int] = None) -> str:
        return self._to("timeline", last=last)

    def log(self, **filters) -> str:
        return self._to("log", **filters)

    def secrets(self) -> str:
        return self._to("secrets")

    def asset(self, name: str) -> str:
        return f"static/{quote(name)}"


class SiteLinks:
    """Links of the static site: one file per page (the campaign page also one
    per pre-rendered day), all in one folder."""

    static_site = True
    pin: dict = {}
    checkpoint = False  # whether checkpoint.txt is written beside the pages
    # The log is written a window of positions a page (log-K.html), newest first within it; an
    # event's details are its row there, not a page of its own. ``windows``: how many there are.
    LOG_WINDOW = 500
    windows = 1

    def campaign(self, day: Optional[int] = None, **_ignored) -> str:
        return f"day-{day}.html" if day is not None else "index.html"

    def character(self, name: str) -> str:
        return f"character-{slug(name)}.html"

    def why(self, subject: str, field: Optional[str] = None, before: Optional[str] = None) -> str:
        return (f"why-{slug(subject)}" + (f"-{slug(field)}" if field else "")
                + (f"-before-{before}" if before else "") + ".html")

    def event(self, position: int) -> str:
        return f"{self.log_window((position - 1) // self.LOG_WINDOW)}#e{position}"

    def log_window(self, window: int) -> str:
        return "log.html" if window >= self.windows - 1 else f"log-{window}.html"

    def days(self) -> str:
        return "days.html"

    def dice(self, epoch: Optional[int] = None, before: Optional[int] = None) -> str:
        if epoch is not None:
            return f"dice-{epoch}.html"
        return f"dice-before-{before}.html" if before is not None else "dice.html"

    def session(self, number: int) -> str:
        return f"session-{number}.html"

    def recap(self, number: int) -> str:
        return f"recap-{number}.html"

    def luck(self, number: int) -> str:
        return f"luck-{number}.html"

    def timeline(self, last: Optional[int] = None) -> str:
        return f"timeline-{last}.html" if last is not None else "timeline.html"

    def log(self, **_filters) -> str:
        return "log.html"

    def secrets(self) -> str:
        return "secrets.html"

    def asset(self, name: str) -> str:
        return f"static/{quote(name)}"
