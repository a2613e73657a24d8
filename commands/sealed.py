"""Sealed secrets (docs/secrets.md): seal a text, publishing only its
commitment, with its salt and text kept in the secrets store beside the dice
seeds (ledger/secrets.py), never in the ledger's database; reveal them later
into the log; verify one; and check a roll on a sealed table before it is
made (commands/dice.py records it).

What the store keeps for a secret is its preimage, the canonical JSON the
commitment hashes, under the commitment itself: a seal that a later check
refuses leaves at most an unused row, never one that blocks the label."""

from __future__ import annotations

from typing import Optional

from commands.base import record_one
from ledger import sealed as rules
from ledger.dice.expression import Expression
from ledger.envelope import Envelope, NewEvent
from ledger.errors import BadInput, NotFound, RuleRefused
from ledger.events.sealed import SecretRevealed, SecretSealed
from ledger.names import key
from ledger.store import Store
from projections.reading import Context, query
from projections.sealed import Secret, rolls_on

STREAM = "secrets"


def seal(store: Store, campaign: Optional[str], label: str, text: str, *, actor: str,
         game_date: Optional[str] = None, ruling: Optional[str] = None) -> Envelope:
    label = rules.check_label(label)
    text = rules.check_text(text)
    salt = rules.new_salt()
    committed = rules.commitment(label, salt, text)

    def decide(ctx: Context) -> NewEvent:
        found = ctx.world.sealed.find(label)
        if found is not None:
            raise RuleRefused(f"the label {found.label!r} is already sealed (event {found.sealed_at}, "
                              f"{ctx.campaign.calendar.format(found.sealed_day)}): choose another label")
        ctx.tx.put_secret(rules.KIND, ctx.name, committed, rules.preimage(label, salt, text))
        return NewEvent(STREAM, SecretSealed(label=label, commitment=committed), game_time=ctx.today)

    return record_one(store, campaign, actor, decide, game_date=game_date, ruling=ruling)


def find(ctx: Context, label: str) -> Secret:
    """The secret of this label at the context's point, or a refusal saying why not."""
    found = ctx.world.sealed.find(label)
    if found is not None:
        return found
    later = [e for e in ctx.events(types=["secret.sealed"]) if key(e.payload["label"]) == key(label)]
    if later and ctx.point.as_of is not None and later[-1].game_time > ctx.point.as_of:
        calendar = ctx.campaign.calendar
        raise RuleRefused(f"{later[-1].payload['label']!r} was sealed on {calendar.format(later[-1].game_time)}, "
                          f"after {calendar.format(ctx.point.as_of)}: a secret is revealed on or after the day it "
                          "was sealed")
    raise NotFound(f"no sealed secret named {label!r} in campaign {ctx.name} (see `tally secret list`)")


def kept_text(ctx: Context, secret: Secret, *, missing: str) -> tuple[str, str, str]:
    """(label, salt, text) of a sealed secret as the secrets store keeps them, checked
    against its commitment; a refusal if they are not kept here (``missing`` says what
    to do then) or no longer make it."""
    where = ctx.tx.secrets.where
    unreadable = ctx.tx.secrets.unreadable(ctx.tx.conn)
    if unreadable:
        raise RuleRefused(f"the text of {secret.label!r} is sealed: {unreadable}, and nobody reads it before "
                          "its reveal but the referee")
    value = ctx.tx.secret(rules.KIND, ctx.name, secret.commitment)
    if value is None:
        raise RuleRefused(f"the text of {secret.label!r} (commitment {secret.commitment[:16]}…) is not in "
                          f"{where}: {missing}")
    found = rules.kept(value)
    if found is None or not rules.holds(*found, secret.commitment) or key(found[0]) != key(secret.label):
        raise RuleRefused(f"the text and salt kept in {where} for {secret.label!r} no longer make its commitment "
                          f"{secret.commitment[:16]}… (the secrets were changed, or belong to another ledger): "
                          "nothing was recorded")
    return found


def reveal(store: Store, campaign: Optional[str], label: str, *, actor: str,
           game_date: Optional[str] = None, ruling: Optional[str] = None) -> Envelope:
    label = rules.check_label(label)

    def decide(ctx: Context) -> NewEvent:
        secret = find(ctx, label)
        if secret.revealed:
            raise RuleRefused(f"{secret.label!r} was already revealed (event {secret.revealed_at}, "
                              f"{ctx.campaign.calendar.format(secret.revealed_day)})")
        sealed_as, salt, text = kept_text(ctx, secret, missing="reveal it where it was sealed, with its secrets")
        return NewEvent(STREAM, SecretRevealed(label=sealed_as, commitment=secret.commitment, salt=salt, text=text),
                        game_time=ctx.today)

    return record_one(store, campaign, actor, decide, game_date=game_date, ruling=ruling)


def verify(store: Store, campaign: Optional[str], label: str) -> dict:
    """A secret's commitment recomputed: from its revealed label, salt and text, or,
    while it is sealed, from what the secrets store keeps (the referee's check that
    the reveal will hold). ``ok`` False names what does not hold; the rolls made on it."""
    label = rules.check_label(label)

    def check(ctx: Context) -> dict:
        secret = find(ctx, label)
        found = {"label": secret.label, "commitment": secret.commitment, "revealed": secret.revealed,
                 "sealed_event": secret.sealed_at, "revealed_event": secret.revealed_at}
        if secret.revealed:
            holds = rules.holds(secret.label, secret.salt, secret.text, secret.commitment)
            found.update(ok=holds, checked="the revealed text and salt", salt=secret.salt, text=secret.text,
                         recomputed=_recomputed(secret.label, secret.salt, secret.text),
                         problem=None if holds else
                         f"the revealed text and salt of {secret.label!r} (event {secret.revealed_at}) do not "
                         f"hash to its commitment {secret.commitment[:16]}…")
        else:
            try:
                kept_text(ctx, secret, missing="it was sealed elsewhere, or this copy was made without its secrets; "
                                               "its commitment can be recomputed once it is revealed")
            except RuleRefused as refused:
                if "no longer make" not in str(refused):
                    raise
                found.update(ok=False, checked="the text kept for the reveal", problem=str(refused))
            else:
                found.update(ok=True, checked="the text kept for the reveal", problem=None)
        found["rolls"] = rolls_on(ctx, secret)
        return found

    return query(store, campaign, check)


def _recomputed(label: str, salt: str, text: str) -> Optional[str]:
    try:
        return rules.commitment(label, salt, text)
    except BadInput:
        return None


def table_roll(ctx: Context, label: str, expression: Expression) -> dict[str, str]:
    """The sealed table a roll is made on, checked: there is one of that label, it
    still makes its commitment, and every total the expression can roll picks
    exactly one of its lines (the referee, who sealed it, is told which it cannot)."""
    secret = ctx.world.sealed.find(label)
    if secret is None:
        raise NotFound(f"no sealed secret named {label!r} in campaign {ctx.name} (see `tally secret list`)")
    if secret.revealed:
        text = secret.text
    else:
        text = kept_text(ctx, secret, missing=(
            "roll on it where it was sealed (this copy of the ledger has no secrets of its own)"))[2]
    problem = rules.coverage_problem(text, rules.possible_totals(expression), secret.label, expression.text)
    if problem:
        raise RuleRefused(problem)
    return {"label": secret.label, "commitment": secret.commitment}  # dice.rolled's ``on`` (RolledOn)
