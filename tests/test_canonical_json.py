"""The ledger's canonical JSON is RFC 8785's (the JSON Canonicalization
Scheme): byte for byte against an implementation of its own (the rfc8785
package) for everything the ledger accepts, and what would encode otherwise
is refused on append and on import, with nothing written."""

import json

import pytest
import rfc8785
from hypothesis import given, settings, strategies as st

from ledger.chain import SAFE_INTEGER, canonical_json, check_canonical
from ledger.errors import BadInput

# Text as the ledger keeps it: any code point but lone surrogates, keys outside the BMP included.
text = st.text(st.characters(exclude_categories=("Cs",)), max_size=12)
values = st.recursive(
    st.none() | st.booleans() | st.integers(-SAFE_INTEGER, SAFE_INTEGER) | text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text, inner, max_size=5),
    max_leaves=25)


@settings(max_examples=400, deadline=None)
@given(values)
def test_what_the_ledger_accepts_it_encodes_as_rfc_8785_does(value):
    try:
        ours = canonical_json(value)
    except BadInput as refused:  # only where RFC 8785's key order is not code-point order
        assert "Basic Multilingual Plane" in str(refused)
        return
    assert ours.encode("utf-8") == rfc8785.dumps(value)


def test_keys_outside_the_bmp_are_kept_while_both_orders_agree():
    # U+1F600 sorts after U+00E9 by code point and by UTF-16 code unit alike.
    value = {"\U0001F600": 1, "\u00e9": 2, "a": 3}
    assert canonical_json(value).encode() == rfc8785.dumps(value)


def test_keys_whose_rfc_8785_order_differs_are_refused():
    # By code point U+FF01 < U+1F600; in UTF-16 the surrogate 0xD83D < 0xFF01 (RFC 8785 3.2.3).
    value = {"\U0001F600": 1, "\uff01": 2}
    assert json.dumps(value, sort_keys=True, ensure_ascii=False).encode() != rfc8785.dumps(value)
    with pytest.raises(BadInput, match="Basic Multilingual Plane"):
        canonical_json(value)


@pytest.mark.parametrize("number", [SAFE_INTEGER + 1, -SAFE_INTEGER - 1, 2**64, 1.0, 0.5])
def test_numbers_rfc_8785_cannot_keep_exactly_are_refused(number):
    # RFC 8785 3.2.2.3 writes numbers as IEEE 754 doubles: 2^53 and beyond lose their last digits.
    with pytest.raises(BadInput, match="whole numbers"):
        check_canonical({"n": [number]})
    assert canonical_json([SAFE_INTEGER, -SAFE_INTEGER]).encode() == rfc8785.dumps([SAFE_INTEGER, -SAFE_INTEGER])


def test_a_lone_surrogate_is_refused():
    with pytest.raises(BadInput, match="lone surrogate"):
        canonical_json({"why": "half \ud83d an emoji"})


def test_a_name_that_would_sort_otherwise_is_refused_on_append(table):
    # Session open records {player: character}: two players whose names RFC 8785 orders
    # differently from code-point order cannot share one record.
    table.ok("player", "add", "\uff21nn")  # FULLWIDTH LATIN CAPITAL LETTER A
    table.ok("player", "add", "\U0001F600 Bea")
    table.ok("char", "new", "Fen", "--player", "\uff21nn", "--max-hp", "5")
    table.ok("char", "new", "Gil", "--player", "\U0001F600 Bea", "--max-hp", "5")
    refused = table.refused("session", "open", "--activate", "Fen", "--activate", "Gil")
    assert "RFC 8785" in refused.stderr and "Basic Multilingual Plane" in refused.stderr


def test_an_import_line_rfc_8785_would_encode_otherwise_is_refused(tally_sqlite, tmp_path):
    import hashlib

    from ledger.chain import GENESIS, HASHED_FIELDS

    # A hand-made line whose hash is right for Python's encoding of a number beyond 2^53.
    event = {"position": 1, "campaign": "G", "stream": "campaign", "version": 1, "type": "campaign.created",
             "schema": 1, "game_time": 2**60, "recorded_at": "2026-11-23T20:15:00.000000Z", "session": None,
             "actor": "x", "cause": None, "payload": {}, "prev_hash": GENESIS}
    body = json.dumps({k: event[k] for k in HASHED_FIELDS}, sort_keys=True, separators=(",", ":"))
    event["hash"] = hashlib.sha256(body.encode()).hexdigest()
    path = tmp_path / "big.jsonl"
    path.write_text(json.dumps(event) + "\n")
    refused = tally_sqlite.refused("import", str(path))
    assert "line 1" in refused.stderr and "RFC 8785" in refused.stderr


