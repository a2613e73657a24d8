"""Faces derived from a committed seed, exactly as DESIGN.md §4 states:

roll n of an epoch reads the byte stream HMAC-SHA256(key=S, msg="K:n:0") ‖
HMAC-SHA256(key=S, msg="K:n:1") ‖ … (UTF-8, decimal numbers); each die of
size s takes the next 4 bytes as a big-endian unsigned u, discards them if
u ≥ floor(2³²/s)·s, and otherwise shows u mod s + 1. S is the 32 raw bytes
whose hex is revealed; an average die is a d6 read through 2,3,3,4,4,5.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Iterator

from ledger.dice.expression import AVERAGE_FACES, Dice, Expression


def new_seed() -> str:
    """A fresh 32-byte secret seed, as hex."""
    return secrets.token_hex(32)


def commitment(seed_hex: str) -> str:
    """C = SHA-256(S) over the 32 raw bytes, as hex."""
    return hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest()


class FaceStream:
    """The dice of one roll, read off the HMAC byte stream."""

    def __init__(self, seed_hex: str, client_seed: str, nonce: int) -> None:
        self._words = self._stream(bytes.fromhex(seed_hex), client_seed, nonce)

    @staticmethod
    def _stream(key: bytes, client_seed: str, nonce: int) -> Iterator[int]:
        block = 0
        while True:
            digest = hmac.new(key, f"{client_seed}:{nonce}:{block}".encode("utf-8"),
                              hashlib.sha256).digest()
            for i in range(0, 32, 4):
                yield int.from_bytes(digest[i:i + 4], "big")
            block += 1

    def die(self, sides: int) -> int:
        """One face of a die with ``sides`` faces, 1..sides."""
        limit = (2 ** 32 // sides) * sides
        for word in self._words:
            if word < limit:
                return word % sides + 1
        raise AssertionError("the stream is endless")

    def read(self, die: Dice) -> int:
        face = self.die(die.sides)
        return AVERAGE_FACES[face - 1] if die.average else face


def derive(expression: Expression, seed_hex: str, client_seed: str, nonce: int) -> tuple[list[int], int]:
    """The faces and total of roll ``nonce`` of an epoch."""
    return expression.evaluate(FaceStream(seed_hex, client_seed, nonce).read)
