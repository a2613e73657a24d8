"""The session cycle (004 l.496-504, l.626-640): open with Income, close with
Down and Out, treasure, Boons, and the epoch's reveal."""

from __future__ import annotations

from typing import Optional, Sequence

from commands.base import clean_text, character_stream, find_character, record
from projections.reading import Context
from commands.batch import Batch
from commands.checkpoints import signed_at_close
from commands.dice import CLIENT_SEED_LIMIT, dice_of, epoch_stream, reveal_events
from commands.state import state_of
from commands.hazards import down_and_out_table
from commands.skirmish import refresh_luck
from commands.xp import safe_time
from ledger.envelope import Envelope, NewEvent
from ledger.errors import BadInput, RuleRefused
from ledger.events.coeac import CompanyIncomeRolled, IncomeRolled
from ledger.events.dice import ClientSeedSet
from ledger.events.stable import BoonGained, BoonOwed, SessionClosed, SessionJoined, SessionOpened, SetAsidePaid
from ledger.rules import coeac
from ledger.rules.coeac import COMPANY
from ledger.store import Store
from ledger.names import key


def session_stream(number: int) -> str:
    return f"session:{number}"


def open_session(store: Store, campaign: Optional[str], *, activate: Sequence[str], actor: str,
                 game_date: Optional[str] = None, income: bool = True,
                 hand: Optional[Sequence[int]] = None, overrides: Optional[dict[str, str]] = None,
                 client_seed: Optional[str] = None) -> list[Envelope]:
    """``client_seed``: the players' seed K for the session's epoch, recorded
    right after its commitment (a seed given after seeing the commitment, with
    `tally dice client-seed`, also holds against a tally that would pick S)."""
    overrides = {key(k): clean_text(v, "an override's reason") for k, v in (overrides or {}).items()}
    if client_seed is not None:
        client_seed = clean_text(client_seed, "--client-seed", CLIENT_SEED_LIMIT)

    def decide(ctx: Context) -> list[NewEvent]:
        if ctx.session is not None:
            raise RuleRefused(f"session {ctx.session.number} is still open: close it first (`tally session close`)")
        if not activate:
            raise BadInput("activate at least one character: --activate NAME")
        start = ctx.campaign.calendar.parse_or_day(game_date) if game_date else ctx.today
        chosen, players = [], {}
        for name in activate:
            character = find_character(ctx, name)
            if key(character.player) in players:
                raise RuleRefused(
                    f"{character.player} already activates {players[key(character.player)]}: one character "
                    "per player per session (004 l.15)"
                )
            players[key(character.player)] = character.name
            chosen.append(character)
        for name in overrides:
            if name not in {key(c.name) for c in chosen}:
                raise BadInput(f"--override names {name}, who is not activated here")
        allowed = {}
        for character in chosen:
            back = ctx.world.sessions.back_on(character.name)
            if back is not None and start < back:  # no character is in two places on one day
                reason = overrides.get(key(character.name))
                if reason is None:
                    calendar = ctx.campaign.calendar
                    raise RuleRefused(
                        f"{character.name} is away on another expedition until {calendar.format(back)}: "
                        f"start on or after it, or pass --override {character.name}=\"reason\""
                    )
                allowed[character.name] = reason
        number = ctx.world.sessions.next_number
        batch = Batch(ctx, dice_of(ctx, hand), game_time=start)
        batch.session = number
        opened = batch.add(session_stream(number), SessionOpened(
            number=number, start=start, activated={c.player: c.name for c in chosen},
            income=income and ctx.campaign.runs("coeac"), overrides=allowed))
        for character in chosen:
            _pay_set_aside(ctx, batch, character, opened)
            if income and ctx.campaign.runs("coeac"):
                _income(ctx, batch, character)
        if income and ctx.campaign.runs("coeac"):
            _company_income(ctx, batch)
        batch.events += reveal_events(ctx, number, rolls_in_batch=batch.derived, next_session=number,
                                      game_time=start)
        if client_seed is not None:
            committed = batch.events[-1].event  # the session's own epoch, just committed
            batch.add(epoch_stream(committed.epoch), ClientSeedSet(epoch=committed.epoch, client_seed=client_seed))
        return batch.done()

    return record(store, campaign, actor, decide)


