"""Downtime actions and project clocks (seed 004 l.640-648) as pure decisions."""

from commands.downtime import downtime_action, project_started
from commands.inventory import Kit, item_found
from ledger.events.downtime import DowntimeActed, ProjectTicked
from tests.rules.table import Table, kinds, only


def test_a_second_action_on_a_project_in_one_session_is_spent_without_a_tick():
    # 004 l.648: "Each session that a character dedicates a Downtime Action to a project, she may fill in
    # one 'tick'": the second action is the character's to give, and fills nothing.
    t = Table("coeac")
    t.character("Cass")
    t.character("Bo")
    t.record(project_started(t.state(), "Tower", 4, "Cass"))
    t.pass_days(21)
    t.record(downtime_action(t.state(), "Cass", "building", "Tower"))
    second = downtime_action(t.state(), "Cass", "building", "Tower")
    assert kinds(second) == ["downtime.acted"] and only(second, DowntimeActed).project == "Tower"
    t.record(second)
    t.open_session("Bo")  # a new session: a new tick; Cass stays in town
    assert only(downtime_action(t.state(), "Cass", "building", "Tower"), ProjectTicked).period == "session 1"


def test_a_second_item_of_one_name_goes_into_the_inventory():
    # 004 l.553: "Each item of narrative importance occupies a single Slot" -- a second horse is a second item
    t = Table("coeac")
    t.character("Bo")
    t.record(item_found(t.state(), "Bo", "horse", Kit(slots=0, carries=6), "bought"))
    t.record(item_found(t.state(), "Bo", "Horse", Kit(slots=0, carries=6), "bought"))
    assert [i.name for i in t.world.inventory.of("Bo")] == ["horse", "Horse"]
