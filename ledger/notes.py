"""C2SP signed notes (c2sp.org/signed-note): text signed by named Ed25519
keys, the key strings Go's sumdb/note package reads and writes, and the
timestamped witness cosignatures of c2sp.org/tlog-cosignature.

* A note is its text (ending in a newline), a blank line, then one line per
  signature: an em dash, a space, the key's name, a space, and
  base64(4-byte key ID || signature).
* A key ID is the first four bytes of SHA-256(name || 0x0A || type ||
  public key); type 0x01 is a plain Ed25519 note signature, 0x04 a
  cosignature/v1, whose signature is an 8-byte big-endian POSIX time
  followed by the Ed25519 signature of "cosignature/v1\\ntime T\\n" and the text.
* A verifier key is ``name+keyid+base64(type || public key)``; a signer key
  is ``PRIVATE+KEY+name+keyid+base64(type || 32-byte seed)``.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
import struct
import unicodedata
from dataclasses import dataclass
from typing import Optional

from ledger.errors import BadInput
from ledger.text import LABEL_LIMIT

ED25519 = 0x01
COSIGNATURE_V1 = 0x04
_KINDS = {ED25519: "Ed25519 note", COSIGNATURE_V1: "Ed25519 cosignature/v1"}
DASH = "\u2014"
MAX_SIGNATURES = 100  # the spec asks verifiers to accept at least 16


def valid_name(name: str) -> bool:
    """A key name: non-empty, no Unicode space, no plus, no control character,
    and text UTF-8 can carry (no lone surrogate, as from bytes that were never text)."""
    return bool(name) and "+" not in name and not any(
        c.isspace() or unicodedata.category(c) in ("Cc", "Cs", "Zs", "Zl", "Zp") for c in name)


def key_id(name: str, kind: int, public: bytes) -> bytes:
    return hashlib.sha256(name.encode() + b"\n" + bytes([kind]) + public).digest()[:4]


def cosigned_message(text: str, timestamp: int) -> bytes:
    """What a cosignature/v1 signs: two header lines, then the checkpoint's text."""
    return f"cosignature/v1\ntime {timestamp}\n".encode() + text.encode()


@dataclass(frozen=True)
class Verifier:
    name: str
    kind: int  # ED25519 or COSIGNATURE_V1
    public: bytes

    @property
    def key_id(self) -> bytes:
        return key_id(self.name, self.kind, self.public)

    @property
    def vkey(self) -> str:
        return f"{self.name}+{self.key_id.hex()}+{base64.b64encode(bytes([self.kind]) + self.public).decode()}"

    def verifies(self, text: str, signature: bytes) -> bool:
        """Is ``signature`` (without its key ID) this key's over the note text?"""
        from cryptography.exceptions import InvalidSignature
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

        if self.kind == COSIGNATURE_V1:
            if len(signature) != 72:
                return False
            timestamp, signature = struct.unpack(">Q", signature[:8])[0], signature[8:]
            message = cosigned_message(text, timestamp)
        else:
            message = text.encode()
        try:
            Ed25519PublicKey.from_public_bytes(self.public).verify(signature, message)
        except (InvalidSignature, ValueError):
            return False
        return True


@dataclass(frozen=True)
class Signer:
    name: str
    kind: int
    seed: bytes

    @property
    def verifier(self) -> Verifier:
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        public = Ed25519PrivateKey.from_private_bytes(self.seed).public_key().public_bytes_raw()
        return Verifier(self.name, self.kind, public)

    @property
    def skey(self) -> str:
        return (f"PRIVATE+KEY+{self.name}+{self.verifier.key_id.hex()}+"
                f"{base64.b64encode(bytes([self.kind]) + self.seed).decode()}")

    def sign(self, text: str, timestamp: Optional[int] = None) -> str:
        """The signature line's base64: key ID, then (for a cosignature, the
        timestamp and) the Ed25519 signature of the note text."""
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        key = Ed25519PrivateKey.from_private_bytes(self.seed)
        if self.kind == COSIGNATURE_V1:
            if timestamp is None or not 0 <= timestamp < 2**63:
                raise ValueError("a cosignature needs a POSIX timestamp")
            signature = struct.pack(">Q", timestamp) + key.sign(cosigned_message(text, timestamp))
        else:
            signature = key.sign(text.encode())
        return base64.b64encode(self.verifier.key_id + signature).decode()


