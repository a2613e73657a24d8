"""Transcribe Bifrost's god tables from the seed text into
fixtures/tables/bifrost.json (run once; the fixture is committed).

Usage: .venv/bin/python scripts/transcribe-bifrost.py ../shared/seeds/001_6a27c93f1c1f3755.txt
Each table is read from its printed lines (tab-separated); "X" becomes null.
"""

import json
import sys
from pathlib import Path

TABLES = {  # name: (first row line, last row line, what the rows are)
    "prayer_chance": (779, 795, "black marks"),
    "answer_grade": (805, 817, "black marks"),
    "crawling_acceptance": (857, 871, "prayers in the last week"),
    "repentance": (885, 897, "black marks"),
    "battle": (943, 952, "the god's power rating"),
}


def main(seed: str) -> None:
    lines = Path(seed).read_text(encoding="utf-8").splitlines()
    out = {"source": "seeds/001_6a27c93f1c1f3755.txt (Bifrost vol. 1), lines as printed; X is null"}
    for name, (first, last, rows) in TABLES.items():
        table = {}
        for number in range(first, last + 1):
            cells = lines[number - 1].split("\t")
            table[cells[0]] = [None if c.strip() == "X" else int(c) for c in cells[1:11]]
        out[name] = {"lines": f"{first}-{last}", "rows": rows, "columns": "power rating 1-10", "table": table}
    grade = {}
    for number in range(828, 838):
        cells = lines[number - 1].split("\t")
        grade[cells[0]] = int(cells[1])
    out["grade_percent"] = {"lines": "828-837", "table": grade}
    out["grade_shift"] = {"lines": "821-823", "table": {"1": -1, "2": -1, "3": 0, "4": 0, "5": 1, "6": 1}}
    matrix = {}
    for number in range(682, 689):  # the alignment matrix; its first row also carries the label GOOD
        cells = [c for c in lines[number - 1].split("\t") if c.strip() and c != "GOOD"]
        matrix[cells[0]] = cells[1:8]
    out["alignment_matrix"] = {"lines": "681-688", "rows": "basic alignment, 1 good to 7 evil",
                               "columns": "cosmic order allegiance, A law to G chaos", "table": matrix}
    Path("fixtures/tables/bifrost.json").write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
