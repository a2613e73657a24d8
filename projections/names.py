"""How names become keys: case and punctuation do not make a new character."""

import re
from functools import lru_cache

_NOT_KEY = re.compile(r"[^0-9a-z]+")


@lru_cache(maxsize=8192)  # a campaign has few names, and a fold asks for them on nearly every event
def key(name: str) -> str:
    return _NOT_KEY.sub("-", name.strip().lower()).strip("-")