def generate(name: str, kind: int) -> Signer:
    if not valid_name(name) or len(name) > LABEL_LIMIT or unicodedata.normalize("NFC", name) != name:
        raise BadInput(f"{name[:LABEL_LIMIT]!r} cannot name a key: a key name has no spaces and no '+', at most "
                       f"{LABEL_LIMIT} characters, in NFC (a schema-less URL such as example.org/ann is usual)")
    return Signer(name, kind, os.urandom(32))


def _b64(text: str) -> bytes:
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise ValueError("not base64") from None


def parse_vkey(vkey: str, what: str = "the verifier key") -> Verifier:
    """A verifier key string, checked (name, key ID, type, length)."""
    name, _, rest = vkey.strip().partition("+")
    hex_id, _, material = rest.partition("+")
    try:
        raw = _b64(material)
        given = bytes.fromhex(hex_id) if len(hex_id) == 8 else b""
    except ValueError:
        raw, given = b"", b""
    if not valid_name(name) or len(given) != 4 or len(raw) != 33 or raw[0] not in _KINDS:
        raise BadInput(f"{what} is not a verifier key (name+keyid+base64 of an Ed25519 public key, "
                       f"as `tally keys show` prints): {vkey[:120]!r}")
    verifier = Verifier(name, raw[0], raw[1:])
    if verifier.key_id != given:
        raise BadInput(f"{what} does not hold together: its key ID {hex_id} is not the hash of its name and key")
    return verifier


def parse_skey(skey: str, where: str) -> Signer:
    """A signer key string (as in a key file), checked against its own key ID."""
    parts = skey.strip().split("+", 4)  # base64 may hold "+" too: the key is the rest
    try:
        raw = _b64(parts[4]) if len(parts) == 5 else b""
        given = bytes.fromhex(parts[3]) if len(parts) == 5 and len(parts[3]) == 8 else b""
    except ValueError:
        raw, given = b"", b""
    if parts[:2] != ["PRIVATE", "KEY"] or len(given) != 4 or len(raw) != 33 or raw[0] not in _KINDS \
            or not valid_name(parts[2]):
        raise BadInput(f"{where} holds no signing key (PRIVATE+KEY+name+keyid+base64, as `tally keys new` writes)")
    signer = Signer(parts[2], raw[0], raw[1:])
    if signer.verifier.key_id != given:
        raise BadInput(f"{where} is damaged: its key ID does not match the key it holds")
    return signer


@dataclass(frozen=True)
class Signature:
    name: str
    key_id: bytes
    signature: bytes  # after the key ID
    line: str  # the base64 as written

    def by(self, verifier: Verifier) -> bool:
        return self.name == verifier.name and self.key_id == verifier.key_id


@dataclass(frozen=True)
class Note:
    text: str
    signatures: tuple[Signature, ...]

    def render(self) -> str:
        return self.text + "\n" + "".join(f"{DASH} {s.name} {s.line}\n" for s in self.signatures)


def parse_note(data: str, what: str = "the note") -> Note:
    """A signed note, split at its last blank line; its signature lines parsed (not verified)."""
    bad = f"{what} is not a signed note (text, a blank line, then lines '{DASH} name signature')"
    if any(ord(c) < 0x20 and c != "\n" for c in data) or not data.endswith("\n"):
        raise BadInput(bad)
    split = data.rfind("\n\n")
    if split < 0:
        raise BadInput(bad)
    text, lines = data[:split + 1], data[split + 2:-1].split("\n")
    if len(lines) > MAX_SIGNATURES:
        raise BadInput(f"{what} has {len(lines)} signatures, more than the {MAX_SIGNATURES} tally reads")
    signatures = []
    for line in lines:
        dash, _, rest = line.partition(" ")
        name, _, encoded = rest.partition(" ")
        try:
            raw = _b64(encoded)
        except ValueError:
            raw = b""
        if dash != DASH or not valid_name(name) or len(raw) < 5 or " " in encoded:
            raise BadInput(bad)
        signatures.append(Signature(name, raw[:4], raw[4:], encoded))
    return Note(text, tuple(signatures))


def timestamp_of(signature: Signature) -> int:
    """The POSIX time a cosignature/v1 carries."""
    return struct.unpack(">Q", signature.signature[:8])[0]
