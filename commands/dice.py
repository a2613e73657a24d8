"""Rolling dice, the client seed, and revealing an epoch's seed."""

from __future__ import annotations

from pathlib import Path
from typing import Optional, Sequence

from commands.base import activated, clean_name, clean_text, find_character, record
from commands.dice_sources import Dice, Faces, Rolled
from projections.reading import Context, query
from ledger.dice import check
from ledger.dice.derivation import commitment, derive, new_seed
from ledger.dice.expression import Expression, parse
from ledger.engines import resolve_url
from ledger.envelope import Envelope, NewEvent
from ledger.errors import BadInput, RuleRefused
# A roll records through a plain record (ledger/events/rolled.py); the Pydantic models of the
# epochs' other events are imported by the commands that record them.
from ledger.events.rolled import Rolled as RolledEvent
from ledger.sealed import check_label
from ledger.secrets import DICE_SEED
from ledger.settings import in_force
from ledger.store import Store, Transaction
from projections.dice import Epoch


def epoch_stream(number: int) -> str:
    return f"epoch:{number}"


def open_epoch(tx: Transaction, campaign: str, number: int, game_time: int,
               session: Optional[int] = None, covers: Optional[int] = None) -> NewEvent:
    """Draw a secret seed, keep it apart from the events (ledger/secrets.py),
    publish only C. ``covers``: the session the epoch is for (None: downtime)."""
    from ledger.events.dice import EpochCommitted

    seed = new_seed()
    committed = commitment(seed)
    tx.put_secret(DICE_SEED, campaign, committed, seed)
    return NewEvent(epoch_stream(number),
                    EpochCommitted(epoch=number, commitment=committed, session=covers),
                    game_time=game_time, session=session)


def current_epoch(ctx: Context) -> Epoch:
    epoch = ctx.epoch
    if epoch is None:  # every campaign opens epoch 1, every reveal the next
        raise RuleRefused("no dice epoch is open in this campaign")
    return epoch


def epoch_seed(ctx: Context, epoch: Epoch, *, missing: str) -> str:
    """The epoch's secret seed, checked against its commitment; a refusal if it
    is not kept here (``missing`` says what to do then) or does not match."""
    kept = ctx.tx.secret(DICE_SEED, ctx.name, epoch.commitment)
    where = ctx.tx.secrets.where
    if kept is None:
        raise RuleRefused(f"the secret seed of epoch {epoch.number} (commitment {epoch.commitment[:16]}…) "
                          f"is not in {where}: {missing}")
    if not _is_seed(kept) or commitment(kept) != epoch.commitment:
        raise RuleRefused(f"the seed kept in {where} for epoch {epoch.number} does not match its commitment "
                          f"{epoch.commitment[:16]}… (the secrets were changed, or belong to another ledger): "
                          "nothing was recorded")
    return kept


def _is_seed(text: str) -> bool:
    return len(text) == 64 and all(c in "0123456789abcdef" for c in text)


NOT_ROLLED_HERE = ("this copy of the ledger can be read and verified but not rolled (copied or imported without "
                   "its secrets?): roll where the epoch was committed, or log hand rolls with --dice")

Asked = tuple[str, int, Optional[int]]  # (under|at_most|at_least|over|ob, the number, the epic margin)


def roll_under(ctx: Context) -> str:
    """How --under reads in this campaign: below, or at most (setting roll_under, 000 l.161)."""
    return ctx.campaign.settings.get("roll_under", "below")


