"""The chronicle's pages: each asks projections/views.py for its figures at
the point the reader chose, and renders them with a template. Pages only
read (one read transaction each); nothing here computes a figure."""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from contextlib import contextmanager
from typing import Callable, Optional

from jinja2 import Environment, PackageLoader, select_autoescape

from chronicle.charts import step_chart, timeline_band
from chronicle.escaping import script_json
from chronicle.security import POLICY
from projections import kept
from projections.reading import load, resolve_campaign
from ledger.errors import BadInput
from ledger.events.registry import known_types
from ledger.store import Store
from projections import sealed, views
from projections.timeline import Pin

ENV = Environment(loader=PackageLoader("chronicle", "templates"), autoescape=select_autoescape(["html"]),
                  trim_blocks=True, lstrip_blocks=True)
# The stables' columns, where a character's sheet has them (the campaign's modules decide).
COLUMNS = ("lifestyle", "wealth", "cash", "boons", "hp", "xp", "level", "black_marks", "silver", "renown")

LABELLED_DAYS = 3660  # the scrubber names each day in the campaign's words up to ten years; beyond, "day N"
# Folds kept for the next page (each point's), and the largest kept: at 20,000 events a fold is
# some 5,400 steps and 20 MB (measured); a log of more than about 90,000 events folds afresh for
# each character or why page.
FOLDS_KEPT, FOLD_KEPT_UP_TO = 3, 25_000
LOG_PAGE = 500  # rows of the log on one page
LABELS = {"hp": "HP", "xp": "XP"}

ENV.globals["static_policy"] = POLICY
ENV.filters["signed"] = lambda v: f"{v:+d}" if isinstance(v, int) else v
ENV.filters["shown"] = lambda v: "–" if v is None else ("yes" if v else "no") if isinstance(v, bool) else v


def _whole(text: str, what: str) -> int:
    if not (text.isascii() and text.isdigit()) or len(text) > 12:
        raise BadInput(f"{what} takes a whole number, not {text!r}")
    return int(text)


def pin_of(params: dict) -> Pin:
    """The point a page is pinned at: ?date=GAME-DATE (the campaign's words, or
    day:N), ?day=N (the scrubber), ?recorded=ISO-TIME (as recorded then)."""
    date, day, recorded = ((params.get(k) or "").strip() or None for k in ("date", "day", "recorded"))
    as_of = date or (f"day:{_whole(day, 'day=')}" if day else None)
    return Pin(as_of=as_of, as_recorded=recorded)


def log_filters(params: dict) -> dict:
    """The log page's filters: ?type=…&session=N&character=NAME&q=WORDS&before=N."""
    session, before = (params.get("session") or "").strip(), (params.get("before") or "").strip()
    kind, limit = (params.get("type") or "").strip(), (params.get("limit") or "").strip()
    if kind and kind not in known_types():
        raise BadInput(f"type= takes an event type such as dice.rolled or wealth.attempted, not {kind!r}")
    if limit and not 1 <= _whole(limit, "limit=") <= LOG_PAGE:
        raise BadInput(f"limit= takes 1 to {LOG_PAGE} rows, not {limit}")
    return {"types": [kind] if kind else None, "session": _whole(session, "session=") if session else None,
            "character": (params.get("character") or "").strip() or None, "text": (params.get("q") or "").strip() or None,
            "before": _whole(before, "before=") if before else None, "limit": int(limit) if limit else LOG_PAGE}


def _checkpoint(note: Optional[str]) -> Optional[dict]:
    """A signed checkpoint's size and root, for the page's check of an export (static/export.js)."""
    if note is None:
        return None
    origin, size, root = note.split("\n")[:3]
    return {"origin": origin, "size": int(size), "root": root, "json": script_json({"size": int(size), "root": root})}


