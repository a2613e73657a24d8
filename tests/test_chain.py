"""The hash rule as the README documents it, checked by recomputing it here
with nothing but hashlib and json."""

import hashlib
import json

import pytest

from ledger.chain import COLUMNS, GENESIS, canonical_json, event_hash, verify_rows, verify_stored
from ledger.errors import BadInput, ChainBroken

FIELDS = {
    "position": 1, "campaign": "Greyhawk", "stream": "campaign", "version": 1,
    "type": "campaign.setting_changed", "schema": 1, "game_time": 373703,
    "recorded_at": "2026-11-23T20:15:00.000000Z", "session": None, "actor": "Åsa",
    "cause": None, "payload": {"value": "pool", "key": "purchase_rule", "previous": "discount"},
    "prev_hash": GENESIS,
}


def test_canonical_json_sorts_keys_drops_spaces_and_keeps_unicode():
    assert canonical_json({"b": 1, "a": [1, "Åsa"], "c": None}) == '{"a":[1,"Åsa"],"b":1,"c":null}'


def test_the_hash_is_sha256_of_the_documented_encoding():
    body = json.dumps(FIELDS, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert event_hash(FIELDS) == hashlib.sha256(body.encode("utf-8")).hexdigest()


def test_the_hash_covers_every_field_but_itself():
    base = event_hash(FIELDS)
    for name, changed in [("position", 2), ("actor", "Bo"), ("game_time", 1), ("cause", 3),
                          ("payload", {"key": "x"}), ("prev_hash", "1" * 64), ("session", 4)]:
        assert event_hash({**FIELDS, name: changed}) != base, name
    assert event_hash({**FIELDS, "hash": "ignored"}) == base


def rows(n=3):
    out, prev = [], GENESIS
    for i in range(1, n + 1):
        fields = {**FIELDS, "position": i, "prev_hash": prev}
        fields["hash"] = prev = event_hash(fields)
        out.append({**fields, "payload": canonical_json(fields["payload"])})
    return out


def test_verify_accepts_an_intact_chain():
    good = rows()
    assert verify_rows(good) == (3, good[-1]["hash"])


@pytest.mark.parametrize("tamper, position, reason", [
    (lambda r: r[1].update(payload=r[1]["payload"].replace("pool", "poul")), 2, "does not match"),
    (lambda r: r[1].update(payload=r[1]["payload"].replace(":", ": ")), 2, "does not match"),
    (lambda r: r[2].update(prev_hash="0" * 64), 3, "prev_hash"),
    (lambda r: r.pop(1), 2, "missing"),
    (lambda r: r[0].update(payload="{not json"), 1, "does not match"),
    (lambda r: r[0].update(payload='{"key":0.5}'), 1, "does not match"),
])
def test_verify_names_the_first_broken_position(tamper, position, reason):
    broken = rows()
    tamper(broken)
    with pytest.raises(ChainBroken, match=reason) as caught:
        verify_rows(broken)
    assert caught.value.position == position


def test_the_stored_hash_is_the_documented_hash_byte_for_byte():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from ledger.chain import COLUMNS, row_hash, stored_hash

    text = st.text(min_size=1, max_size=20)
    scalars = st.one_of(st.none(), st.integers(-10**12, 10**12), text, st.booleans())

    @settings(max_examples=300, deadline=None)
    @given(actor=text, campaign=text, stream=text, type_=text, cause=st.one_of(st.none(), st.integers(1, 10**9)),
           session=st.one_of(st.none(), st.integers(1, 999)), payload=st.dictionaries(text, scalars, max_size=5))
    def check(actor, campaign, stream, type_, cause, session, payload):
        fields = {**FIELDS, "actor": actor, "campaign": campaign, "stream": stream, "type": type_,
                  "cause": cause, "session": session, "payload": payload}
        try:
            stored = {**fields, "payload": canonical_json(payload)}
        except BadInput:  # keys RFC 8785 would order otherwise: refused, so never hashed
            return
        assert stored_hash(stored) == event_hash(fields)
        # and the store's own path, over a row as a tuple
        row = tuple({**stored, "hash": ""}[c] for c in COLUMNS)
        assert row_hash(row) == event_hash(fields)

    check()


def test_a_number_stored_as_text_is_a_broken_chain_not_a_crash():
    row = dict(FIELDS, payload="{}", hash="")
    row["hash"] = event_hash({**row, "payload": {}})
    good = tuple(row[c] for c in COLUMNS)
    assert verify_stored([good]) == (1, row["hash"])
    for column in ("game_time", "version", "schema"):
        bad = tuple(str(v) + "x" if c == column else v for c, v in zip(COLUMNS, good))
        with pytest.raises(ChainBroken, match="altered"):
            verify_stored([bad])
