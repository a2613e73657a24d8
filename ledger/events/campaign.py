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
