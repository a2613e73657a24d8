"""Time `tally odds` on rolls near its limits and print a table for docs/dice.md.

Run from the repository root: .venv/bin/python scripts/dice-odds-timing.py
Each figure is the wall-clock time of one exact distribution (best of
three), or the one-line refusal for a roll past a limit.
"""

import time

from ledger.dice.expression import parse
from ledger.dice.odds import MAX_DIGITS, MAX_STEPS, distribution, plan
from ledger.errors import BadInput

ROLLS = ["4d6dl1", "2d6kh1!", "1d10xo10", "95d6", "45d20", "15d100", "12d6s4", "1000d6s4", "20d6!",
         "d%!", "100d6kh50", "500d6", "100d100", "1000d6", "60d6dl1", "1d1000!", "1000d1000"]


def main():
    print("| roll | answer size (digits) | time |")
    print("|---|---|---|")
    for text in ROLLS:
        expression = parse(text)
        try:
            digits = plan(expression).digits
        except BadInput as refused:
            limit = f"{MAX_STEPS:,} steps" if "steps" in str(refused) else f"{MAX_DIGITS:,} digits"
            print(f"| `{text}` | refused: past {limit} | — |")
            continue
        best = min(_timed(expression) for _ in range(3))
        print(f"| `{text}` | {digits:,} | {best:.3f} s |")


def _timed(expression):
    start = time.perf_counter()
    distribution(expression)
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
