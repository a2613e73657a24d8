"""`tally dice report` (issue 27, item 2): every roll of a session or a
stretch of days with the exact chance of a result at least as good and a
check's chance of passing — each held here to icepool, another library's
exact arithmetic — and per character, per player and for the table the mean
percentile, the luckiest and unluckiest roll and how unusual the run was
(held to a plain count of every outcome in Fractions). Hand rolls are marked, and so are derived
rolls of an epoch without a player seed; a roll too large to count is
refused on its own line, never the report. On SQLite and PostgreSQL."""

from __future__ import annotations

from fractions import Fraction

import icepool
import pytest

from ledger.dice.expression import EXPLODE_LIMIT
from ledger.dice.luck import HIGHER, LOWER, Roll, unusual
from tests.conftest import BACKENDS, Tally

# What icepool makes of each expression the campaign below rolls.
ICEPOOL = {"2d6": lambda: 2 @ icepool.d6, "1d20": lambda: icepool.d20, "6d6s4": lambda: 6 @ (icepool.d6 >= 4),
           "3d6": lambda: 3 @ icepool.d6, "d%": lambda: icepool.d100}


def as_fractions(die) -> dict[int, Fraction]:
    return {outcome: Fraction(quantity, die.denominator()) for outcome, quantity in die.items()}


def build(tally):
    """Session 1 (1024-03-08 to 03-10): Nureddine (Ann) rolls 2d6 by hand for 12, 3d6 derived in an epoch
    without a player seed, and 1000d100, too large to count; Bo (Ben) rolls 1d20 under 12 for 3 and
    6d6s4 against Ob 3 for no successes, both by hand. After it, on 03-12, Bo rolls 2d6 for 2 by hand."""
    tally.ok("campaign", "new", "Greyhawk", "--rules", "coeac", "--start", "1024-03-01")
    for player, name in (("Ann", "Nureddine"), ("Ben", "Bo")):
        tally.ok("player", "add", player)
        tally.ok("char", "new", name, "--player", player, "--max-hp", "6")
    tally.ok("session", "open", "--game-date", "1024-03-08", "--activate", "Nureddine", "--activate", "Bo",
             "--no-income")
    tally.ok("roll", "2d6", "--for", "Nureddine", "--why", "Athletics", "--dice", "6,6")
    tally.ok("roll", "1d20", "--for", "Bo", "--under", "12", "--dice", "3")
    tally.ok("roll", "6d6s4", "--for", "Bo", "--ob", "3", "--dice", "1,1,1,2,2,2")
    tally.ok("roll", "3d6", "--for", "Nureddine", "--why", "derived, no player seed")
    tally.ok("roll", "1000d100", "--for", "Nureddine", "--why", "a silly pool")
    tally.ok("session", "close", "--days", "2", "--haven", "Nureddine", "--haven", "Bo")
    tally.ok("calendar", "advance", "2d")
    tally.ok("roll", "2d6", "--for", "Bo", "--dice", "1,1")
    return tally


