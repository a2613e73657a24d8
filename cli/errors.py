"""The one place where what went wrong becomes what the user reads.

Every command (one-shot, a line of `tally script`, a line typed in `tally
shell`) runs inside `boundary`: the ledger's refusals become one line on
stderr and exit 1; a reader that stopped reading (`| head`) ends the command
quietly (exit 1); anything unexpected becomes one line and a hint, exit 1. Usage
errors are the command line's own (exit 2): they pass through untouched.

What went wrong is also handed to whoever ran the command, as a ``Refusal``
on its options (``Options.refusal``): `tally script` reports a refused line
from it, and says nothing of it on stderr itself (``Options.hand_back``),
rather than reading its own stderr back.
"""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Optional

import typer

from ledger.errors import TallyError

HINT = "Run again with TALLY_DEBUG=1 for the details and report it"


def one_line(message: str, limit: int = 1000) -> str:
    """A refusal fit for a terminal: what it quotes of the user's input (a path,
    a name) cannot break it over lines or send escapes, and a quoted 100 KB
    string is cut in the middle."""
    message = "".join(c if c.isprintable() else repr(c)[1:-1] for c in message)
    if len(message) > limit:
        message = f"{message[:limit // 2]} …[{len(message) - limit} characters]… {message[-limit // 2:]}"
    return message


def internal(exc: BaseException) -> str:
    detail = (str(exc).strip().splitlines() or [""])[0][:200]
    # Whether anything was recorded depends on where it broke (a command records all of its
    # events or none); the log says which, so the message does not guess.
    return f"internal error ({exc.__class__.__name__}: {detail}); `tally log` shows what is recorded. {HINT}"


@dataclass(frozen=True)
class Refusal:
    """What went wrong with a command, as its one line says it."""

    message: str  # the line, without "tally: "
    code: int  # the exit status
    unexpected: bool = False  # an internal error, not a refusal of the ledger's


def _said(outcome: Any, refusal: Refusal) -> None:
    """Hand the refusal to whoever ran the command; print it unless they report it themselves."""
    if outcome is not None and hasattr(outcome, "refusal"):
        outcome.refusal = refusal
        if getattr(outcome, "hand_back", False):
            return
    typer.echo(f"tally: {refusal.message}", err=True)


@contextmanager
def boundary(outcome: Optional[Any] = None):
    """Run a command: `tally: <message>` and exit 1 for a refusal; never a traceback.
    ``outcome``: the command's options, which receive the Refusal."""
    try:
        yield
    except (typer.Exit, typer.Abort, typer.TyperException):
        raise  # exit statuses and usage errors (exit 2): the command line's own
    except TallyError as exc:
        _said(outcome, Refusal(one_line(str(exc)), 1))
        raise typer.Exit(1) from None
    except BrokenPipeError:
        # Whoever read our output has stopped (`tally log | head`): nothing to say,
        # and what remains unprinted goes nowhere, without a second complaint when
        # Python flushes stdout on its way out. Exit 1, as rich (our tables) and
        # click do for the same: the output was cut short.
        _silence_stdout()
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        typer.echo("tally: interrupted; nothing half-written was kept", err=True)
        raise typer.Exit(130) from None
    except Exception as exc:  # the last line of defence
        if os.environ.get("TALLY_DEBUG"):
            raise
        _said(outcome, Refusal(one_line(internal(exc)), 1, unexpected=True))
        raise typer.Exit(1) from None


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # not a real file (a test's capture): nothing to flush later
        pass
