"""Cash, Wealth, buying and selling (seed 004) as pure decisions: a world
folded in memory, hand-rolled faces, the events the rule returns."""

import pytest

from commands.economy import cash_change, purchase, sale, treasure_found, wealth_attempt
from ledger.chain import SAFE_INTEGER
from commands.inventory import Kit
from ledger.errors import BadInput, RuleRefused
from ledger.events.coeac import ItemBought, ItemDropped, ItemGained, ItemSold, WealthAttempted
from ledger.events.stable import CashChanged
from tests.rules.table import Table, dice, kinds, only, rolls

SIX_OF_TWELVE = (4, 5, 6, 4, 5, 6, 1, 2, 3, 1, 2, 3)  # exactly six successes


@pytest.fixture
def t() -> Table:
    """Nureddine: Wealth 5 and 40 Cash (004 l.153's example), out on session 1."""
    t = Table("coeac")
    t.character("Nureddine", wealth=5, cash=40)
    t.open_session("Nureddine")
    return t


# -- Wealth ---------------------------------------------------------------------

def test_wealth_improves_with_as_many_successes_as_the_ob(t):
    # 004 l.174: "Wealth | Ob 2 | 4 | 6 | 8 | 10 | 12 |" -- from 5 to 6 is Ob 12;
    # l.154: "her pool consists of only wagered Cash"
    events = wealth_attempt(t.state(), "Nureddine", 12, dice(*[6] * 12))
    attempt = only(events, WealthAttempted)
    assert (attempt.rank_from, attempt.ob, attempt.wager, attempt.successes, attempt.succeeded) == (5, 12, 12, 12, True)
    assert rolls(events) == [[6] * 12]
    assert events[1].cause.index == 0  # the attempt follows from the roll
    t.record(events)
    assert (t.sheet("Nureddine").wealth, t.sheet("Nureddine").cash) == (6, 28)


def test_one_success_short_of_the_ob_fails_and_loses_the_wager(t):
    # 004 l.151: "In either case, all wagered Cash dice are lost."
    events = wealth_attempt(t.state(), "Nureddine", 12, dice(*[6] * 11, 1))
    assert only(events, WealthAttempted).succeeded is False
    t.record(events)
    assert (t.sheet("Nureddine").wealth, t.sheet("Nureddine").cash) == (5, 28)


def test_wealth_is_tried_once_per_session_success_or_failure(t):
    # 004 l.171: "You may only attempt to improve Wealth once per sesssion, regardless of whether you
    # succeed (and gain one rank) or fail."
    t.record(wealth_attempt(t.state(), "Nureddine", 12, dice(*[1] * 12)))
    with pytest.raises(RuleRefused, match="already tried since session 1 opened: once per session"):
        wealth_attempt(t.state(), "Nureddine", 12, dice(*[6] * 12))
    t.close_session()
    t.open_session("Nureddine")
    assert only(wealth_attempt(t.state(), "Nureddine", 12, dice(*[6] * 12)), WealthAttempted).succeeded


def test_under_attempt_limit_epoch_the_downtime_after_a_session_is_a_period_of_its_own(t):
    t.set("attempt_limit", "epoch")
    t.record(wealth_attempt(t.state(), "Nureddine", 12, dice(*[1] * 12)))
    t.close_session()
    attempt = only(wealth_attempt(t.state(), "Nureddine", 12, dice(*[6] * 12)), WealthAttempted)
    assert (attempt.period, attempt.limit) == ("downtime epoch 3", "epoch")


@pytest.mark.parametrize("wager, refusal, error", [
    (0, "wager at least 1 Cash", BadInput),
    (41, "Nureddine has 40 Cash and cannot wager 41", RuleRefused),
    (11, "11 dice can never make 12 successes", RuleRefused),
])
def test_a_wealth_wager_is_refused_before_any_die_is_rolled(t, wager, refusal, error):
    with pytest.raises(error, match=refusal):
        wealth_attempt(t.state(), "Nureddine", wager, dice())


def test_faces_left_over_are_refused_as_with_dice(t):
    with pytest.raises(BadInput, match=r"--dice gave 1 face\(s\) more than the rolls needed"):
        wealth_attempt(t.state(), "Nureddine", 12, dice(*[6] * 13))
    with pytest.raises(BadInput, match=r"--dice ran out: 12d6s4 \(improve Wealth to 6, Ob 12\) needs 12 face\(s\)"):
        wealth_attempt(t.state(), "Nureddine", 12, dice(6, 6))


def test_only_an_activated_character_tries_during_a_session(t):
    # 004 l.496: the others in the stable are busy elsewhere
    t.character("Bo", cash=20)
    with pytest.raises(RuleRefused, match="Bo is not activated in session 1"):
        wealth_attempt(t.state(), "Bo", 2, dice(6, 6))


def test_cash_moves_only_for_an_activated_character_during_a_session(t):
    # 004 l.496: "The other characters in the stable are considered to be occupied doing something else"
    t.character("Bo", cash=20)
    with pytest.raises(RuleRefused, match="Bo is not activated in session 1"):
        cash_change(t.state(), "Bo", 3, "a job")
    t.close_session()
    assert only(cash_change(t.state(), "Bo", 3, "a job in downtime"), CashChanged).delta == 3


# -- buying -----------------------------------------------------------------------

