"""The in-game date a command logs its facts on, when it is not today (a
fact logged late). Set for one invocation by `tally --game-date DATE …`;
kept apart from the commands so the command line can set it before it
knows which command will run."""

from contextvars import ContextVar
from typing import Optional

LATE_FACT: ContextVar[Optional[str]] = ContextVar("late_fact", default=None)