def _pay_set_aside(ctx: Context, batch: Batch, character, cause) -> None:
    """A share held for an absent regular (l.630) goes to the character the player brings."""
    held = ctx.world.stable.player(character.player).set_aside
    if held:
        batch.add(character_stream(character.name), SetAsidePaid(
            player=character.player, character=character.name, cash=held,
            currency="sp" if ctx.campaign.runs("wolves") and not ctx.campaign.runs("coeac") else "cash"),
            cause=cause)


def join_session(store: Store, campaign: Optional[str], name: str, *, actor: str,
                 game_date: Optional[str] = None, ruling: Optional[str] = None) -> list[Envelope]:
    """A character joins the running session: a dead character's replacement
    (004 l.15: "incorporated into play as soon as possible"), or the character
    of a player who had none in it. From then on it is present like anyone
    activated: it shares the treasure and gains the session's Boon at close.
    Income is not rolled: it belongs to the session's beginning (l.159)."""

    def decide(ctx: Context) -> list[NewEvent]:
        session = ctx.session
        if session is None:
            raise RuleRefused("no session is open: activate the character with `tally session open --activate`")
        character = find_character(ctx, name)
        if session.is_activated(character.name):
            raise RuleRefused(f"{character.name} is already activated in session {session.number}")
        playing = next((c for p, c in session.activated.items() if key(p) == key(character.player)), None)
        replaces = None
        if playing is not None:
            current = ctx.world.stable.character(playing)
            if current.status != "dead":
                raise RuleRefused(
                    f"{character.player} plays {current.name} in session {session.number}: one character per "
                    f"player per session (004 l.15); a replacement joins only once {current.name} has died"
                )
            replaces = current.name
        back = ctx.world.sessions.back_on(character.name)
        if back is not None and ctx.today < back:
            raise RuleRefused(f"{character.name} is away on another expedition until "
                              f"{ctx.campaign.calendar.format(back)}: one character in one place")
        batch = Batch(ctx)
        joined = batch.add(session_stream(session.number), SessionJoined(
            number=session.number, character=character.name, player=character.player, replaces=replaces))
        _pay_set_aside(ctx, batch, character, joined)
        return batch.done()

    return record(store, campaign, actor, decide, game_date=game_date, ruling=ruling)


def _income(ctx: Context, batch: Batch, character) -> None:
    """l.158-159, l.184: roll [Wealth] dice plus [Economy tags] of owned strongholds."""
    economy = sum(s.count("Economy") for s in ctx.world.company.owned_by(character.name))
    dice = character.wealth + economy
    if dice == 0:  # recorded all the same, so `why` can say why no Cash came in
        batch.add(character_stream(character.name), IncomeRolled(
            character=character.name, wealth_dice=0, economy_dice=0, successes=0))
        return
    roll, _, successes = batch.roll(f"{dice}{coeac.POOL}", character=character.name, why="Income")
    batch.add(character_stream(character.name), IncomeRolled(
        character=character.name, wealth_dice=character.wealth, economy_dice=economy,
        successes=successes), cause=roll)


def _company_income(ctx: Context, batch: Batch) -> None:
    """l.183: the Company's own strongholds roll [Economy tags] dice for Income
    each session, one Cash per success, into the Company's treasury (l.176)."""
    for stronghold in ctx.world.company.owned_by(COMPANY):
        economy = stronghold.count("Economy")
        if economy:
            roll, _, successes = batch.roll(f"{economy}{coeac.POOL}", why=f"Income of {stronghold.name}")
            batch.add(COMPANY, CompanyIncomeRolled(stronghold=stronghold.name, economy_dice=economy,
                                                   successes=successes), cause=roll)