@pytest.fixture(scope="module", params=BACKENDS)
def table(request, tmp_path_factory):
    """The campaign of ``build``, once for the module on each backend (the tests that read it)."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('luck') / 'tally.db'}"
    else:
        url = request.getfixturevalue("pg_server").new_database()
    return build(Tally(url))


def report(t, *args) -> dict:
    return t.ok("dice", "report", *args, "--json").json


def by_position(found: dict) -> dict[int, dict]:
    return {r["position"]: r for r in found["rolls"]}


def test_every_rolls_chance_of_a_result_as_good_is_icepools(table):
    found = report(table, "--session", "1")
    rolls = found["rolls"]
    assert [(r["character"], r["expression"]) for r in rolls] == [
        ("Nureddine", "2d6"), ("Bo", "1d20"), ("Bo", "6d6s4"), ("Nureddine", "3d6"), ("Nureddine", "1000d100")]
    for r in rolls[:4]:
        die = ICEPOOL[r["expression"]]()
        low = r["check"] is not None and r["check"]["against"] in ("below", "at_most")
        assert r["better"] == ("lower" if low else "higher")
        expected = die.probability("<=" if low else ">=", r["total"])
        assert Fraction(r["p_at_least"]) == expected, r
        assert Fraction(r["p_exactly"]) == die.probability("==", r["total"])
    # The exact strings themselves: 2d6 of 12 is 1 in 36; 1d20 of 3 under 12, 3 in 20 as low or lower.
    assert (rolls[0]["p_at_least"], rolls[1]["p_at_least"], rolls[2]["p_at_least"]) == ("1/36", "3/20", "1/1")


# Keeping the highest or lowest (and dropping), exploding, exploding once, a success pool: each rolled by hand
# and checked, each held to icepool. (expression, faces, check, icepool's die, how the check passes, total)
MORE = [
    ("4d6dl1", "1,2,3,4", ("--at-least", "8"), lambda: icepool.d6.pool(4).highest(3).sum(), ">=", 9),
    ("2d20kh1", "3,17", ("--over", "15"), lambda: icepool.d20.pool(2).highest(1).sum(), ">", 17),
    ("3d6kl2", "5,2,6", ("--at-most", "8"), lambda: icepool.d6.pool(3).lowest(2).sum(), "<=", 7),
    ("3d6kh2", "2,2,1", (), lambda: icepool.d6.pool(3).highest(2).sum(), None, 4),
    ("1d6!", "6,6,3", (), lambda: icepool.d6.explode(depth=EXPLODE_LIMIT), None, 15),
    ("2d6!", "6,2,5", ("--at-least", "10"), lambda: 2 @ icepool.d6.explode(depth=EXPLODE_LIMIT), ">=", 13),
    ("1d10xo10", "10,4", (), lambda: icepool.d10.explode(depth=1), None, 14),
    ("8d6s5", "5,6,1,2,3,6,4,1", ("--ob", "2"), lambda: 8 @ (icepool.d6 >= 5), ">=", 3),
]


def test_keep_highest_exploding_and_pool_rolls_have_icepools_odds(tally):
    tally.ok("campaign", "new", "Greyhawk", "--rules", "coeac", "--start", "1024-03-01")
    tally.ok("player", "add", "Ann")
    tally.ok("char", "new", "Nureddine", "--player", "Ann", "--max-hp", "6")
    for expression, faces, check, _, _, _ in MORE:
        tally.ok("roll", expression, "--for", "Nureddine", "--dice", faces, *check)
    rolls = report(tally)["rolls"]
    assert [(r["expression"], r["total"]) for r in rolls] == [(m[0], m[5]) for m in MORE]
    for r, (expression, _, check, die, passes, total) in zip(rolls, MORE):
        die = die()
        low = check and check[0] == "--at-most"
        assert r["better"] == ("lower" if low else "higher") and r["hand"] is True
        assert Fraction(r["p_at_least"]) == die.probability("<=" if low else ">=", total), r
        assert Fraction(r["p_at_most"]) == die.probability(">=" if low else "<=", total), r
        assert Fraction(r["p_exactly"]) == die.probability("==", total), r
        expected_pass = None if passes is None else die.probability(passes, int(check[1]))
        assert (None if r["p_pass"] is None else Fraction(r["p_pass"])) == expected_pass, r
    assert rolls[4]["p_at_least"] == "1/54"  # 1d6! of 15: 6, 6 and then 3 or more: 1/6 * 1/6 * 4/6


def test_a_check_says_its_chance_of_passing_as_icepool_counts_it(table):
    rolls = report(table, "--session", "1")["rolls"]
    under, pool = rolls[1], rolls[2]
    assert under["check"]["against"] == "below" and under["check"]["passed"] is True
    assert Fraction(under["p_pass"]) == icepool.d20.probability("<", 12) == Fraction(11, 20)
    assert pool["check"]["against"] == "ob" and pool["check"]["passed"] is False
    assert Fraction(pool["p_pass"]) == (6 @ (icepool.d6 >= 4)).probability(">=", 3) == Fraction(21, 32)
    assert rolls[0]["p_pass"] is None  # no target, nothing to pass


def test_the_percentile_is_the_chance_of_worse_plus_half_the_same(table):
    rolls = report(table, "--session", "1")["rolls"]
    # 2d6 = 12: 35/36 worse, 1/36 the same; 1d20 = 3 under 12: 17/20 worse (higher), 1/20 the same.
    assert rolls[0]["percentile"] == round(float(Fraction(35, 36) + Fraction(1, 72)), 4)
    assert rolls[1]["percentile"] == 0.875
    assert rolls[2]["percentile"] == round(1 / 128, 4)


def test_hand_rolls_and_rolls_without_a_player_seed_are_marked(table):
    found = report(table, "--session", "1")
    rolls = found["rolls"]
    assert [r["hand"] for r in rolls] == [True, True, True, False, False]
    assert [r["player_seed"] for r in rolls] == [None, None, None, False, False]
    epoch = rolls[3]["epoch"]
    assert found["unseeded_epochs"] == [epoch] and f"epoch {epoch} had no player seed" in found["note"]
    text = table.ok("dice", "report", "--session", "1").stdout
    assert "by hand" in text and "no player seed" in text and "hand rolls are included" in text


def test_a_roll_too_large_to_count_is_refused_on_its_own_line_and_left_out(table):
    found = report(table, "--session", "1")
    silly = found["rolls"][4]
    assert silly["p_at_least"] is None and silly["percentile"] is None
    assert silly["refused"].startswith("no odds: the exact odds of 1000d100 would take about")
    nureddine = next(s for s in found["characters"] if s["name"] == "Nureddine")
    assert (nureddine["rolls"], nureddine["counted"]) == (3, 2)
    text = table.ok("dice", "report", "--session", "1").stdout
    assert "1 roll has no odds" in text


def test_each_character_and_player_and_the_table_are_summed_up(table):
    found = report(table, "--session", "1")
    bo = next(s for s in found["characters"] if s["name"] == "Bo")
    # Bo: 1d20 under 12 = 3 (percentile 7/8) and 6d6s4 = 0 (1/128).
    assert bo["mean_percentile"] == round(float((Fraction(7, 8) + Fraction(1, 128)) / 2), 4)
    assert bo["luckiest"]["expression"] == "1d20" and bo["luckiest"]["p_at_least"] == "3/20"
    assert bo["unluckiest"]["expression"] == "6d6s4" and bo["unluckiest"]["p_at_most"] == "1/64"
    ben = next(s for s in found["players"] if s["name"] == "Ben")
    assert {k: v for k, v in ben.items() if k != "name"} == {k: v for k, v in bo.items() if k != "name"}
    assert [s["name"] for s in found["players"]] == ["Ann", "Ben"]
    assert (found["table"]["rolls"], found["table"]["counted"], found["table"]["hand"]) == (5, 4, 3)


def brute_force_unusual(rolls: list[tuple[dict, str, int]]) -> Fraction:
    """P(a mean percentile at least as far from 1/2, either way): every outcome of every roll counted in
    Fractions, roll after roll (outcomes whose percentiles sum the same merged as they go: the same sum as
    enumerating every combination, in seconds rather than minutes)."""
    def percentile(dist, better, total):
        worse = sum((p for t, p in dist.items() if (t < total if better == HIGHER else t > total)), Fraction(0))
        return worse + dist[total] / 2

    n = len(rolls)
    observed = sum(percentile(*r) for r in rolls)
    sums = {Fraction(0): Fraction(1)}
    for dist, better, _ in rolls:
        step = [(p, percentile(dist, better, t)) for t, p in dist.items()]
        merged: dict[Fraction, Fraction] = {}
        for total, chance in sums.items():
            for p, value in step:
                merged[total + value] = merged.get(total + value, Fraction(0)) + chance * p
        sums = merged
    far = abs(observed - Fraction(n, 2))
    return sum((chance for total, chance in sums.items() if abs(total - Fraction(n, 2)) >= far), Fraction(0))


def test_how_unusual_a_run_was_is_counted_exactly(table):
    found = report(table, "--session", "1")
    bo = next(s for s in found["characters"] if s["name"] == "Bo")
    dists = {e: as_fractions(f()) for e, f in ICEPOOL.items()}
    expected = brute_force_unusual([(dists["1d20"], LOWER, 3), (dists["6d6s4"], HIGHER, 0)])
    assert bo["unusual"]["exact"] is True and Fraction(bo["unusual"]["p_exact"]) == expected
    assert bo["unusual"]["direction"] == "unlucky"  # a mean percentile of 44%
    nureddine = next(s for s in found["characters"] if s["name"] == "Nureddine")
    derived = found["rolls"][3]
    expected = brute_force_unusual([(dists["2d6"], HIGHER, 12), (dists["3d6"], HIGHER, derived["total"])])
    assert Fraction(nureddine["unusual"]["p_exact"]) == expected


@pytest.mark.parametrize("rolls", [
    [("2d6", HIGHER, 9), ("1d20", LOWER, 4), ("6d6s4", HIGHER, 0), ("d%", HIGHER, 99)],
    [("2d6", HIGHER, 7), ("2d6", HIGHER, 7), ("2d6", HIGHER, 7)],
    [("3d6", HIGHER, 18), ("3d6", HIGHER, 3), ("1d20", HIGHER, 20), ("2d6", LOWER, 2), ("6d6s4", HIGHER, 6)],
])
def test_the_count_of_how_unusual_agrees_with_brute_force(rolls):
    dists = {e: as_fractions(f()) for e, f in ICEPOOL.items()}
    found = unusual([Roll(dists[e], better, total) for e, better, total in rolls])
    assert found.exact and found.p_exact == brute_force_unusual([(dists[e], b, t) for e, b, t in rolls])


def test_past_the_exact_count_the_normal_approximation_answers_and_says_so():
    dists = {e: as_fractions(f()) for e, f in ICEPOOL.items()}
    rolls = [Roll(dists[e], HIGHER, t) for e, t in [("d%", 91), ("3d6", 14), ("1d20", 17), ("2d6", 10)] * 6]
    found = unusual(rolls)
    assert found.exact is False and found.p_exact is None and found.direction == "lucky"
    assert 0 < found.p < 0.01  # 24 rolls at the 90th percentile or so: rare either way
    tiny = unusual(rolls[:4], max_states=3)  # the same question, counted: near what the approximation says
    assert tiny.exact is False
    exact = unusual(rolls[:4])
    assert exact.exact and abs(exact.p - tiny.p) < 0.05


def test_a_stretch_of_days_and_one_characters_rolls(table):
    after = report(table, "--from", "1024-03-11")
    assert [(r["character"], r["expression"], r["total"]) for r in after["rolls"]] == [("Bo", "2d6", 2)]
    assert after["range"]["kind"] == "dates" and after["range"]["to"] == "1024-03-12"
    whole = report(table)
    assert len(whole["rolls"]) == 6 and whole["range"]["kind"] == "campaign"
    bo = report(table, "--for", "bo")  # names as the stable compares them
    assert {r["character"] for r in bo["rolls"]} == {"Bo"} and len(bo["rolls"]) == 3 and bo["for"] == "Bo"
    assert [s["name"] for s in bo["characters"]] == ["Bo"] and [s["name"] for s in bo["players"]] == ["Ben"]
    until = report(table, "--to", "1024-03-08")
    assert len(until["rolls"]) == 5


def test_a_voided_roll_is_left_out(tally):
    table = build(tally)
    position = next(r["position"] for r in report(table)["rolls"] if r["total"] == 2 and r["character"] == "Bo")
    table.ok("void", str(position), "--why", "the wrong character")
    assert position not in by_position(report(table))


@pytest.mark.parametrize("args, says", [
    (("--session", "9"), "there is no session 9 in campaign Greyhawk (sessions run from 1 to 1)"),
    (("--session", "0"), "there is no session 0"),
    (("--from", "1024-03-10", "--to", "1024-03-02"), "--from 1024-03-10 is after --to 1024-03-02"),
    (("--from", "1024-02-01"), "--from 1024-02-01 is outside the campaign: it runs from 1024-03-01 to 1024-03-12"),
    (("--to", "1025-01-01"), "--to 1025-01-01 is outside the campaign"),
    (("--from", "1024-02-30"), "1024-02-30"),
    (("--session", "1", "--from", "1024-03-01"), "give --session, or --from/--to, not both"),
    (("--for", "Zed"), "no character named 'Zed' in campaign Greyhawk"),
])
def test_bad_input_is_refused_on_one_line(table, args, says):
    outcome = table.refused("dice", "report", *args)
    assert says in outcome.stderr


def test_a_ledger_with_no_rolls_reports_none(tally):
    tally.ok("campaign", "new", "Quiet", "--rules", "coeac", "--start", "1024-03-01")
    found = report(tally)
    assert found["rolls"] == [] and found["table"]["mean_percentile"] is None and found["table"]["unusual"] is None
    assert "Summary" in tally.ok("dice", "report").stdout
