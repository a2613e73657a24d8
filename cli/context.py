"""Global options (--db, --campaign, --actor), shared by every command."""

from __future__ import annotations

import functools
import getpass
import os
from dataclasses import dataclass, field
from typing import Optional

import typer

from ledger.errors import BadInput, TallyError
from ledger.store import Store, resolve_url


@dataclass
class Options:
    db: Optional[str] = None
    campaign: Optional[str] = None
    actor: Optional[str] = None
    game_date: Optional[str] = None  # the global --game-date, given before the command
    _stores: dict = field(default_factory=dict)

    def store(self, create: bool = False) -> Store:
        """The ledger; only commands that may start one create the file."""
        if create not in self._stores:
            self._stores[create] = Store(resolve_url(self.db), create=create)
        return self._stores[create]

    def who(self) -> str:
        if self.actor:
            return self.actor
        if os.environ.get("TALLY_ACTOR"):
            return os.environ["TALLY_ACTOR"]
        try:
            return getpass.getuser()
        except Exception:
            return "referee"

    def late(self, game_date: Optional[str], ruling: Optional[str]) -> dict[str, Optional[str]]:
        """What a recording command passes on: --game-date given before the
        command or at its end (not both), and --ruling."""
        if game_date is not None and self.game_date is not None and game_date != self.game_date:
            raise BadInput(f"--game-date given twice ({self.game_date} and {game_date}): give it once")
        return {"game_date": game_date or self.game_date, "ruling": ruling}

    def close(self) -> None:
        for store in self._stores.values():
            store.dispose()


def options(ctx: typer.Context) -> Options:
    return ctx.find_root().obj


def guarded(command):
    """Every command's refusals become `tally: <message>` on stderr and exit 1;
    nothing else, and never a traceback, reaches the user."""

    @functools.wraps(command)
    def run(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except (typer.Exit, typer.Abort):
            raise
        except TallyError as exc:
            typer.echo(f"tally: {exc}", err=True)
            raise typer.Exit(1) from None
        except KeyboardInterrupt:
            typer.echo("tally: interrupted; nothing half-written was kept", err=True)
            raise typer.Exit(130) from None
        except Exception as exc:  # the last line of defence
            if os.environ.get("TALLY_DEBUG"):
                raise
            detail = (str(exc).strip().splitlines() or [""])[0][:200]
            typer.echo(f"tally: internal error ({exc.__class__.__name__}: {detail}); nothing was written. "
                       "Run again with TALLY_DEBUG=1 for the details and report it", err=True)
            raise typer.Exit(1) from None

    return run
