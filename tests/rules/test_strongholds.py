"""Strongholds and the Company's treasury (seed 004 l.175-201) as pure decisions."""

import pytest

from commands.company import reputation_change, stronghold_attempt, stronghold_founding, treasury_move
from ledger.errors import BadInput, NotFound, RuleRefused
from ledger.events.coeac import ReputationChanged, StrongholdAttempted, StrongholdFounded, TreasuryFunded
from tests.rules.table import Table, dice, only, rolls

TAGS = ("Economy", "Fortifications")


@pytest.fixture
def t() -> Table:
    """Nureddine (Wealth 5, 40 Cash) owns the Old Mill, out on session 1."""
    t = Table("coeac")
    t.character("Nureddine", wealth=5, cash=40)
    t.record(stronghold_founding(t.state(), "Old Mill", "Nureddine"))
    t.open_session("Nureddine")
    return t


def test_a_stronghold_is_founded_by_a_character_or_the_company(t):
    # 004 l.176: "Individual characters or the company as a whole may invest time and money to construct Strongholds"
    founded = only(stronghold_founding(t.state(), "Keep", "company"), StrongholdFounded)
    assert (founded.name, founded.owner) == ("Keep", "company")
    with pytest.raises(RuleRefused, match="a stronghold named 'Old Mill' already exists"):
        stronghold_founding(t.state(), "Old Mill", "Nureddine")
    with pytest.raises(NotFound, match="no character named 'Nobody'"):
        stronghold_founding(t.state(), "Tower", "Nobody")


def test_rank_1_is_ob_10_on_wealth_dice_and_wagered_cash(t):
    # 004 l.188: "Stronghold | Ob 10 | 12 | 14 |"; l.151: [Wealth] dice plus the Cash wagered
    events = stronghold_attempt(t.state(), "Old Mill", wager=10, by="Nureddine", tags=TAGS, dice=dice(*[6] * 15))
    attempt = only(events, StrongholdAttempted)
    assert (attempt.ob, attempt.wealth_dice, attempt.pool, attempt.succeeded, attempt.tags) == (
        10, 5, 15, True, list(TAGS))
    t.record(events)
    mill = t.world.company.stronghold("Old Mill")
    assert (mill.rating, mill.tags, t.sheet("Nureddine").cash) == (1, TAGS, 30)


def test_a_failed_improvement_adds_no_tags_and_loses_the_wager(t):
    attempt = only(stronghold_attempt(t.state(), "Old Mill", wager=10, by="Nureddine", tags=TAGS,
                                      dice=dice(*[6] * 9, *[1] * 6)), StrongholdAttempted)
    assert (attempt.successes, attempt.succeeded, attempt.tags) == (9, False, [])


def test_under_stronghold_pool_cash_the_pool_is_the_wager_alone(t):
    t.set("stronghold_pool", "cash")
    events = stronghold_attempt(t.state(), "Old Mill", wager=10, by="Nureddine", tags=TAGS, dice=dice(*[6] * 10))
    assert (only(events, StrongholdAttempted).pool, len(rolls(events)[0])) == (10, 10)


def test_a_stronghold_is_improved_once_per_session_success_or_failure(t):
    # 004 l.185: "You may only attempt to improve a Stronghold once per sesssion, regardless of whether
    # you succeed (and gain one rank) or fail."
    t.record(stronghold_attempt(t.state(), "Old Mill", wager=10, by="Nureddine", tags=TAGS, dice=dice(*[1] * 15)))
    with pytest.raises(RuleRefused, match="Old Mill was already tried since session 1 opened"):
        stronghold_attempt(t.state(), "Old Mill", wager=10, by="Nureddine", tags=TAGS, dice=dice(*[6] * 15))


def test_a_new_rank_names_two_tags(t):
    # 004 l.177: "the owner may choose to add two tags"
    with pytest.raises(BadInput, match="name the two tags the new rank adds"):
        stronghold_attempt(t.state(), "Old Mill", wager=10, by="Nureddine", tags=["Economy"], dice=dice())


def test_the_company_pays_from_its_treasury_for_its_own_strongholds_only(t):
    # 004 l.176: "the company as a whole" may own strongholds, and pay for them from its treasury
    t.record(stronghold_founding(t.state(), "Keep", "company"))
    t.record(treasury_move(t.state(), "Nureddine", 12, "a gift to the Company", out=False))
    assert only(treasury_move(t.state(), "Nureddine", 1, "x", out=False), TreasuryFunded).amount == 1
    attempt = only(stronghold_attempt(t.state(), "Keep", wager=12, by="company", tags=TAGS, dice=dice(*[6] * 12)),
                   StrongholdAttempted)
    assert (attempt.by, attempt.wealth_dice, attempt.pool, attempt.succeeded) == ("company", 0, 12, True)
    with pytest.raises(RuleRefused, match="Old Mill belongs to Nureddine: the Company's treasury pays only"):
        stronghold_attempt(t.state(), "Old Mill", wager=12, by="company", tags=TAGS, dice=dice())
    with pytest.raises(RuleRefused, match="the Company has 12 Cash and cannot give 13"):
        treasury_move(t.state(), "Nureddine", 13, "wages", out=True)


def test_reputation_is_clamped_at_plus_or_minus_6_by_the_fold(t):
    # 004 l.200: "Reputation scores start at zero, but may increase or decrease (to a limit of ±6)"
    t.record(reputation_change(t.state(), "the Guild", 5, "a favour", new=True))
    events = reputation_change(t.state(), "the guild", 4, "another")
    assert (only(events, ReputationChanged).faction, only(events, ReputationChanged).before) == ("the Guild", 5)
    t.record(events)
    assert t.world.company.rep("the Guild") == 6


def test_a_factions_first_mention_says_so_and_a_near_name_is_suggested(t):
    # Issue 28: "a misspelt faction silently starts a new one (`rep "Rivr Guild" +1`) — suggest the near
    # name and require `--new` for a first mention."
    with pytest.raises(NotFound, match="first mention takes --new"):
        reputation_change(t.state(), "River Guild", 1, "a favour")
    t.record(reputation_change(t.state(), "River Guild", 1, "a favour", new=True))
    with pytest.raises(NotFound, match="did you mean River Guild"):
        reputation_change(t.state(), "Rivr Guild", 1, "a favour")
    with pytest.raises(RuleRefused, match="already a Faction"):
        reputation_change(t.state(), "river guild", 1, "a favour", new=True)
    # The ledger may know a Faction the world on an earlier day does not (a fact logged late).
    assert only(reputation_change(t.state(), "Crown", 1, "x", known=["Crown"]), ReputationChanged).faction == "Crown"
