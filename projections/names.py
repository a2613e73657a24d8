"""How names become keys: case and punctuation do not make a new character."""

import re


def key(name: str) -> str:
    return re.sub(r"[^0-9a-z]+", "-", name.strip().lower()).strip("-")
