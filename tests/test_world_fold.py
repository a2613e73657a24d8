"""The world folds each event only into the read models that react to its
type. That is a speed-up, never a change of meaning: over every fixture
campaign and a generated one, it gives what folding every event into every
read model gives."""

from pathlib import Path

import pytest

from ledger.store import Store
from projections import world
from projections.timeline import visible
from tests.conftest import generated

FIXTURES = Path(__file__).parent.parent / "fixtures"


def played(t, campaign, script):
    """Replay a fixture campaign's script; the ledger's URL."""
    if script is None:
        t.ok("script", str(FIXTURES / "open-table.tally"), "--quiet")
    else:
        t.ok("--campaign", campaign, "script", str(FIXTURES / script), "--quiet")
    return t.url


def every_model_sees_every_event(envelopes):
    state = world.EMPTY
    for e in envelopes:
        state = world.World(*(model.apply(getattr(state, name), e)
                              for model, name in zip(world.MODELS, world._FIELDS)))
    return state


@pytest.mark.parametrize("campaign, script", [("Central Oregon", None), ("Wolves", "wolves-start.tally"),
                                              ("Bifrost", "bifrost-gods.tally"), ("Rifles", "skirmish-battle.tally")])
def test_folding_by_type_changes_nothing_in_the_fixture_campaigns(tally_sqlite, campaign, script):
    store = Store(played(tally_sqlite, campaign, script))
    envelopes = visible(store.read(campaign))
    store.dispose()
    assert len({e.type for e in envelopes}) > 10
    assert world.fold(envelopes) == every_model_sees_every_event(envelopes)


def test_folding_by_type_changes_nothing_in_a_generated_campaign(tmp_path):
    store = Store(generated(tmp_path, events=3000, seed=4))
    envelopes = visible(store.read())
    store.dispose()
    assert world.fold(envelopes) == every_model_sees_every_event(envelopes)


def test_every_model_says_which_event_types_it_folds():
    from projections.handlers import Table

    for model in world.MODELS:
        assert isinstance(model.TABLE, Table) and model.TABLE.model == model.__name__.split(".")[-1], model.__name__
    assert world._reacting("god.black_mark") == tuple(
        i for i, m in enumerate(world.MODELS) if m.__name__.split(".")[-1] in ("campaign", "sessions", "gods"))
    # only the campaign's day and the open session's play see every event; a roll reads no payload
    assert world._reacting("dice.rolled") == (world.MODELS.index(world.campaign), world.MODELS.index(world.sessions))
    assert not world.needs_payload("dice.rolled") and world.needs_payload("god.black_mark")


def test_the_read_models_are_frozen_structs_that_pack_as_their_dataclasses_did():
    """Every class a World holds is a frozen msgspec Struct with nothing run on
    construction, packed as a map by field name as the dataclasses they were
    packed: a snapshot written before they were Structs decodes into them."""
    import dataclasses
    from types import ModuleType

    import msgspec
    from msgspec.structs import replace

    modules = [world] + [m for m in vars(world).values()
                         if isinstance(m, ModuleType) and m.__name__.startswith("projections.")]
    classes = [c for m in modules for c in vars(m).values() if isinstance(c, type) and c.__module__ == m.__name__
               and (dataclasses.is_dataclass(c) or issubclass(c, msgspec.Struct))]
    assert len(classes) >= 20 and world.World in classes
    for cls in classes:
        assert issubclass(cls, msgspec.Struct), cls
        config = cls.__struct_config__
        assert config.frozen and config.eq and not config.order, cls
        assert not (config.array_like or config.omit_defaults or config.tag or config.forbid_unknown_fields), cls
        assert not hasattr(cls, "__post_init__"), cls
        assert all(f.encode_name == f.name for f in msgspec.structs.fields(cls)), cls
    session = world.sessions.Session(3, 10, {"ann": "Bo"})
    assert replace(session, end=12) == world.sessions.Session(3, 10, {"ann": "Bo"}, end=12)
    assert replace(session, end=12) is not session and session.end is None
    with pytest.raises(AttributeError):
        session.end = 12
    with pytest.raises(TypeError, match="no field 'ends'"):
        replace(session, ends=12)


def test_the_quick_replace_holds_for_the_dice_model_and_copies_a_struct_too():
    import dataclasses

    from projections import dice, frozen

    classes = [c for c in vars(dice).values() if isinstance(c, type) and dataclasses.is_dataclass(c)]
    assert {dice.Epoch, dice.DiceState} <= set(classes)
    for cls in classes:  # what frozen.replace relies on
        assert not hasattr(cls, "__post_init__"), cls
        assert all(f.init for f in dataclasses.fields(cls)), cls
    epoch = dice.Epoch(1, "c0ffee", 4)
    assert frozen.replace(epoch, nonces=2) == dataclasses.replace(epoch, nonces=2)
    assert frozen.replace(epoch, nonces=2) is not epoch and epoch.nonces == 0
    with pytest.raises(TypeError, match="no field 'nonce'"):
        frozen.replace(epoch, nonce=2)
    # and a read model of the world's, a Struct, as code written while they were dataclasses hands it
    session = world.sessions.Session(3, 10, {"ann": "Bo"})
    assert frozen.replace(session, end=12) == world.sessions.Session(3, 10, {"ann": "Bo"}, end=12)
    assert frozen.replace(session, end=12) is not session and session.end is None
    with pytest.raises(TypeError, match="no field 'ends'"):
        frozen.replace(session, ends=12)


def test_archiving_closed_sessions_changes_no_answer(tmp_path, monkeypatch):
    from projections import sessions

    store = Store(generated(tmp_path, events=4000, players=6, seed=9))
    envelopes = visible(store.read())
    store.dispose()
    monkeypatch.setattr(sessions, "ARCHIVE_EVERY", 10**9)
    whole = world.fold(envelopes).sessions
    monkeypatch.setattr(sessions, "ARCHIVE_EVERY", 4)
    packed = world.fold(envelopes).sessions
    assert len(packed.archived) > 5 and not whole.archived  # the history really was packed
    assert packed.sessions == whole.sessions and len(whole.sessions) > 20
    assert packed.next_number == whole.next_number and packed.back == whole.back
    assert packed.get(3) == whole.get(3) and packed.get(3) is not None
    for n in range(1, 7):
        assert list(packed.expeditions(f"Hero {n}", 10**6)) == list(whole.expeditions(f"Hero {n}", 10**6))


@pytest.mark.parametrize("campaign, script", [("Central Oregon", None), ("Wolves", "wolves-start.tally"),
                                              ("Bifrost", "bifrost-gods.tally")])
def test_a_rebuild_that_skips_unread_payloads_gives_what_reading_them_all_gives(tally_sqlite, campaign, script):
    from projections.replay import world_at
    from projections.timeline import NOW

    store = Store(played(tally_sqlite, campaign, script))
    with store.reading() as tx:
        skipped = world_at(tx, campaign, NOW, use_snapshots=False)
        assert sum(1 for e in tx.read(campaign) if not world.needs_payload(e.type)) > 10
    everything = world.fold(visible(store.read(campaign)))
    store.dispose()
    assert skipped == everything


def test_an_unread_payload_refuses_to_be_read():
    from ledger.stored_rows import UNREAD

    with pytest.raises(RuntimeError, match="not read"):
        UNREAD["character"]
    with pytest.raises(RuntimeError, match="not read"):
        UNREAD.get("character")