def test_the_warhorse_under_the_pool_rule(t):
    # 004 l.153: "purchase a warhorse (Cost 6) ... Wealth 5 ... wager seven Cash dice ... a total of 12
    # dice ... If at least six dice are successes, she acquires the destrier"
    t.set("purchase_rule", "pool")
    bought = only(purchase(t.state(), "Nureddine", "warhorse", cost=6, wager=7, dice=dice(*SIX_OF_TWELVE)),
                  ItemBought)
    assert (bought.rule, bought.ob, bought.pool, bought.successes, bought.succeeded, bought.cash_spent) == (
        "pool", 6, 12, 6, True, 7)


def test_wealth_4_buying_cost_6_under_the_discount_rule_is_ob_2_with_cash_alone(t):
    # 004 l.602: "if your Wealth rating is 4 and you would like to purchase a Cost 6 service, you must
    # succeed against an Objective 2 Cash test"
    t.character("Merchant", wealth=4, cash=6)
    t.close_session()
    bought = only(purchase(t.state(), "Merchant", "a fine cloak", cost=6, wager=4, dice=dice(6, 4, 1, 1)),
                  ItemBought)
    assert (bought.rule, bought.ob, bought.pool, bought.successes, bought.succeeded) == ("discount", 2, 4, 2, True)


def test_one_success_short_buys_nothing_and_loses_the_wager(t):
    t.set("purchase_rule", "pool")
    events = purchase(t.state(), "Nureddine", "warhorse", cost=6, wager=7, dice=dice(4, 5, 6, 4, 5, *[1] * 7),
                      kit=Kit(slots=0))
    assert kinds(events) == ["dice.rolled", "item.bought"]  # no item gained
    t.record(events)
    assert t.sheet("Nureddine").cash == 33


def test_discounted_to_cost_0_costs_one_cash_die_and_no_roll(t):
    # 004 l.603: "discounted to Cost 0 ... purchased for the flat cost of a single Cash die (no wager or roll)"
    events = purchase(t.state(), "Nureddine", "rope", cost=5, wager=0, dice=dice())
    bought = only(events, ItemBought)
    assert (bought.ob, bought.successes, bought.succeeded, bought.cash_spent) == (0, None, True, 1)
    assert rolls(events) == []
    with pytest.raises(RuleRefused, match="drop --wager"):
        purchase(t.state(), "Nureddine", "more rope", cost=5, wager=2, dice=dice())


def test_scarcity_raises_the_cost_by_one(t):
    # 004 l.604: "scarcity causes goods or services to be more expensive (usually Cost +1)"
    bought = only(purchase(t.state(), "Nureddine", "rope", cost=5, wager=1, scarce=True, dice=dice(4)), ItemBought)
    assert (bought.ob, bought.succeeded) == (1, True)


def test_goods_bought_go_into_the_inventory_and_must_fit(t):
    # 004 l.553: "Each item of narrative importance occupies a single Slot"
    events = purchase(t.state(), "Nureddine", "rope", cost=5, wager=0, kit=Kit(slots=1), dice=dice())
    gained = only(events, ItemGained)
    assert (gained.item, gained.source, events[-1].cause.index) == ("rope", "bought", 0)
    with pytest.raises(RuleRefused, match="would carry 13 Slots of 12"):
        purchase(t.state(), "Nureddine", "a cart", cost=5, wager=0, kit=Kit(slots=13), dice=dice())


# -- selling and Cash -------------------------------------------------------------

def test_selling_above_wealth_rolls_cost_minus_wealth_dice_for_cash(t):
    # 004 l.606: "subtract your Wealth score from the Cost and roll that number of dice; successes
    # generate a point of Cash"
    t.record(purchase(t.state(), "Nureddine", "a jewel", cost=5, wager=0, kit=Kit(cash=0), dice=dice()))
    events = sale(t.state(), "Nureddine", "a jewel", 8, dice(6, 5, 1))
    sold = only(events, ItemSold)
    assert (sold.dice, sold.cash_gained) == (3, 2)
    assert only(events, ItemDropped).why == "sold"


def test_selling_below_wealth_is_pocket_change_with_no_roll(t):
    # 004 l.606: "If a good has a Cost lower than a character's Wealth score, that good cannot be sold
    # for a significant amount of Cash."
    events = sale(t.state(), "Nureddine", "a trinket", 2, dice())
    assert (only(events, ItemSold).cash_gained, rolls(events)) == (0, [])


def test_cash_cannot_go_below_zero(t):
    assert only(cash_change(t.state(), "Nureddine", -40, "a bribe"), CashChanged).delta == -40
    with pytest.raises(RuleRefused, match="Nureddine has 40 Cash; cannot take away 41"):
        cash_change(t.state(), "Nureddine", -41, "a bribe")


def test_a_running_total_past_what_the_ledger_stores_is_refused(t):
    # Two finds of 2^53 - 1 were accepted: no share of the total could be recorded, so the session
    # could never close until the finds were voided.
    t.record(treasure_found(t.state(), SAFE_INTEGER, "a dragon's hoard"))
    with pytest.raises(BadInput, match="the treasure waiting to be divided 18,014,398,509,481,982, past the largest"):
        treasure_found(t.state(), SAFE_INTEGER, "another")
    with pytest.raises(BadInput, match="Nureddine's Cash 9,007,199,254,741,031, past the largest"):
        cash_change(t.state(), "Nureddine", SAFE_INTEGER, "a windfall")
    assert only(cash_change(t.state(), "Nureddine", SAFE_INTEGER - 40, "all it can hold"), CashChanged).delta > 0
