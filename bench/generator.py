"""A synthetic campaign for benchmarks: realistic, valid, hash-chained and
deterministic for a given seed. Written straight to an export file (JSONL),
so it is imported through the same checks as any ledger.

An open table (coeac + gods) of P players, its sessions spread over Y years
(weekly for a small campaign, many a day for a large one, as at an open table
with many tables running): Income and wager rolls derived from committed,
revealed seeds (so the whole file audits), treasure, Wealth attempts, Boons,
black marks, calendar advances, facts logged a few sessions late, and voids
of recent mistakes.
"""

from __future__ import annotations

import hashlib
import random
from typing import Iterator, Optional

from ledger.chain import GENESIS, canonical_json, event_hash
from ledger.clock import format_instant
from ledger.dice.derivation import commitment, derive
from ledger.dice.expression import parse
from ledger.events import campaign as c
from ledger.events import coeac as co
from ledger.events import dice as d
from ledger.events import gods as g
from ledger.events import stable as s
from ledger.events.calendar import CalendarAdvanced
from ledger.events.registry import EventModel

START_DAY = 373_703  # 1024-03-01
NAME = "Bench Open Table"


class Writer:
    """Chains envelopes as the store would, and writes them as export lines."""

    def __init__(self, out, rng: random.Random) -> None:
        self.out, self.rng = out, rng
        self.position, self.prev, self.versions = 0, GENESIS, {}
        self.instant = 1_893_456_000.0  # 2030-01-01T00:00:00Z, moving forward
        self.count = 0

    def emit(self, stream: str, event: EventModel, day: int, session: Optional[int] = None,
             cause: Optional[int] = None) -> int:
        from datetime import datetime, timezone

        self.position += 1
        self.versions[stream] = self.versions.get(stream, 0) + 1
        self.instant += self.rng.uniform(0.5, 30)
        fields = {"position": self.position, "campaign": NAME, "stream": stream, "version": self.versions[stream],
                  "type": event.type_name(), "schema": event.schema_version, "game_time": day,
                  "recorded_at": format_instant(datetime.fromtimestamp(self.instant, timezone.utc)),
                  "session": session, "actor": "referee", "cause": cause, "payload": event.payload(),
                  "prev_hash": self.prev}
        fields["hash"] = self.prev = event_hash(fields)
        self.out.write(canonical_json(fields) + "\n")
        self.count += 1
        return self.position


class Epochs:
    def __init__(self, w: Writer, seed: int) -> None:
        self.w, self.seed, self.number, self.nonce, self.secret = w, seed, 0, 0, ""

    def open(self, day: int, session: Optional[int] = None) -> None:
        self.number += 1
        self.nonce = 0
        self.secret = hashlib.sha256(f"{self.seed}:{self.number}".encode()).hexdigest()
        self.w.emit(f"epoch:{self.number}", d.EpochCommitted(epoch=self.number, commitment=commitment(self.secret),
                                                             session=session), day, session)

    def roll(self, expression: str, day: int, session: Optional[int], character: str, why: str) -> tuple[int, int]:
        faces, total = derive(parse(expression), self.secret, "", self.nonce)
        position = self.w.emit(f"epoch:{self.number}", d.DiceRolled(
            expression=expression, dice=faces, total=total, epoch=self.number, nonce=self.nonce, verifiable=True,
            character=character, why=why), day, session)
        self.nonce += 1
        return position, total

    def reveal(self, day: int, session: Optional[int]) -> None:
        self.w.emit(f"epoch:{self.number}", d.EpochRevealed(epoch=self.number, commitment=commitment(self.secret),
                                                           seed=self.secret, client_seed="", rolls=self.nonce),
                    day, session)


