"""Reading another tool's file: its text, or a refusal that says why not.
Only a regular file is read (a pipe or a device could hold the command up
for ever), and at most json_input.MAX_BYTES of it."""

from __future__ import annotations

from ledger.errors import BadInput
from ledger.files import read_regular
from commands.imports.json_input import MAX_BYTES


def read_text(path: str, what: str) -> str:
    data = read_regular(path, what, MAX_BYTES)
    try:
        return data.decode("utf-8-sig")  # a byte-order mark, as some Windows tools write, is no part of the JSON
    except UnicodeDecodeError:
        raise BadInput(f"{what} {path} is not UTF-8 text") from None