def roll_event(ctx: Context, text: str, *, character: Optional[str] = None,
               why: Optional[str] = None, hand: Optional[Sequence[int]] = None,
               nonce_offset: int = 0, session: Optional[int] = None,
               against: Optional[Asked] = None, on: Optional[str] = None) -> NewEvent:
    """The dice.rolled event for one roll in the current epoch. Commands that
    roll several times in one transaction pass ``nonce_offset``; ``against``
    checks the total against a target and records the result; ``on``: the
    label of the sealed table it is rolled on (commands/sealed.py)."""
    expression = parse(text)
    aim = check.target(*against, roll_under=roll_under(ctx)) if against else None
    epoch = current_epoch(ctx)
    table = None
    if on is not None:  # the sealed tables' module only for a roll on one: a plain roll starts light
        from commands import sealed

        table = sealed.table_roll(ctx, on, expression)
    if hand is not None:
        reading = expression.hand(list(hand))
        faces, total = list(reading.faces), reading.total
        nonce, verifiable = None, False
    else:
        require_player_seed(ctx, epoch)
        seed = epoch_seed(ctx, epoch, missing=NOT_ROLLED_HERE)
        nonce, verifiable = epoch.nonces + nonce_offset, True
        faces, total = derive(expression, seed, epoch.client_seed, nonce)
    event = RolledEvent(
        expression=expression.text, dice=faces, total=total, epoch=epoch.number, nonce=nonce,
        verifiable=verifiable,
        character=clean_name(character, "--for") if character else None,
        why=clean_text(why, "--why") if why else None,
        check=aim.result(total) if aim else None,
        on=table,
    )
    return NewEvent(epoch_stream(epoch.number), event, game_time=ctx.today, session=session)


NO_PLAYER_SEED = ("no player seed: the referee's side chose every input of this roll, so it could have been "
                  "known in advance")


def require_player_seed(ctx: Context, epoch: Epoch) -> None:
    """With the setting player_seed = required, a derived roll needs the
    players' client seed K in its epoch: without one the referee's side chose
    S and every other input, and could know (or pick) the roll in advance."""
    if epoch.client_seed or in_force(ctx.campaign.settings, "player_seed") != "required":
        return
    if epoch.nonces:  # the setting was changed mid-epoch: K can no longer be set here
        reveal = "`tally session close`" if ctx.session is not None else "`tally dice reveal`"
        how = f"it has rolls, so its seed can no longer be set: reveal it with {reveal} and give the next epoch one"
    else:
        how = "a player sets one with `tally dice client-seed TEXT` before its first roll"
    raise RuleRefused(f"epoch {epoch.number} has no player seed and this campaign requires one (setting "
                      f"player_seed): {how}; hand-rolled --dice faces are still taken")


class EpochDice:
    """Rolls derived from the open epoch's secret seed, one nonce after
    another: what a decision rolls with in production. The seed is read, and
    the player seed required where the campaign says so, in the transaction
    the decision is recorded in, as each roll is made."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.derived = 0

    def roll(self, expression: Expression, text: str, why: Optional[str]) -> Rolled:
        epoch = current_epoch(self.ctx)
        require_player_seed(self.ctx, epoch)
        seed = epoch_seed(self.ctx, epoch, missing=NOT_ROLLED_HERE)
        nonce = epoch.nonces + self.derived
        faces, total = derive(expression, seed, epoch.client_seed, nonce)
        self.derived += 1
        return Rolled(faces, total, epoch.number, nonce, True)

    def left(self) -> int:
        return 0


def dice_of(ctx: Context, hand: Optional[Sequence[int]] = None) -> Dice:
    """The dice a command decides with: the referee's hand-rolled faces
    (``--dice``), recorded in the open epoch, or the epoch's derived rolls."""
    if hand is not None:
        return Faces(hand, lambda: current_epoch(ctx).number)
    return EpochDice(ctx)


def roll(store: Store, campaign: Optional[str], text: str, *, actor: str,
         character: Optional[str] = None, why: Optional[str] = None,
         hand: Optional[Sequence[int]] = None, against: Optional[Asked] = None,
         on: Optional[str] = None) -> Envelope:
    return roll_seeded(store, campaign, text, actor=actor, character=character, why=why, hand=hand,
                       against=against, on=on)[0]


def roll_seeded(store: Store, campaign: Optional[str], text: str, *, actor: str,
                character: Optional[str] = None, why: Optional[str] = None,
                hand: Optional[Sequence[int]] = None, against: Optional[Asked] = None,
                on: Optional[str] = None) -> tuple[Envelope, Optional[bool]]:
    """The roll, and whether its epoch had a player seed (None for a hand roll),
    read in the roll's own transaction."""
    parse(text)  # refuse a bad expression, or target, before touching the database
    if against:
        check.target(*against)
    if on is not None:
        on = check_label(on, "--on")
    seeded: list[Optional[bool]] = []

    def decide(ctx: Context) -> list[NewEvent]:
        # A roll for no character (misspelt, dead, never created) would be kept under a name no sheet has.
        whose = find_character(ctx, character).name if character else None
        _for_activated(ctx, whose)
        seeded.append(None if hand is not None else bool(current_epoch(ctx).client_seed))
        return [roll_event(ctx, text, character=whose, why=why, hand=hand, against=against, on=on)]

    return record(store, campaign, actor, decide)[0], seeded[-1]


