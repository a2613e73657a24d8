"""Bifrost's gods (seed 001 l.741-978): the tables as printed, row by row,
and the small rules around them. ``X`` (never) is ``None``.

Columns are the god's power rating (PR) 1-10.
"""

from __future__ import annotations

from typing import Optional


def _table(text: str) -> dict[int, list[Optional[int]]]:
    rows = {}
    for line in text.strip().splitlines():
        head, *cells = line.split()
        rows[int(head)] = [None if c == "X" else int(c) for c in cells]
    return rows


# l.777-795: a prayer is answered if d% does not exceed the cell (rows: marks).
PRAYER_CHANCE = _table("""
0   30 29 27 25 23 21 19 16 13 10
1   30 29 27 25 23 21 19 16 13 10
2   30 29 27 25 23 21 19 16 13  7
3   30 29 27 25 23 21 19 13 10  4
4   30 29 27 25 23 19 16 10  7  X
5   30 29 27 23 21 16 13  7  4  X
6   29 27 23 21 19 13 10  4  X  X
7   27 25 21 19 16 10  7  X  X  X
8   25 23 19 16 13  7  4  X  X  X
9   23 21 16 13 10  4  X  X  X  X
10  21 19 13 10  7  X  X  X  X  X
11  19 16 10  7  4  X  X  X  X  X
12  16 13  7  4  X  X  X  X  X  X
13  13 10  4  X  X  X  X  X  X  X
14  10  4  X  X  X  X  X  X  X  X
15   7  X  X  X  X  X  X  X  X  X
16   4  X  X  X  X  X  X  X  X  X
""")

# l.801-817: the answer's grade (rows: marks).
ANSWER_GRADE = _table("""
0   4 4 6 7 8 9 9 10 10 10
1   3 4 5 6 7 8 9  9 10 10
2   2 3 4 5 6 7 8  9 10 10
3   2 3 4 5 6 7 8  9  9 10
4   1 2 2 3 3 4 5  6  7  8
5   1 1 1 2 2 3 4  5  6  7
6   1 1 1 1 2 2 3  4  5  6
7   1 1 1 1 1 2 2  3  4  5
8   1 1 1 1 1 1 2  2  3  4
9   1 1 1 1 1 1 1  2  2  3
10  1 1 1 1 1 1 1  1  2  2
11  1 1 1 1 1 1 1  1  1  2
12  1 1 1 1 1 1 1  1  1  1
""")

# l.821-823: a normal die shifts the grade: 1-2 down one, 3-4 as is, 5-6 up one.
GRADE_SHIFT = {1: -1, 2: -1, 3: 0, 4: 0, 5: 1, 6: 1}

# l.855-871: a crawling prayer is accepted on d% up to the cell (rows: prayers in the last week).
CRAWLING_ACCEPTANCE = _table("""
0   100 100 100 100 100 100 100 100 100 90
1    90  90  90  90  90  90  90  90  80 70
2    70  70  70  70  70  70  70  60  50 40
3    50  50  50  50  50  50  40  30  20 10
4    30  30  30  30  30  20  10   8   7  6
5    20  20  20  20  10   8   7   6   5  4
6    10  10  10  10   8   7   6   5   4  3
7     8   8   8   7   6   6   5   4   3  2
8     7   7   6   5   5   4   3   2   2  1
9     6   4   4   3   3   2   2   1   1  X
10    5   3   3   2   2   1   1   1   X  X
11    3   2   2   1   1   1   1   X   X  X
12    2   1   1   1   1   X   X   X   X  X
13    1   1   1   1   X   X   X   X   X  X
14    1   1   X   X   X   X   X   X   X  X
""")

# l.883-897: the lowest d6 that makes the god believe a repentance (rows: black marks).
REPENTANCE = _table("""
0   1 1 1 1 1 1 1 1 1 1
1   1 1 1 1 1 1 1 1 1 4
2   1 1 1 1 1 1 1 1 1 6
3   1 1 1 1 1 1 1 5 5 6
4   1 1 1 1 1 3 4 6 6 6
5   1 1 1 2 3 4 5 6 6 X
6   1 1 2 3 4 5 6 X X X
7   2 2 3 4 5 6 6 X X X
8   3 3 4 5 6 6 X X X X
9   4 4 5 6 6 X X X X X
10  5 5 6 6 X X X X X X
11  6 6 X X X X X X X X
12  6 6 X X X X X X X X
""")

# l.941-952: a god wins a round of a divine battle if its d% exceeds the cell
# (rows: its own PR; columns: the opponent's). The PR 10 v 1 cell is printed 2.
BATTLE = _table("""
1   50 60 65 70 75 80 85 90 95 99
2   45 50 60 65 70 75 80 85 90 95
3   40 45 50 60 65 70 75 80 85 90
4   35 40 45 50 60 65 70 75 80 85
5   30 35 40 45 50 60 65 70 75 80
6   25 30 35 40 45 50 55 60 65 70
7   20 25 30 35 40 45 50 55 60 65
8   15 20 25 30 35 40 45 50 55 60
9   10 15 20 25 30 35 40 45 50 55
10   2 10 15 20 25 30 35 40 45 50
""")

