"""Inventory Slots and Depletion (seed 004 l.552-564) as pure decisions."""

import pytest

from commands.inventory import Kit, handed_over, item_found, item_used
from ledger.errors import RuleRefused
from ledger.events.coeac import DepletionChecked
from tests.rules.table import Table, dice, only, rolls


@pytest.fixture
def t() -> Table:
    t = Table("coeac")
    t.character("Bo")
    t.character("Cass")
    t.record(item_found(t.state(), "Bo", "torches", Kit(depletion=15), "bought in town"))
    return t


def test_a_depletion_roll_at_or_above_the_score_leaves_one_last_use(t):
    # 004 l.563: "After using an expendable or consumable piece of gear, players must roll a Depletion Check"
    lasts = only(item_used(t.state(), "Bo", "torches", dice(14)), DepletionChecked)
    assert (lasts.roll, lasts.result) == (14, "lasts")
    events = item_used(t.state(), "Bo", "torches", dice(15))
    assert only(events, DepletionChecked).result == "last_use"
    t.record(events)
    spent = item_used(t.state(), "Bo", "torches", dice())  # on its last use it is expended, no roll
    assert (only(spent, DepletionChecked).result, rolls(spent)) == ("expended", [])


def test_twelve_slots_and_no_more(t):
    # 004 l.553: "Each character has twelve Inventory Slots"
    t.record(item_found(t.state(), "Cass", "a chest", Kit(slots=12), "found"))
    with pytest.raises(RuleRefused, match="Cass would carry 13 Slots of 12"):
        item_found(t.state(), "Cass", "a coin", Kit(), "found")
    with pytest.raises(RuleRefused, match="Cass would carry 13 Slots of 12"):
        handed_over(t.state(), "Bo", "Cass", items=["torches"], why="for the dark")
