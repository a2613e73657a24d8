"""Reading another tool's file: its text, or a refusal that says why not."""

from __future__ import annotations

from pathlib import Path

from ledger.errors import BadInput


def read_text(path: str, what: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise BadInput(f"cannot read {what} {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise BadInput(f"{what} {path} is not UTF-8 text") from None
    except ValueError:  # a path with a NUL in it
        raise BadInput(f"cannot read {what} {path!r}: not a file name") from None