def _for_activated(ctx: Context, name: Optional[str]) -> None:
    """A roll --for a character of the stable, in a session, is that character acting: only the
    activated act (004 l.496)."""
    character = ctx.world.stable.character(name) if name else None
    if character is not None:
        activated(ctx, character)


def ledger_exists(db: Optional[str]) -> bool:
    """Whether --db (or TALLY_DB, or ./tally.db) names a ledger to ask, without creating one."""
    url = resolve_url(db)
    return not url.startswith("sqlite:///") or Path(url[len("sqlite:///"):]).exists()


def odds_target(store: Optional[Store], campaign: Optional[str], against: Asked) -> check.Target:
    """The target `tally odds` reads: --under as the campaign's roll_under if
    there is a ledger to ask (``store``), else as its default, below."""
    plain = check.target(*against)  # a bad target is refused before the ledger is read
    if store is None or against[0] != "under":
        return plain
    return query(store, campaign, lambda ctx: check.target(*against, roll_under=roll_under(ctx)))


CLIENT_SEED_LIMIT = 200


def set_client_seed(store: Store, campaign: Optional[str], client_seed: str, *,
                    actor: str) -> Envelope:
    text = clean_text(client_seed, "the client seed", CLIENT_SEED_LIMIT)

    from ledger.events.dice import ClientSeedSet

    def decide(ctx: Context) -> list[NewEvent]:
        epoch = current_epoch(ctx)
        if epoch.nonces:
            reveal = "`tally session close`" if ctx.session is not None else "`tally dice reveal`"
            raise RuleRefused(
                f"epoch {epoch.number} has {epoch.nonces} roll(s) already: a client seed must be set "
                f"before the first roll (set it for the next epoch after {reveal})"
            )
        if epoch.client_seed:
            raise RuleRefused(
                f"epoch {epoch.number} already has client seed {epoch.client_seed!r}; it cannot be changed"
            )
        return [NewEvent(epoch_stream(epoch.number), ClientSeedSet(epoch=epoch.number, client_seed=text),
                         game_time=ctx.today)]

    return record(store, campaign, actor, decide)[0]


def reveal_events(ctx: Context, session: Optional[int] = None, *, rolls_in_batch: int = 0,
                  next_session: Optional[int] = None, game_time: Optional[int] = None) -> list[NewEvent]:
    """Close the current epoch by revealing S, and open the next one (for
    ``next_session``, or downtime). ``rolls_in_batch``: derived rolls the same
    transaction already made in the closing epoch."""
    from ledger.events.dice import EpochRevealed

    epoch = current_epoch(ctx)
    game_time = ctx.today if game_time is None else game_time
    seed = epoch_seed(ctx, epoch, missing="reveal it where it was committed, with its secrets")
    revealed = EpochRevealed(epoch=epoch.number, commitment=epoch.commitment, seed=seed,
                             client_seed=epoch.client_seed, rolls=epoch.nonces + rolls_in_batch)
    return [NewEvent(epoch_stream(epoch.number), revealed, game_time=game_time, session=session),
            open_epoch(ctx.tx, ctx.name, epoch.number + 1, game_time, session, covers=next_session)]


def reveal(store: Store, campaign: Optional[str], *, actor: str) -> list[Envelope]:
    def decide(ctx: Context) -> list[NewEvent]:
        if ctx.session is not None:
            raise RuleRefused(
                f"session {ctx.session.number} is open: its epoch is revealed by `tally session close`"
            )
        return reveal_events(ctx)

    return record(store, campaign, actor, decide)


def parse_hand_faces(text: str) -> list[int]:
    try:
        faces = [int(part) for part in text.replace(" ", "").split(",") if part != ""]
    except ValueError:
        raise BadInput(f"--dice takes faces separated by commas, like 4,6,1 (not {text!r})") from None
    if not faces:
        raise BadInput("--dice needs at least one face, like 4,6,1")
    return faces
