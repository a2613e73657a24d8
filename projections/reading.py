"""The one door for reading: a campaign at a point on any of the three time
axes (an event, a session's edge, a game date, a recorded instant), as a
``Context`` that commands decide against and every query, page and report
reads from. Nothing else opens a fold of the whole world."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Callable, Optional, Sequence, TypeVar

from msgspec.structs import replace

from ledger.envelope import Envelope
from ledger.errors import BadInput, NotFound, RuleRefused
from ledger.store import Store, Transaction
from projections import campaign as campaign_model
from projections import dice as dice_model
from projections import replay
from projections import world as world_model
from projections.timeline import SESSION_EDGES, Pin, Point, recorded_zone

T = TypeVar("T")


@dataclass
class Context:
    """The campaign as a command or query sees it. The world comes from the
    nearest usable snapshot; the full event list and the dice history are
    read only by the few commands that ask for them."""

    tx: Transaction
    name: str
    actor: str
    point: Point  # the point resolved in the campaign's calendar
    upto: int  # the last position the point sees
    world: world_model.World

    @cached_property
    def envelopes(self) -> list[Envelope]:
        """The campaign's events recorded by the point, voids included, in position order."""
        return list(self.tx.read(self.name, upto=self.upto))

    def event(self, position: int) -> Optional[Envelope]:
        """The campaign's event at a position the point sees, or None (one lookup)."""
        if position > self.upto:
            return None
        found = self.tx.get(position)
        return found if found is not None and found.campaign == self.name else None

    def events(self, *, types: Optional[Sequence[str]] = None, session: Optional[int] = None,
               after: int = 0) -> list[Envelope]:
        """The campaign's events the point sees, of some types or one session, in position order."""
        return list(self.tx.read(self.name, after=after, upto=self.upto, types=types, session=session))

    @cached_property
    def dice(self) -> dice_model.DiceState:
        """Every dice epoch up to the point (reads every roll: for listings and audits)."""
        return dice_model.fold(self.tx.read(self.name, upto=self.upto, types=replay.DICE_TYPES))

    @cached_property
    def epoch(self) -> Optional[dice_model.Epoch]:
        """The open dice epoch, or None (reads only the latest epoch's events)."""
        return replay.current_epoch_state(self.tx, self.name, self.upto).current

    @property
    def campaign(self) -> campaign_model.CampaignState:
        return self.world.campaign

    @property
    def today(self) -> int:
        return self.campaign.today

    @property
    def session(self):
        """The open session, or None between sessions."""
        return self.world.sessions.current

    @property
    def session_number(self) -> Optional[int]:
        return self.session.number if self.session else None

    @property
    def period(self) -> str:
        """What a once-per-session limit counts in: the session, or the downtime epoch."""
        if self.session is not None:
            return f"session {self.session.number}"
        epoch = self.epoch
        return f"downtime epoch {epoch.number if epoch else 0}"

    def require(self, module: str) -> None:
        if not self.campaign.runs(module):
            raise RuleRefused(
                f"campaign {self.name} does not run the {module} rules "
                f"(it runs {', '.join(self.campaign.rules) or 'none'})"
            )


def resolve_campaign(tx: Transaction, name: Optional[str]) -> str:
    names = tx.campaigns()
    if name is not None:
        if name not in names:
            hint = f"known: {', '.join(names)}" if names else "create it with `tally campaign new NAME`"
            raise NotFound(f"no campaign named {name!r} ({hint})")
        return name
    if not names:
        raise NotFound("no campaign yet: create one with `tally campaign new NAME --start DATE`")
    if len(names) > 1:
        raise RuleRefused(
            f"this database holds {len(names)} campaigns ({', '.join(names)}): choose one with --campaign NAME"
        )
    return names[0]


def load(tx: Transaction, name: Optional[str], actor: str = "", point: Optional[Pin] = None,
         game_date: Optional[str] = None, use_snapshots: bool = True) -> Context:
    """The campaign as the ledger held it at ``point`` (default: now).

    ``game_date`` records a fact late: the world is folded as of that in-game
    day and it becomes the context's today, so the command decides against
    the campaign as it stood then."""
    name = resolve_campaign(tx, name)
    founding = tx.first(name)
    founded = campaign_model.fold([founding])
    calendar = founded.calendar
    point = point or Pin()
    if point.at_session is not None:
        point = point.on_session(tx.read(name, types=SESSION_EDGES))
    resolved = point.resolve(calendar)
    if game_date is not None:
        resolved = Point(as_of=calendar.parse_or_day(game_date))
    start = founded.start
    if resolved.as_of is not None and resolved.as_of < start:
        raise BadInput(f"campaign {name} begins on {calendar.format(start)}, after "
                       f"{calendar.format(resolved.as_of)}")
    upto = replay.seen_upto(tx, resolved)
    if upto < founding.position:
        raise NotFound(f"campaign {name} was not yet recorded at that point (it begins at event "
                       f"{founding.position}, recorded {founding.recorded_at})")
    if game_date is not None:
        _refuse_future(tx, name, resolved.as_of, upto, calendar)
    world = replay.world_at(tx, name, resolved, use_snapshots=use_snapshots, upto=upto)
    if resolved.as_of is not None:  # the world's now is the day asked for
        world = replace(world, campaign=replace(world.campaign, today=resolved.as_of))
    if point.as_recorded is not None:  # the answer holds: say which instant it is for, in UTC
        tx.note(recorded_zone(point.as_recorded))
    return Context(tx=tx, name=name, actor=actor, point=resolved, upto=upto, world=world)


def _refuse_future(tx: Transaction, name: str, day: int, upto: int, calendar) -> None:
    """--game-date logs a fact late; a day after today is no late fact but a
    typo or a calendar not yet moved on (a year's slip would move today a
    year on, and every clock with it): the calendar moves on only on purpose."""
    today = tx.last_day(name, upto)
    if today is None or day <= today:
        return
    session = tx.latest_of(name, "session.opened", upto=upto)
    closed = tx.latest_of(name, "session.closed", upto=upto)
    open_now = session is not None and (closed is None or closed.position < session.position)
    how = ("close the session on it with `tally session close --game-date DATE`" if open_now
           else f"move the calendar on first with `tally calendar advance {day - today}d`")
    raise BadInput(f"--game-date {calendar.format(day)} is after today ({calendar.format(today)}): a late fact "
                   f"goes on today or an earlier day; to reach that day, {how}; nothing was written")


def query(store: Store, name: Optional[str], read: Callable[[Context], T], point: Optional[Pin] = None) -> T:
    """A read-only question about a campaign, as of ``point`` on any of the three axes."""
    with store.reading() as tx:
        return read(load(tx, name, point=point))