def generate(out, *, events: int, players: int = 40, years: int = 3, seed: int = 1) -> int:
    """Write about ``events`` events; return how many were written."""
    rng = random.Random(seed)
    w = Writer(out, rng)
    epochs = Epochs(w, seed)
    day = START_DAY
    w.emit("campaign", c.CampaignCreated(name=NAME, rules=["coeac", "gods"], calendar={"kind": "gregorian"},
                                         start=day), day)
    epochs.open(day)
    cast: dict[str, dict] = {}
    for p in range(players):
        player = f"Player {p + 1}"
        w.emit(f"player:player-{p + 1}", s.PlayerAdded(name=player), day)
        name = f"Hero {p + 1}"
        wealth = rng.randint(0, 4)
        w.emit(f"character:hero-{p + 1}", s.CharacterCreated(name=name, player=player, max_hp=6,
                                                             opening={"cash": 20, "wealth": wealth}), day)
        cast[name] = {"player": player, "cash": 20, "wealth": wealth, "god": False, "black": 0, "stream": f"character:hero-{p + 1}"}
    for name in list(cast)[: players // 3]:
        w.emit(cast[name]["stream"], g.GodAdopted(character=name, god="Tyr", power=rng.randint(3, 8), alignment="2L",
                                                  flatterable=True, sacrifice="a broken weapon"), day)
        cast[name]["god"] = True
    session, cash_events, session_days = 0, [], []
    # Sessions spread evenly over the years asked for: weekly at a small table, many
    # a day at an open table with many tables running (about 75 events a session).
    step = 364 * years / max(1, events // 75)
    while w.count < events:
        session += 1
        party = rng.sample(list(cast), k=min(len(cast), rng.randint(3, 6)))
        opened = w.emit(f"session:{session}", s.SessionOpened(number=session, start=day,
                                                              activated={cast[n]["player"]: n for n in party},
                                                              income=True), day, session)
        for name in party:
            dice = cast[name]["wealth"] or 1
            roll, got = epochs.roll(f"{dice}d6s4", day, session, name, "Income")
            w.emit(cast[name]["stream"], co.IncomeRolled(character=name, wealth_dice=dice, economy_dice=0,
                                                         successes=got), day, session, roll)
            cast[name]["cash"] += got
        epochs.reveal(day, session)
        epochs.open(day, session)
        for _ in range(rng.randint(10, 40)):  # the evening's rolls
            who = rng.choice(party)
            epochs.roll(rng.choice(["2d6", "6d6s4", "3d6", "d20", "d%"]), day, session, who, "at the table")
        for name in party:
            if cast[name]["god"] and rng.random() < 0.3:
                cast[name]["black"] += 1
                w.emit(cast[name]["stream"], g.BlackMarkGiven(character=name, why="out of alignment"), day, session)
        horde = rng.choice([10, 20, 40])
        w.emit(f"session:{session}", s.TreasureFound(cash=horde, source="a horde"), day, session)
        shares = {n: horde // len(party) for n in party}
        shares[party[0]] += horde - sum(shares.values())
        w.emit(f"session:{session}", s.TreasureDivided(total=horde, shares=shares), day, session)
        for name, share in shares.items():
            cast[name]["cash"] += share
        wager_to = rng.choice(party)
        if cast[wager_to]["cash"] >= 8 and cast[wager_to]["wealth"] < 12:
            wager = rng.randint(4, min(cast[wager_to]["cash"], 30))
            rank = cast[wager_to]["wealth"] + 1
            roll, got = epochs.roll(f"{wager}d6s4", day, session, wager_to, "Wealth")
            won = got >= 2 * rank
            w.emit(cast[wager_to]["stream"], co.WealthAttempted(
                character=wager_to, rank_from=rank - 1, ob=2 * rank, wager=wager, successes=got,
                succeeded=won, period=f"session {session}", limit="session"), day, session, roll)
            cast[wager_to]["cash"] -= wager
            cast[wager_to]["wealth"] += won
        end = day + (rng.randint(1, min(5, int(step) - 1)) if step >= 2 else 0)
        for name in party:
            w.emit(cast[name]["stream"], s.BoonGained(character=name, reason="session"), end, session)
        epochs.reveal(end, session)
        epochs.open(end)
        w.emit(f"session:{session}", s.SessionClosed(number=session, start=day, end=end, havens=sorted(party)),
               end, session, opened)
        day = max(end, START_DAY + int(session * step))
        if day > end:
            w.emit("calendar", CalendarAdvanced(from_day=end, to_day=day, days=day - end, why="time in town"), day)
        who = rng.choice(list(cast))
        cash_events.append((w.emit(cast[who]["stream"], s.CashChanged(character=who, delta=2, why="a job"), day),
                            who))
        cast[who]["cash"] += 2
        session_days.append(day)
        if rng.random() < 0.2:  # remembered late, a few sessions on: a fact for an earlier day
            late = session_days[-min(len(session_days), rng.randint(2, 6))]
            w.emit(cast[who]["stream"], s.CashChanged(character=who, delta=1, why="remembered late"), late)
            cast[who]["cash"] += 1
        if rng.random() < 0.05 and len(cash_events) > 3:
            # A mistake noticed within a few weeks (see docs/performance.md on voids of old events).
            target, whose = cash_events.pop(rng.randrange(max(0, len(cash_events) - 6), len(cash_events) - 1))
            cast[whose]["cash"] -= 2  # the withdrawn job's pay: later wagers are decided without it
            w.emit("campaign", c.EventVoided(target=target, target_type="cash.changed", reason="mis-recorded",
                                             ruled_by="referee"), day, cause=target)
    return w.count


def lines(path: str) -> Iterator[str]:
    with open(path, encoding="utf-8") as handle:
        yield from handle
