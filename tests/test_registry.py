"""One registry of event types: a discriminated union, upcasters, refusals."""

from typing import Literal

import pytest

from ledger.errors import BadInput
from ledger.events.registry import decode, known_types
from ledger.events.campaign import SettingChanged
from ledger.events.registry import EventModel, register
from ledger.events.upcasters import upcaster


@register
class LegacyDemo(EventModel):
    """A test-only type whose payload moved from `name` to `label` in schema 2
    and gained `count` in schema 3."""

    type: Literal["test.legacy_demo"] = "test.legacy_demo"
    schema_version = 3
    label: str
    count: int


@upcaster("test.legacy_demo", 1)
def _rename(payload):
    payload["label"] = payload.pop("name")
    return payload


@upcaster("test.legacy_demo", 2)
def _add_count(payload):
    return {**payload, "count": 0}


def test_a_stored_payload_becomes_its_model_in_one_call():
    event = decode("campaign.setting_changed", 1, {"key": "k", "value": "v", "previous": ""})
    assert isinstance(event, SettingChanged) and event.key == "k"


def test_old_schemas_are_upcast_step_by_step():
    assert decode("test.legacy_demo", 1, {"name": "x"}) == LegacyDemo(label="x", count=0)
    assert decode("test.legacy_demo", 2, {"label": "y"}) == LegacyDemo(label="y", count=0)
    assert decode("test.legacy_demo", 3, {"label": "z", "count": 2}).count == 2


def test_unknown_types_newer_schemas_and_bad_payloads_are_refused():
    with pytest.raises(BadInput, match="unknown event type"):
        decode("wealth.embezzled", 1, {})
    with pytest.raises(BadInput, match="newer than this tally knows"):
        decode("campaign.setting_changed", 9, {})
    with pytest.raises(BadInput, match="invalid campaign.setting_changed payload: key"):
        decode("campaign.setting_changed", 1, {"value": "v", "previous": ""})
    with pytest.raises(BadInput, match="invalid"):
        decode("campaign.setting_changed", 1, {"key": "k", "value": "v", "previous": "", "extra": 1})


def test_models_are_frozen_and_payloads_carry_no_type():
    event = SettingChanged(key="k", value="v", previous="")
    assert event.payload() == {"key": "k", "value": "v", "previous": ""}
    with pytest.raises(Exception):
        event.key = "other"
    assert "dice.rolled" in known_types() and "ledger.voided" in known_types()