class Chronicle:
    """The pages of one campaign in one ledger, rendered with the given links."""

    def __init__(self, store: Store, campaign: Optional[str]) -> None:
        self.store, self.campaign = store, campaign
        self._held: Optional[tuple[object, dict]] = None
        self._name: Optional[str] = None
        self._folds: OrderedDict = OrderedDict()
        self._folds_lock = threading.Lock()  # the server renders pages on several threads at once

    def folded(self, ctx):
        """The point's fold (projections/views.fold), kept for the next page at the same point:
        the log is append-only, so the events up to a position, read as of a day, never change."""
        point = (ctx.name, ctx.upto, ctx.point.as_of)
        with self._folds_lock:
            found = self._folds.get(point)
            if found is not None:
                self._folds.move_to_end(point)
                return found
        found = views.fold(ctx)  # outside the lock: two pages at one new point may both fold it, and agree
        if len(found.steps) <= FOLD_KEPT_UP_TO:
            with self._folds_lock:
                self._folds[point] = found
                while len(self._folds) > FOLDS_KEPT:
                    self._folds.popitem(last=False)
        return found

    def keep_up(self) -> None:
        """The kept histories (projections/kept.py) caught up with the ledger before a page reads
        them: after an append, the new events alone are folded; a reader role's pages, which
        may not write them, fold what is missing instead."""
        if self._held is not None:
            return
        if self._name is None:
            with self.store.reading() as tx:
                self._name = resolve_campaign(tx, self.campaign)
        kept.ensure(self.store, self._name)

    def _index(self, ctx):
        """Rendering a whole site, every event page is read off one index of the point's events."""
        if self._held is None:
            return None
        if "_chronicle_index" not in ctx.__dict__:
            ctx.__dict__["_chronicle_index"] = views.consequences(ctx)
        return ctx.__dict__["_chronicle_index"]

    @contextmanager
    def held(self):
        """Render many pages from one read transaction, each point loaded once (the static site)."""
        self.keep_up()
        with self.store.reading() as tx:
            self._held = (tx, {})
            try:
                yield self
            finally:
                self._held = None

    @property
    def transaction(self):
        """The read transaction held (``held``): what is written beside the pages reads the same ledger."""
        if self._held is None:
            raise RuntimeError("no read transaction is held")
        return self._held[0]

    @contextmanager
    def _context(self, pin: Pin):
        if self._held is not None:
            tx, loaded = self._held
            if pin not in loaded:
                loaded[pin] = load(tx, self.campaign, point=pin)
            yield tx, loaded[pin]
            return
        with self.store.reading() as tx:
            yield tx, load(tx, self.campaign, point=pin)

    def read(self, pin: Pin, reader: Callable) -> tuple[object, dict]:
        """``reader(ctx)`` on the campaign at the point, and what every page shows of the point itself."""
        with self._context(pin) as (tx, ctx):
            found = reader(ctx)
            calendar = ctx.campaign.calendar
            last = tx.last_day(ctx.name, tx.campaign_head(ctx.name) or 0)
            point = {"campaign": ctx.name, "today": calendar.format(ctx.campaign.today),
                     "today_day": ctx.campaign.today, "start_day": ctx.campaign.start,
                     "start": calendar.format(ctx.campaign.start), "last_day": max(last or 0, ctx.campaign.today),
                     "as_of": ctx.point.as_of, "as_recorded": ctx.point.as_recorded,
                     "pinned": ctx.point.as_of is not None or ctx.point.as_recorded is not None,
                     "date": calendar.format}
        return found, point

    @staticmethod
    def carried(point: dict) -> dict:
        """The pin a page's links carry on: the day resolved, the recorded instant as given."""
        return {"day": point["as_of"], "recorded": point["as_recorded"]}

    def render(self, template: str, links, point: dict, **context) -> str:
        return ENV.get_template(template).render(links=links, point=point, **context)

    # -- the pages -------------------------------------------------------

    def campaign_page(self, pin: Pin, links, prerendered: tuple[int, ...] = ()) -> str:
        (info, reputation), point = self.read(pin, lambda c: (views.overview(c), views.reputation_series(c)))
        charts = [step_chart(f"Reputation with {faction}", points, point["start_day"], point["today_day"],
                             point["date"], links.why(f"rep:{faction}"), f"chart-rep-{i}")
                  for i, (faction, points) in enumerate(reputation.items())]
        columns = [f for f in COLUMNS if any(f in c for c in info["characters"])]
        first, last = point["start_day"], point["last_day"]
        # The scrubber names the day under its thumb in the campaign's own calendar (up to ten years of days).
        labels = {day: point["date"](day) for day in range(first, last + 1)} if last - first <= LABELLED_DAYS else {}
        day_labels = script_json(labels)
        return self.render("campaign.html", links, point, info=info, charts=charts, columns=columns,
                           prerendered=prerendered, day_labels=day_labels, title=info["name"])

    def character_page(self, pin: Pin, links, name: str) -> str:
        self.keep_up()
        (found, series), point = self.read(pin, lambda c: (views.character(c, name),
                                                           views.series(c, name, lambda: self.folded(c))))
        charts = [step_chart(LABELS.get(field, field.replace("_", " ").capitalize()), points, point["start_day"], point["today_day"],
                             point["date"], links.why(found["name"], field), f"chart-{field}")
                  for field, points in series.items()]
        return self.render("character.html", links, point, sheet=found, charts=charts, title=found["name"])

    def why_page(self, pin: Pin, links, subject: str, field: Optional[str], before: Optional[str] = None) -> str:
        self.keep_up()
        (label, value, rows, earlier), point = self.read(pin, lambda c: views.figure_story_page(
            c, subject, field, lambda: self.folded(c), before))
        return self.render("why.html", links, point, label=label, value=value, rows=rows, subject=subject,
                           field=field, earlier=earlier, paged=before is not None, title=label)

    def event_page(self, pin: Pin, links, position: int) -> str:
        found, point = self.read(pin, lambda c: views.event(c, position, self._index(c)))
        return self.render("event.html", links, point, event=found,
                           payload=json.dumps(found["payload"], indent=2, ensure_ascii=False),
                           title=f"Event {position}")

    def dice_index(self, pin: Pin, links, before: Optional[int] = None) -> str:
        (found, note), point = self.read(pin, lambda c: (views.epochs_page(c, before), views.latest_checkpoint(c)))
        return self.render("dice_index.html", links, point, epochs=found["epochs"], older=found["older_before"],
                           paged=before is not None, checkpoint=_checkpoint(note), title="Dice")

    def dice_page(self, pin: Pin, links, number: int) -> str:
        (found, events, note), point = self.read(pin, lambda c: (
            views.epoch(c, number), views.epoch_events(c, number), views.latest_checkpoint(c)))
        return self.render("dice.html", links, point, epoch=found, events_json=script_json(events),
                           checkpoint=_checkpoint(note), title=f"Dice epoch {number}")

    def session_page(self, pin: Pin, links, number: int) -> str:
        found, point = self.read(pin, lambda c: views.session_page(c, number))
        return self.render("session.html", links, point, session=found, title=f"Session {number}")

    def timeline_page(self, pin: Pin, links, last: Optional[int] = None) -> str:
        (rows, count), point = self.read(pin, lambda c: (views.timeline(c, last, views.LIST_PAGE),
                                                         c.world.sessions.next_number - 1))
        numbers = [r["number"] for r in rows if r["kind"] == "session"]
        first_day = rows[0]["from_day"] if rows else point["start_day"]
        last_day = rows[-1]["to_day"] if rows else point["today_day"]
        band = timeline_band(rows, first_day, last_day, point["date"], links.session)
        earlier = numbers[0] - 1 if numbers and numbers[0] > 1 else None
        later = min(numbers[-1] + views.LIST_PAGE, count) if numbers and numbers[-1] < count else None
        return self.render("timeline.html", links, point, rows=rows, band=band, earlier=earlier, later=later,
                           count=count, title="Timeline")

    def head(self) -> int:
        """The last position the pages read (the static site's log windows run up to it)."""
        with self._context(Pin()) as (_, ctx):
            return ctx.upto

    def log_window_page(self, pin: Pin, links, window: int) -> str:
        """The static site's log: one window of positions, each event with its details."""
        size = links.LOG_WINDOW
        found, point = self.read(pin, lambda c: views.log_window(c, window * size + 1, (window + 1) * size))
        return self.render("log.html", links, point, log=found, filters={}, window=window,
                           older=links.log_window(window - 1) if window > 0 else None,
                           newer=links.log_window(window + 1) if window < links.windows - 1 else None,
                           title="Log")

    def days_page(self, pin: Pin, links, days: tuple[int, ...]) -> str:
        _, point = self.read(pin, lambda c: None)
        return self.render("days.html", links, point, days=days, title="The campaign, day by day")

    def secrets_page(self, pin: Pin, links) -> str:
        """The sealed secrets, and the events an in-browser check recomputes them from (static/secrets.js)."""
        (found, events), point = self.read(pin, lambda c: (sealed.secrets_view(c), sealed.secret_events(c)))
        return self.render("secrets.html", links, point, secrets=found, events_json=script_json(events),
                           revealed=any(s["revealed"] for s in found), title="Sealed secrets")

    def log_page(self, pin: Pin, links, filters: dict) -> str:
        found, point = self.read(pin, lambda c: views.log_rows(c, **filters))
        return self.render("log.html", links, point, log=found, filters=filters, title="Log")
