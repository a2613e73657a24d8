"""Write fixtures/snapshots/world-before-structs.msgpack: a snapshot of a World
that holds every read model class, written by the code this runs on.

It was made by main at dbda517, while the read models were dataclasses, to
show that a snapshot written then still loads once they are msgspec Structs
(tests/test_snapshot_compat.py):

    cd /work/main && .venv/bin/python /path/to/scripts/make-snapshot-fixture.py OUT

It plays the fixture campaigns, adds what none of them records (a project and
a downtime action, sealed secrets, an open session), folds each with sessions
archived three to a blob, and takes each read model from the campaign that
fills it. The file holds the snapshot's state and blobs as snapshots.dump
made them, its shape stamp, and the field lines the stamp was made from.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import typing
from pathlib import Path

import msgspec

from ledger.store import Store
from projections import sessions, snapshots
from projections import world as world_model
from projections.timeline import visible

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
PLAYS = [("Central Oregon", "open-table.tally"), ("Wolves", "wolves-start.tally"),
         ("Bifrost", "bifrost-gods.tally"), ("Rifles", "skirmish-battle.tally")]
MORE = [  # Central Oregon, after its script
    ("project", "start", "Bridge", "--ticks", "4", "--owner", "Nureddine"),
    ("calendar", "advance", "2w", "--why", "a fortnight in town"),
    ("downtime", "act", "Nureddine", "works on the bridge", "--project", "Bridge"),
    ("secret", "seal", "Room 1", "a kobold and its lamp"),
    ("secret", "seal", "Room 2", "nothing at all"),
    ("secret", "reveal", "Room 1"),
    ("session", "open", "--activate", "Nureddine", "--no-income", "--client-seed", "a fixture"),
]


def field_lines() -> list[str]:
    """What shape() fingerprints, one line a field (as snapshots.shape builds them)."""
    from types import ModuleType
    import dataclasses

    modules = [world_model] + [m for m in vars(world_model).values()
                               if isinstance(m, ModuleType) and m.__name__.startswith("projections.")]
    return sorted(f"{cls.__module__}.{cls.__qualname__}.{name}:{hint!r}"
                  for module in modules for cls in vars(module).values()
                  if isinstance(cls, type) and cls.__module__ == module.__name__
                  and (dataclasses.is_dataclass(cls) or issubclass(cls, msgspec.Struct))
                  for name, hint in typing.get_type_hints(cls).items())


def main(out: str) -> None:
    tally = Path(sys.executable).parent / "tally"
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/fixture.db"
        for campaign, script in PLAYS:
            where = [] if campaign == "Central Oregon" else ["--campaign", campaign]
            subprocess.run([tally, "--db", url, "--actor", "referee", *where, "script", FIXTURES / script, "--quiet"],
                           check=True, stdout=subprocess.DEVNULL)
        for args in MORE:
            subprocess.run([tally, "--db", url, "--actor", "referee", "--campaign", "Central Oregon", *args],
                           check=True, stdout=subprocess.DEVNULL)
        sessions.ARCHIVE_EVERY = 3  # closed sessions packed into blobs, as a long campaign's are
        store = Store(url)
        folded = {campaign: world_model.fold(visible(store.read(campaign))) for campaign, _ in PLAYS}
        store.dispose()
    home = folded["Central Oregon"]
    world = world_model.World(campaign=home.campaign, stable=home.stable, sessions=home.sessions,
                              company=home.company, gods=folded["Bifrost"].gods, xp=home.xp,
                              wolves=folded["Wolves"].wolves, skirmish=folded["Rifles"].skirmish,
                              downtime=home.downtime, inventory=home.inventory, sealed=home.sealed)
    state, blobs = snapshots.dump(world)
    Path(out).write_bytes(msgspec.msgpack.encode({"state": state, "blobs": blobs, "shape": snapshots.shape(),
                                                  "fields": field_lines()}))


if __name__ == "__main__":
    main(sys.argv[1])
