"""Events about the campaign itself and about the ledger's own bookkeeping."""

from typing import Any, Literal

from ledger.events.registry import EventModel, register


@register
class CampaignCreated(EventModel):
    type: Literal["campaign.created"] = "campaign.created"
    name: str
    rules: list[str]
    calendar: dict[str, Any]
    start: int


@register
class SettingChanged(EventModel):
    type: Literal["campaign.setting_changed"] = "campaign.setting_changed"
    key: str
    value: str
    previous: str


@register
class EventVoided(EventModel):
    type: Literal["ledger.voided"] = "ledger.voided"
    target: int
    target_type: str
    reason: str
    ruled_by: str


@register
class RulingRecorded(EventModel):
    """The referee's ruling that accepts a fact logged late (or a void) although
    it breaks what a later event rested on; appended with it, caused by it."""

    type: Literal["ledger.ruling"] = "ledger.ruling"
    schema_version = 2
    ruling: str
    breaks: str  # every event it breaks and what would no longer hold, "; " between them (schema 1: the first)
    # Their positions, the new fact's own among them when it breaks an invariant itself
    # (schema 1: the first one's, read off ``breaks``; none for the fact itself).
    broken: list[int]
    ruled_by: str
