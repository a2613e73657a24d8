"""A roll records dice.rolled through a plain record (ledger/events/rolled.py),
without Pydantic: its payload must be the very one the DiceRolled model stores
and decodes, field for field and in order, or the log would say two things."""

from __future__ import annotations

import itertools

import pytest

from ledger.dice import check
from ledger.events.dice import DiceRolled
from ledger.events.rolled import Rolled


def rolls():
    """Every shape a roll's event takes: hand or derived, for a character or not, why or not,
    and no check, or each comparison with and without an epic margin, passed or failed; on a
    sealed table (`roll --on`) or not."""
    checks = [None] + [check.target(asked, 7, epic).result(total)
                       for asked in check.ASKED for epic in (None, 3) for total in (2, 7, 12)]
    for (hand, character, why), checked in itertools.product(
            [(True, None, None), (False, "Bo", None), (False, None, "the door"), (True, "Ann", "a trap")], checks):
        for on in (None, {"label": "wandering monsters", "commitment": "ab" * 32}):
            yield dict(expression="2d6+1", dice=[3, 4] if hand else (6, 1), total=8, epoch=3,
                       nonce=None if hand else 17, verifiable=not hand, character=character, why=why,
                       check=checked, on=on)


@pytest.mark.parametrize("fields", list(rolls()))
def test_a_rolls_payload_is_the_models_own(fields):
    ours, theirs = Rolled(**fields).payload(), DiceRolled(**fields).payload()
    assert list(ours.items()) == list(theirs.items())  # the same values, keys in the same order
    # And it reads back as the model: what verify, log and the folds see.
    assert DiceRolled(type="dice.rolled", **ours).payload() == ours


def test_it_is_the_same_type_at_the_same_schema_with_every_field():
    assert Rolled.type_name() == DiceRolled.type_name() == "dice.rolled"
    assert Rolled.schema_version == DiceRolled.schema_version
    payload = Rolled(expression="1d6", dice=[4], total=4, epoch=1, nonce=None, verifiable=False).payload()
    assert list(payload) == [name for name in DiceRolled.model_fields if name != "type"]
    check_fields = DiceRolled.model_fields["check"].annotation.__args__[0].model_fields
    checked = Rolled(expression="1d6", dice=[4], total=4, epoch=1, nonce=None, verifiable=False,
                     check=check.target("at_least", 4).result(4)).payload()["check"]
    assert list(checked) == list(check_fields)


@pytest.mark.parametrize("fields", list(rolls())[:4])
def test_its_fields_read_as_the_models_attributes(fields):
    ours, theirs = Rolled(**fields), DiceRolled(**fields)
    for name in DiceRolled.model_fields:
        if name not in ("type", "check", "on"):
            assert getattr(ours, name) == getattr(theirs, name), name
    with pytest.raises(AttributeError):
        ours.check  # a dict here, not the model's RollChecked: not offered as if it were
    with pytest.raises(AttributeError):
        ours.on  # nor the model's RolledOn


def test_each_payload_is_a_fresh_copy():
    rolled = Rolled(expression="1d6", dice=[4], total=4, epoch=1, nonce=None, verifiable=False,
                    check=check.target("at_least", 4).result(4))
    first = rolled.payload()
    first["dice"].append(9)
    first["check"]["target"] = 0
    assert rolled.payload()["dice"] == [4] and rolled.payload()["check"]["target"] == 4


@pytest.mark.parametrize("wrong", [
    {"total": "4"}, {"total": True}, {"dice": [4, "5"]}, {"dice": 4}, {"nonce": 1.0}, {"verifiable": 1},
    {"character": 5}, {"check": {"against": "under", "target": 4, "passed": True, "margin": 0}},
    {"check": {"against": "at_least", "target": 4, "passed": True, "margin": 0, "extra": 1}},
    {"check": {"against": "at_least", "target": 4, "passed": True, "margin": 0, "band": "great"}},
    {"check": {"against": "at_least", "target": 4, "passed": "yes", "margin": 0}},
    {"on": {"label": "t"}}, {"on": {"label": "t", "commitment": 7}},
])
def test_a_field_of_the_wrong_kind_is_a_bug_not_a_record(wrong):
    fields = {**dict(expression="1d6", dice=[4], total=4, epoch=1, nonce=None, verifiable=False), **wrong}
    with pytest.raises(TypeError):
        Rolled(**fields)
