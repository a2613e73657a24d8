"""Worker processes a command forks (import's checks, verify's stretches, the
kept histories' fold) end with it: a command killed outright (kill -9, the
kernel's out-of-memory killer) left them waiting for ever on a pipe whose
other end they hold themselves, each with its copy of the ledger's pages."""

from __future__ import annotations

import ctypes
import os
import signal

_PR_SET_PDEATHSIG = 1  # linux/prctl.h


def die_with_parent(parent: int) -> None:
    """A worker's initializer (``initargs=(os.getpid(),)`` in the parent): Linux is
    asked to kill it when the thread that forked it ends; if the parent ended before
    the request was made, it ends at once. Where there is no prctl, nothing."""
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return
    if prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        return
    if os.getppid() != parent:
        os._exit(1)
