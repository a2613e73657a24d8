"""The band's ships (seed 000 l.284-300) as pure decisions."""

import pytest

from commands.wolves import ship_acquired
from ledger.errors import BadInput
from ledger.events.wolves import ShipAcquired
from tests.rules.table import Table, only


def test_a_ship_bought_goes_through_ship_buy_and_one_taken_costs_nothing():
    # 000 l.300: "Value is the ransom paid for the return of a captured vessel - triple this to pay for a new one"
    t = Table("wolves")
    for how in ("bought", "Purchased in Hedeby", "paid for in silver"):
        with pytest.raises(BadInput, match="a ship bought is paid for: `tally ship buy"):
            ship_acquired(t.state(), "Tub", kind="boat", how=how)
    taken = only(ship_acquired(t.state(), "Tub", kind="boat", how="taken from the buyer's wharf"), ShipAcquired)
    assert (taken.price, taken.by) == (0, None)
