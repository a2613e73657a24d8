"""A retirement's faction roll (004 l.518) as a pure decision, and the premise
it leaves for a fact logged late under it (issue 28)."""

from commands.company import reputation_change
from commands.invariants import premises
from commands.stable import retirement
from ledger.events.coeac import ReputationChanged
from ledger.events.stable import CharacterCreated, CharacterRetired
from tests.rules.table import Table, dice, kinds, only


def _cass(rep: int) -> Table:
    """Cass (10 Boons: 1d6+2) in a campaign where the Guild stands at ``rep``."""
    t = Table("coeac")
    t.player("Ann")
    t.record(CharacterCreated(name="Cass", player="Ann", max_hp=6, opening={"boons": 10}))
    if rep:
        t.record(reputation_change(t.state(), "Guild", rep, "before", new=True))
    return t


def test_the_retirement_records_the_roll_and_the_reputation_it_beat():
    # 004 l.518: "roll 1d6 + 1 for every 5 Boons ... if the result is greater than your Reputation ... +1"
    t = _cass(1)
    events = retirement(t.state(), "Cass", dice(1), rep_faction="Guild")
    assert kinds(events)[0] == "character.retired"
    retired = only(events, CharacterRetired)
    assert (retired.faction_roll, retired.rep_before) == (3, 1)
    assert only(events, ReputationChanged).requested == 1


def test_a_late_change_that_turns_the_comparison_breaks_the_retirement():
    # 004 l.518: "if the result is greater than your Reputation": 3 against 1 gains, against 4 it does not.
    t = _cass(1)
    (retired_at, *_) = t.record(retirement(t.state(), "Cass", dice(1), rep_faction="Guild"))
    higher = _cass(4).world
    assert premises(higher, retired_at) == (
        "Cass's faction roll of 3 would meet Reputation +4 with Guild, not +1: no +1, though it gave one (004 l.518)")
    assert premises(_cass(2).world, retired_at) is None  # 3 still beats 2: the same decision


def test_a_late_change_that_would_have_given_the_plus_one_breaks_it_too():
    t = _cass(3)
    (retired_at, *_) = t.record(retirement(t.state(), "Cass", dice(1), rep_faction="Guild"))
    assert t.world.company.rep("Guild") == 3  # 3 is not greater than 3
    assert "+1 it did not give" in premises(_cass(-1).world, retired_at)


def test_a_retirement_without_a_faction_roll_rests_on_no_reputation():
    t = _cass(1)
    (retired_at,) = t.record(retirement(t.state(), "Cass", dice()))
    assert premises(_cass(5).world, retired_at) is None


def test_a_schema_1_retirement_recorded_no_roll_to_hold():
    from ledger.events.registry import decode

    old = decode("character.retired", 1, {"name": "Cass", "player": "Ann", "boons": 10, "wealth": 3,
                                          "skill_points": 2, "wealth_ranks": 1, "rep_faction": "Guild"})
    assert (old.faction_roll, old.rep_before) == (None, None)
