"""The dice a decision rolls with, without a transaction: hand-rolled faces
read as --dice reads them, recorded as hand rolls (not verifiable)."""

import pytest

from commands.batch import Batch
from commands.dice_sources import Faces, NoDice
from ledger.errors import BadInput
from tests.rules.table import Table


@pytest.fixture
def batch_of():
    t = Table("coeac")
    return lambda dice: Batch(t.state(), dice)


def test_each_roll_takes_its_share_of_the_faces_in_order(batch_of):
    batch = batch_of(Faces([6, 2, 3, 4, 5], epoch=7))
    _, faces, total = batch.roll("2d6", character="Bo", why="first")
    assert (faces, total) == ([6, 2], 8)
    _, faces, total = batch.roll("3d6", why="second")
    assert (faces, total) == ([3, 4, 5], 12)
    first = batch.done()[0]
    assert (first.stream, first.event.epoch, first.event.nonce, first.event.verifiable) == ("epoch:7", 7, None, False)
    assert (first.event.character, first.event.why) == ("Bo", "first")


def test_an_exploding_die_reads_as_many_faces_as_its_faces_call_for(batch_of):
    batch = batch_of(Faces([6, 6, 2, 4]))
    assert batch.roll("1d6!")[1:] == ([6, 6, 2], 14)
    assert batch.roll("1d6")[1:] == ([4], 4)


def test_faces_that_run_out_or_are_left_over_are_refused_as_with_dice(batch_of):
    with pytest.raises(BadInput, match=r"^--dice ran out: 2d6 \(wound\) needs 2 face\(s\), 1 left; give every die"):
        batch_of(Faces([3])).roll("2d6", why="wound")
    with pytest.raises(BadInput, match=r"--dice ran out: 1d6! \(roll\) needs more face\(s\), 1 left"):
        batch_of(Faces([6])).roll("1d6!")
    batch = batch_of(Faces([3, 4, 5]))
    batch.roll("2d6")
    with pytest.raises(BadInput, match=r"^--dice gave 1 face\(s\) more than the rolls needed$"):
        batch.done()
    with pytest.raises(BadInput, match="7 is not a face of a d6"):
        batch_of(Faces([7])).roll("1d6")


def test_a_decision_given_no_dice_that_rolls_is_a_bug(batch_of):
    with pytest.raises(RuntimeError, match="a decision given no dice rolled 2d6"):
        batch_of(NoDice()).roll("2d6", why="x")