# The encoder as it was before msgspec wrote plain values: Python's json recipe after the walk.
def _recipe(value) -> str:
    check_canonical(value)
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


# Every character msgspec and json might escape differently: controls, quotes, backslash, DEL,
# the line and paragraph separators, non-characters, and anything else up to U+10FFFF.
tricky = st.text(st.sampled_from("\x00\x01\x08\t\n\x0b\x0c\r\x1f \"\\/\x7f\x80\u00e9\u2028\u2029\ufeff\uffff"
                                 "\U0001F600\U0010FFFF") | st.characters(exclude_categories=("Cs",)), max_size=12)
loose = st.recursive(
    st.none() | st.booleans() | st.integers(-2**64, 2**64) | tricky | st.floats(allow_nan=True),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(tricky, inner, max_size=5)
    | st.tuples(inner, inner),
    max_leaves=25)


@settings(max_examples=1500, deadline=None)
@given(loose)
def test_the_msgspec_encoder_writes_the_bytes_the_json_recipe_wrote(value):
    # Whatever the old encoder accepted comes out byte for byte the same; whatever it refused is refused.
    try:
        before = _recipe(value)
    except BadInput as refused_then:
        with pytest.raises(BadInput) as refused_now:
            canonical_json(value)
        assert str(refused_now.value) == str(refused_then)
        return
    assert canonical_json(value) == before


@settings(max_examples=1500, deadline=None)
@given(values)
def test_msgspec_itself_agrees_with_the_recipe_on_every_plain_value(value):
    # The fast path's own encoder, called directly, even where canonical_json would take
    # the walk (characters outside the BMP): no case where the two differ is hidden by it.
    from ledger.chain import _ENCODE, is_plain

    assert is_plain(value)
    assert _ENCODE(value).decode("utf-8") == json.dumps(value, sort_keys=True, separators=(",", ":"),
                                                        ensure_ascii=False)


def test_a_float_nan_and_an_overlong_number_still_take_the_walk_and_are_refused():
    # msgspec would write NaN as null and 1.0 as 1.0: neither may reach the ledger.
    for value in ({"n": float("nan")}, {"n": 1.0}, {"n": [2**53]}, {"n": {"m": -2**53}}):
        with pytest.raises(BadInput, match="whole numbers"):
            canonical_json(value)


def _hand_made_line(payload_text: str, **fields) -> bytes:
    """An export line for position 1 with the payload written as given and the hash
    Python's recipe gives it (so only the check under test can refuse it)."""
    import hashlib

    from ledger.chain import GENESIS

    event = {"position": 1, "campaign": "G", "stream": "campaign", "version": 1, "type": "campaign.created",
             "schema": 1, "game_time": 1, "recorded_at": "2026-11-23T20:15:00.000000Z", "session": None,
             "actor": "x", "cause": None, "payload": None, "prev_hash": GENESIS, **fields}
    head = json.dumps(event, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    body = head.replace('"payload":null', '"payload":' + payload_text, 1)
    digest = hashlib.sha256(body.encode("utf-8", "surrogatepass")).hexdigest()
    return (body[:-1] + f',"hash":"{digest}"}}\n').encode("utf-8", "surrogatepass")


@pytest.mark.parametrize("payload_text, fields, words", [
    ('{"n":1.5}', {}, "whole numbers only, not 1.5"),
    ('{"n":NaN}', {}, "whole numbers only, not NaN"),
    ('{"n":1e3}', {}, "whole numbers only, not 1e3"),
    ('{"n":"half \\ud83d an emoji"}', {}, "lone surrogate"),
    ('{"n":9007199254740993}', {}, "RFC 8785"),
    ('{}', {"game_time": 2**60}, "RFC 8785"),
    ('{"\U0001F600":1,"\uff01":2}', {}, "Basic Multilingual Plane"),
])
def test_import_refuses_what_rfc_8785_would_encode_otherwise_in_one_line(tally_sqlite, tmp_path, payload_text,
                                                                         fields, words):
    # Read by msgspec first; what it will not read, or reads but the ledger may not keep,
    # is refused in the ledger's words, and nothing is imported.
    path = tmp_path / "hand.jsonl"
    path.write_bytes(_hand_made_line(payload_text, **fields))
    refused = tally_sqlite.refused("import", str(path))
    assert "line 1" in refused.stderr and words in refused.stderr, refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
    assert "no campaign yet" in tally_sqlite.refused("log", "--json").stderr  # nothing imported


def test_import_refuses_bytes_that_are_not_utf_8(tally_sqlite, tmp_path):
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(_hand_made_line('{"why":"caf\u00e9"}').replace("é".encode(), b"\xe9"))
    refused = tally_sqlite.refused("import", str(path))
    assert "line 1: not UTF-8 text" in refused.stderr
