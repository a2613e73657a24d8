"""The campaign read model: its rules, calendar, settings and today's date."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Optional

from ledger.calendar import Calendar, calendar_from_spec
from ledger.envelope import Envelope
from ledger.settings import defaults
from projections.frozen import replace


@dataclass(frozen=True)
class CampaignState:
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


def reacts_to(event_type: str) -> bool:
    return True  # any event may move the campaign's today on


READS_PAYLOAD = frozenset({"campaign.created", "calendar.advanced", "campaign.setting_changed"})


def apply(state: Optional[CampaignState], envelope: Envelope) -> Optional[CampaignState]:
    p = envelope.payload
    if envelope.type == "campaign.created":
        return CampaignState(
            name=p["name"], rules=tuple(p["rules"]), calendar_spec=p["calendar"],
            start=p["start"], today=p["start"], settings=defaults(p["rules"]), world_day=p["start"],
        )
    if state is None:
        return None
    if envelope.game_time > state.today:
        state = replace(state, today=envelope.game_time)
    if envelope.type == "calendar.advanced":
        return replace(state, world_day=max(state.world_day, p["to_day"]))
    if envelope.type == "campaign.setting_changed":
        return replace(state, settings={**state.settings, p["key"]: p["value"]})
    return state


def fold(envelopes: Iterable[Envelope]) -> Optional[CampaignState]:
    state = None
    for envelope in envelopes:
        state = apply(state, envelope)
    return state
