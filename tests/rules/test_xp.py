"""XP and vows (seed 002 l.97-114) as pure decisions."""

import pytest

from commands.xp import vow_sworn, xp_awarded
from ledger.errors import RuleRefused
from ledger.events.xp import XpAwarded
from tests.rules.table import Table, only


def test_treasure_seized_outside_a_split_is_halved_under_an_open_vow():
    # 002 l.113-114: "once a vow is made, an adventurer only gains 1/2 XP from finding treasure"
    t = Table("xp")
    t.character("Ada", max_hp=None)
    assert only(xp_awarded(t.state(), "Ada", 101, "a hoard", treasure=True), XpAwarded).amount == 101
    t.record(vow_sworn(t.state(), "Ada", "Avenge my brother"))
    assert only(xp_awarded(t.state(), "Ada", 101, "a hoard", treasure=True), XpAwarded).amount == 50  # vow_rounding down
    with pytest.raises(RuleRefused, match="treasure gives half XP"):
        xp_awarded(t.state(), "Ada", 101, "Treasure of the barrow")