def close_session(store: Store, campaign: Optional[str], *, actor: str, game_date: Optional[str] = None,
                  days: Optional[int] = None, havens: Sequence[str] = (),
                  hands: Optional[dict[str, Sequence[int]]] = None) -> list[Envelope]:
    hands = {key(k): v for k, v in (hands or {}).items()}

    def decide(ctx: Context) -> list[NewEvent]:
        session = ctx.session
        if session is None:
            raise RuleRefused("no session is open: open one with `tally session open --activate NAME`")
        if session.undivided:
            raise RuleRefused(
                f"{session.undivided} Cash of treasure is still undivided: divide it first with "
                "`tally treasure split CHAR=N …` (004 l.630)"
            )
        end = _end(ctx, session, game_date, days)
        activated = [ctx.world.stable.character(name) for name in session.activated.values()]
        safe = set()
        for name in havens:
            character = find_character(ctx, name, active=False)
            if not session.is_activated(character.name):
                raise RuleRefused(f"{character.name} is not activated in session {session.number}")
            safe.add(key(character.name))
        for name in hands:
            if name not in {key(c.name) for c in activated}:
                raise BadInput(f"--dice names {name}, who is not activated in session {session.number}")
        derived = dice_of(ctx)  # one count of derived rolls, whoever's faces were given by hand
        batch = Batch(ctx, derived, game_time=end)
        dead = {key(n) for n in session.deaths}
        coeac_rules = ctx.campaign.runs("coeac")  # Down and Out and Boons are seed 004's rules
        for character in activated:
            if not coeac_rules or character.status != "active" or key(character.name) in safe:
                continue
            given = hands.get(key(character.name))
            batch.dice = dice_of(ctx, given) if given is not None else derived
            if down_and_out_table(batch, character, why="Down and Out: no safe haven at session end (004 l.629)"):
                dead.add(key(character.name))
            if batch.dice.left():
                raise BadInput(f"--dice gave {character.name} {batch.dice.left()} face(s) more than needed")
        batch.dice = derived
        for character in activated:
            if coeac_rules:
                _boon(ctx, batch, session, character, dead)
            if ctx.campaign.runs("skirmish") and key(character.name) not in dead \
                    and ctx.campaign.settings["luck_refresh"] == "session":
                refresh_luck(state_of(ctx), batch, character.name)
            if ctx.campaign.runs("xp") and key(character.name) not in dead:  # safe time: levels, hit dice
                safe_time(state_of(ctx), batch, character.name)
        batch.events += reveal_events(ctx, session.number, rolls_in_batch=batch.derived, game_time=end)
        batch.add(session_stream(session.number), SessionClosed(
            number=session.number, start=session.start, end=end, havens=sorted(safe)))
        return batch.done()

    # A session ends with a checkpoint signed over it, where the campaign has a key.
    return record(store, campaign, actor, decide, then=signed_at_close)


def _end(ctx: Context, session, game_date: Optional[str], days: Optional[int]) -> int:
    if game_date and days is not None:
        raise BadInput("give either --game-date END or --days N, not both")
    if days is not None:
        if days < 0:
            raise BadInput("--days cannot be negative")
        return ctx.campaign.calendar.check_day(session.start + days, f"--days {days} after the session's start")
    end = ctx.campaign.calendar.parse_or_day(game_date) if game_date else max(ctx.today, session.start)
    if end < session.start:
        raise BadInput(f"the session cannot end before it began ({ctx.campaign.calendar.format(session.start)})")
    return end


def _boon(ctx: Context, batch: Batch, session, character, dead: set[str]) -> None:
    """l.497, l.503: one Boon for the activated character; if it died, for the
    player's newly rolled replacement, never another existing character."""
    if key(character.name) not in dead:
        batch.add(character_stream(character.name), BoonGained(character=character.name, reason="session"))
        return
    replacement = next((c for c in ctx.world.stable.characters.values()
                        if key(c.player) == key(character.player) and c.status == "active"
                        and c.created_at > session.opened_at), None)
    if replacement:
        batch.add(character_stream(replacement.name), BoonGained(character=replacement.name,
                                                                  reason=f"replacement for {character.name}"))
    else:
        batch.add(f"player:{key(character.player)}", BoonOwed(player=character.player, died=character.name))
