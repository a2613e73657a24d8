"""The campaign read model: its rules, calendar, settings and today's date."""

from __future__ import annotations

from typing import Any, Iterable, Optional

from msgspec import Struct, field
from msgspec.structs import replace

from ledger.calendar import Calendar, calendar_from_spec
from ledger.envelope import Envelope
from ledger.settings import defaults
from projections.handlers import Table


class CampaignState(Struct, frozen=True):
    name: str
    rules: tuple[str, ...]
    calendar_spec: dict[str, Any]
    start: int
    today: int
    settings: dict[str, str] = field(default_factory=dict)
    world_day: int = 0  # the shared world's date: the start, moved on only by calendar.advanced

    @property
    def calendar(self) -> Calendar:
        return calendar_from_spec(self.calendar_spec)

    def runs(self, module: str) -> bool:
        return module in self.rules


TABLE = Table("campaign")


@TABLE.on("campaign.created", line=lambda p: f"campaign {p['name']} ({', '.join(p['rules']) or 'no modules'}; "
                                             f"{p['calendar']['kind']} calendar)")
def _created(state: Optional[CampaignState], p: dict, e: Envelope) -> CampaignState:
    return CampaignState(name=p["name"], rules=tuple(p["rules"]), calendar_spec=p["calendar"], start=p["start"],
                         today=p["start"], settings=defaults(p["rules"]), world_day=p["start"])


@TABLE.every_other
def _dated(state: Optional[CampaignState], p: dict, e: Envelope) -> Optional[CampaignState]:
    """Any event may move the campaign's today on."""
    if state is None:
        return None
    return replace(state, today=e.game_time) if e.game_time > state.today else state


@TABLE.on("calendar.advanced",
          line=lambda p: (f"{p['span']} ({p['days']} day(s))" if p.get("span") else f"{p['days']} day(s)")
          + f" pass: {p['why']}" + (f" [{p['run']}]" if p.get("run") else "")
          + (f" ({p['note']})" if p.get("note") else ""))
def _advanced(state: Optional[CampaignState], p: dict, e: Envelope) -> Optional[CampaignState]:
    state = _dated(state, p, e)
    return None if state is None else replace(state, world_day=max(state.world_day, p["to_day"]))


@TABLE.on("campaign.setting_changed", line=lambda p: f"setting {p['key']}: {p['previous']} -> {p['value']}")
def _setting(state: Optional[CampaignState], p: dict, e: Envelope) -> Optional[CampaignState]:
    state = _dated(state, p, e)
    return None if state is None else replace(state, settings={**state.settings, p["key"]: p["value"]})


READS_PAYLOAD = TABLE.types
apply = TABLE.apply


def fold(envelopes: Iterable[Envelope]) -> Optional[CampaignState]:
    state = None
    for envelope in envelopes:
        state = apply(state, envelope)
    return state
