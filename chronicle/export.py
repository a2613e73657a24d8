"""The static site's export.jsonl: one campaign's events whole, every other
event of the ledger as a hash-only line.

A checkpoint signs the Merkle root over every event of the database, all
campaigns (leaf i is SHA-256(0x00 || the hash of event i + 1)). So that a
player can recompute that root from the site alone and learn nothing of the
other campaigns, the export keeps every position: the campaign's own
events are the lines `tally export` writes (their hashes recompute from
their fields), and each other event is only

    {"hash":"<its hash, 64 hex>","position":N,"prev_hash":"<the hash before it>","withheld":true}

(canonical JSON, keys in this order): no campaign, stream, type, actor,
time or payload. Its leaf is taken from its hash as any event's is; its
prev_hash is the line before's hash, so the chain can be followed across
it, though its own hash cannot be recomputed."""

from __future__ import annotations

from contextlib import closing
from typing import TextIO

from ledger.chain import canonical_json, stored_line


def withheld_line(row: tuple) -> str:
    """A stored row (COLUMNS order) of another campaign, as its hash-only line."""
    return canonical_json({"hash": row[13], "position": row[0], "prev_hash": row[12], "withheld": True})


def write_campaign_export(tx, campaign: str, out: TextIO) -> dict:
    """Every event the read transaction sees, in position order: the campaign's whole,
    the rest withheld. What was written: {"events": N, "withheld": M}."""
    written = withheld = 0
    with closing(tx.raw_rows()) as rows:
        for row in rows:
            if row[1] == campaign:
                out.write(stored_line(row) + "\n")
            else:
                out.write(withheld_line(row) + "\n")
                withheld += 1
            written += 1
    return {"events": written, "withheld": withheld}