# l.681-688: the alignment matrix, basic alignment 1 (good) to 7 (evil) by cosmic
# order allegiance A (law) to G (chaos): "the forty-nine possible combinations" (l.707).
BASIC_ALIGNMENTS = "1234567"
COSMIC_ORDERS = "ABCDEFG"

LIFE_OR_DEATH = 20  # l.875: "stands a 20% better chance"; if answered, 5 grey marks
LIFE_OR_DEATH_GREY_MARKS = 5
FREE_HAND = 10  # l.966-968: +10%, and a 50% chance the help is inconvenient
INTERFERENCE = 50  # l.964: another god interfering: +50%
THANKS = 10  # l.873: a thank-you prayer "stands a 10% better chance of being heard"
CRAWL_WINDOW_DAYS = 7  # l.853: prayers "within the last week"
RELAPSE_PR = 3  # l.903: "a P.R. three points higher than it was originally ... never exceeding 10"
JOINS_UNASKED = 30  # l.964: "a 30% chance that it will join in of its own accord"
PUNISHMENT_CHANCE = 50  # l.929: "There is a 50% chance that he will be punished"
BATTLE_PENALTY = 10  # l.956: the loser's "A.T. and D.T. drop by 10 (regained as F.P.s)"


def prayer_chance(marks: int, power: int) -> Optional[int]:
    """Table 2.3; past the printed rows every god refuses (X)."""
    row = PRAYER_CHANCE.get(marks)
    return row[power - 1] if row else None


def answer_grade_row(marks: int) -> list[int]:
    """Table 2.4's row; past 12 marks the printed last row (all 1s) holds."""
    return ANSWER_GRADE[min(marks, max(ANSWER_GRADE))]


def grade_percent(grade: int) -> int:
    """l.827-837: grade g delivers 50 + 5g percent of the request."""
    return 50 + 5 * grade


def shifted_grade(base: int, die: int) -> int:
    """l.819-823, clamped to the table's own range 1-10 (the seed is silent)."""
    return max(1, min(10, base + GRADE_SHIFT[die]))


def crawling_chance(prayers: int, power: int) -> Optional[int]:
    row = CRAWLING_ACCEPTANCE.get(prayers)
    return row[power - 1] if row else None


def repentance_needs(marks: int, power: int, beyond: str = "never") -> Optional[int]:
    """Table 2.7; past its 12th row X (``never``) or the 12th row again (``last_row``)."""
    if beyond == "last_row":
        marks = min(marks, max(REPENTANCE))
    row = REPENTANCE.get(marks)
    return row[power - 1] if row else None


def relapse_power(power: int, rule: str = "plus3") -> int:
    """l.903-905: PR + 3, never past 10 (``plus3``); or as the illustration
    "1-4, 4-7, 7-9" reads, never past 9 unless the god is already PR 10."""
    return min(10 if rule == "plus3" else max(9, power), power + RELAPSE_PR)


def halved(chance: int, rounding: str) -> int:
    """l.841: an excessive prayer's chance "is reduced to a half", rounded as the campaign says."""
    return chance // 2 if rounding == "down" else -(-chance // 2)


def alignment(text: str) -> Optional[str]:
    """An alignment as the matrix prints it (``2E``), or None if it is not one of the 49."""
    code = text.strip().upper()
    if len(code) == 2 and code[0] in BASIC_ALIGNMENTS and code[1] in COSMIC_ORDERS:
        return code
    return None


def punishment_threshold(power: int) -> int:
    """l.925-927: black marks equal to 15 minus the god's PR."""
    return 15 - power


def backfire_chance(chance: int) -> int:
    """l.843: an excessive prayer backfires on 50 minus the original chance."""
    return max(0, 50 - chance)


def manifestation_eligible(active_days: int, dormant_days: int, year_days: int, clock: str) -> bool:
    """l.976: no black mark in a year of active campaigning, or in ten years of
    dormancy. ``weighted`` counts dormant time at a tenth; ``either`` needs one
    stretch alone to reach its mark."""
    if clock == "weighted":
        return active_days * 10 + dormant_days >= 10 * year_days
    return active_days >= year_days or dormant_days >= 10 * year_days


def adoption_refused(world, character: str, rule: str, today: int) -> Optional[str]:
    """Why a god may not be adopted now, under god_adoption (001 l.745), or None.
    ``world`` is the campaign's folded world: its sessions say who is out on an
    expedition and who has been on one."""
    session = world.sessions.current
    if session is not None and session.is_activated(character):
        return (f"{character} is out on session {session.number}'s expedition: a god is chosen before the game "
                "begins (001 l.745)")
    if rule == "before_play" and next(world.sessions.expeditions(character, today), None) is not None:
        return (f"{character} has already been on an expedition: a god is chosen before the game begins "
                "(001 l.745; `tally campaign set god_adoption safe_time` allows one between expeditions)")
    return None
