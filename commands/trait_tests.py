"""Tests from the sheet (`tally test`): each ruleset's own test, its dice and
target formed from the character's sheet rather than typed by hand —
004's Skills and Saves (a pool of 2 dice plus the rating, helpers' dice,
against an Ob), 002's skill roll (2D6 plus the attribute's modifier, read
on the skill table), 003's roll-under tests (2d6 below a score from the
hero stats) and 000's saves (a d20 at least the save's number).

``pool_for`` forms the test without rolling (what ``--dry-run`` prices
exactly); ``trait_tested`` rolls it and returns the events."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Optional, Sequence

from commands.base import acting, character_stream, clean_text, find_character, record
from commands.batch import Batch
from commands.dice import dice_of
from commands.dice_sources import Dice
from commands.state import State, state_of
from ledger.dice.check import Target
from ledger.dice.expression import parse
from ledger.dice.odds import distribution
from ledger.envelope import NewEvent
from ledger.errors import BadInput, RuleRefused
from ledger.events.dice import RollChecked
from ledger.events.sheet import Part, TraitTested
from ledger.names import key
from ledger.rules import coeac, skirmish, wolves, xp
from ledger.settings import in_force
from projections.reading import query
from projections.stable import Character

MAX_OB = 30  # no pool in the seed comes near it; a test is "rarely" Ob 6+ (004 l.36)
MAX_BONUS = 20  # bonus or penalty dice (004), or points added (the others)
# Which rules each test belongs to; the names do not overlap.
RULESETS = ("coeac", "xp", "skirmish", "wolves")


@dataclass(frozen=True)
class Pool:
    """A test formed from the sheet, before it is rolled."""

    character: str
    rules: str
    kind: str  # skill | save | attribute | test
    trait: str
    seed: str
    unit: str  # dice (004's pool) | points
    parts: tuple[tuple[str, int], ...]
    expression: str
    target: Target
    modifier: int = 0  # added to the dice's total (002, 000)
    naturals_stand: bool = False  # 002 l.177-178: a natural 2 stays 2, a natural 12 stays 12
    from_boons: Optional[int] = None
    aid_by: tuple[str, ...] = ()
    sheet: dict[str, int] = field(default_factory=dict)  # the sheet's figures read
    settings: dict[str, str] = field(default_factory=dict)

    def total(self, natural: int) -> int:
        if self.naturals_stand:
            return xp.skill_total(natural, self.modifier)
        return natural + self.modifier

    def totals(self) -> dict[int, Fraction]:
        """Every total the test can come to, and its exact chance."""
        out: dict[int, Fraction] = {}
        for natural, chance in distribution(parse(self.expression)).items():
            total = self.total(natural)
            out[total] = out.get(total, Fraction(0)) + chance
        return out

    def chance(self) -> Fraction:
        """The exact chance of passing (counted, never simulated)."""
        return self.target.chances(self.totals())["pass"]

    def odds(self) -> dict:
        """What the dry run shows: the chance of passing, and of each band."""
        chances = self.target.chances(self.totals())
        out = {"chance": float(chances["pass"]), "exact": _exact(chances["pass"])}
        for band, p in chances.items():
            if band != "pass":
                out[band.replace(" ", "_")] = {"chance": float(p), "exact": _exact(p)}
        return out

    def as_dict(self) -> dict:
        return {"character": self.character, "rules": self.rules, "kind": self.kind, "trait": self.trait,
                "seed": self.seed, "unit": self.unit, "parts": [{"what": w, "value": v} for w, v in self.parts],
                "expression": self.expression, "against": self.target.against, "target": self.target.number,
                "epic": self.target.epic, "from_boons": self.from_boons, "aid_by": list(self.aid_by),
                "sheet": dict(self.sheet), "settings": dict(self.settings)}


def _exact(chance: Fraction) -> str:
    return f"{chance.numerator}/{chance.denominator}"


# -- which test a name asks for ----------------------------------------------------

def _tests_of(rules: str) -> list[str]:
    if rules == "coeac":
        return list(coeac.SKILLS) + list(coeac.SAVES)
    if rules == "xp":
        return list(xp.ATTRIBUTES)
    if rules == "skirmish":
        return list(skirmish.TESTS)
    return list(wolves.SAVES)


_ALIASES = {"dodge": "dodging"}  # 000 l.30, l.42 say "Dodge" as often as "Dodging"


def _find_test(text: str) -> Optional[tuple[str, str, str]]:
    """(rules, kind, canonical name) of the test ``text`` names, or None."""
    wanted = text.strip()
    if coeac.canonical_skill(wanted):
        return "coeac", "skill", coeac.canonical_skill(wanted)
    if coeac.canonical_save(wanted):
        return "coeac", "save", coeac.canonical_save(wanted)
    upper = wanted.upper()
    if upper in xp.ATTRIBUTES or upper in xp.ATTRIBUTE_NAMES:
        return "xp", "attribute", xp.ATTRIBUTE_NAMES.get(upper, upper)
    found = next((t for t in skirmish.TESTS if t.lower() == wanted.lower()), None)
    if found:
        return "skirmish", "test", found
    found = next((s for s in wolves.SAVES if s.lower() == _ALIASES.get(wanted.lower(), wanted.lower())), None)
    if found:
        return "wolves", "save", found
    return None


def _which(state: State, text: str) -> tuple[str, str, str]:
    runs = [r for r in RULESETS if state.campaign.runs(r)]
    offered = "; ".join(f"{r}: {', '.join(_tests_of(r))}" for r in runs) or "none (it runs no rules with tests)"
    found = _find_test(text)
    if found is None:
        raise BadInput(f"no test called {text.strip()!r} in campaign {state.name}'s rules: its tests are {offered}")
    if not state.campaign.runs(found[0]):
        raise RuleRefused(f"{found[2]} is a test of the {found[0]} rules, which campaign {state.name} does not run: "
                          f"its tests are {offered}")
    return found


# -- forming the test from the sheet -------------------------------------------------

def pool_for(state: State, name: str, trait: str, *, ob: Optional[int] = None, bonus: int = 0,
             aid_by: Sequence[str] = ()) -> Pool:
    """The test ``trait`` of character ``name``, formed from the sheet: a refusal
    for what the sheet or the ruleset cannot give."""
    rules, kind, canonical = _which(state, trait)
    if abs(bonus) > MAX_BONUS:
        raise BadInput(f"--bonus {bonus:+d} is out of range: -{MAX_BONUS} to +{MAX_BONUS}")
    if rules != "coeac":
        if ob is not None:
            raise RuleRefused(f"{canonical} is read {_OWN_TARGET[rules]}: there is no Ob to give (drop --ob)")
        if aid_by:
            raise RuleRefused(f"help from other characters is 004's (l.39-41); {_HELP_ELSEWHERE[rules]}")
    form = {"coeac": _coeac, "xp": _xp, "skirmish": _skirmish, "wolves": _wolves}[rules]
    pool = form(state, name, kind, canonical, ob=ob, bonus=bonus, aid_by=aid_by)
    if pool.chance() == 0:  # 004's pool says so in its own words, before this
        raise RuleRefused(f"{pool.character} can never pass this test of {pool.trait} ({pool.expression}"
                          f"{f' {pool.modifier:+d}' if pool.modifier else ''}, {pool.target}): it fails without "
                          "a roll")
    return pool


_OWN_TARGET = {"xp": "on 002's skill table (l.168-173), a Success at 9 or more",
               "skirmish": "under its own score (003 l.13, l.27, l.36)",
               "wolves": "against its own number (000 l.167-169)"}
_HELP_ELSEWHERE = {"xp": "in 002 give it as --bonus (l.183-186: modifiers)",
                   "skirmish": "in 003 give it as --bonus (l.15-21: modifiers)",
                   "wolves": "in 000 give it as --bonus (l.171: \"This roll may be modified\")"}


def _coeac(state: State, name: str, kind: str, trait: str, *, ob, bonus, aid_by) -> Pool:
    """004 l.17-22: two dice plus the Skill or Save's rating (its Boons among
    them, l.507), a bonus or penalty die each (l.38), a Helping die from each
    ally (l.40); each 4-6 a Success; pass at the Ob or more."""
    tester = acting(state, name)
    ob = coeac.DEFAULT_OB if ob is None else ob
    if not 1 <= ob <= MAX_OB:
        raise BadInput(f"--ob {ob} is out of range: an Objective is 1 to {MAX_OB} successes (004 l.29-36)")
    helpers = _helpers(state, tester, aid_by)
    ratings = tester.skills if kind == "skill" else tester.saves
    rating = ratings.get(trait, 0)
    boons = sum(1 for b in tester.boon_choices if b["kind"] == kind and b["target"] == trait)
    parts = [("base dice (004 l.18)", coeac.BASE_DICE),
             (trait + (f" ({boons} from Boons, l.507)" if boons else ""), rating)]
    if bonus:
        parts.append(("bonus dice (l.38)" if bonus > 0 else "penalty dice (l.38)", bonus))
    parts += [(f"help from {h.name} (l.40)", coeac.HELP_DICE) for h in helpers]
    dice = sum(v for _, v in parts)
    if dice < 1:
        raise RuleRefused(f"{-bonus} penalty dice leave {tester.name} no dice to roll for {trait} "
                          f"({coeac.BASE_DICE + rating} before them)")
    if dice < ob:
        raise RuleRefused(f"{dice} dice can never make Ob {ob}: the test fails without a roll "
                          "(add help or bonus dice, or lower the Ob)")
    return Pool(tester.name, "coeac", kind, trait, "004 l.17-22", "dice", tuple(parts), f"{dice}{coeac.POOL}",
                Target("ob", ob), from_boons=boons, aid_by=tuple(h.name for h in helpers), sheet={trait: rating})


def _helpers(state: State, tester: Character, aid_by: Sequence[str]) -> list[Character]:
    helpers: list[Character] = []
    for helper_name in aid_by:
        if key(helper_name) == key(tester.name):
            raise RuleRefused(f"{tester.name} cannot help their own test: --aid-by names an ally (004 l.40)")
        helper = acting(state, helper_name)
        if any(key(h.name) == key(helper.name) for h in helpers):
            raise BadInput(f"--aid-by names {helper.name} twice: each ally hands over one Helping die (004 l.40)")
        if helper.hp == 0:
            raise RuleRefused(f"{helper.name} is down and out and \"can do little other than writhe in pain\" "
                              "(004 l.100): no help to give")
        helpers.append(helper)
    return helpers


def _xp(state: State, name: str, kind: str, trait: str, *, ob, bonus, aid_by) -> Pool:
    """002 l.160-186: 2D6 plus the attribute's modifier (l.25-61) and the
    others the referee names; a natural 2 or 12 stands (l.177-178); a
    Success (9-11) or better passes (l.172-173)."""
    character = find_character(state, name)
    score = state.world.xp.of(character.name).attributes.get(trait)
    if score is None:
        raise RuleRefused(f"{character.name} has no {trait} score on the sheet: set it with "
                          f"`tally attributes {character.name} {trait}=N` (002 l.21-24)")
    modifier = xp.attribute_modifier(score)
    parts = [(f"{trait} {score} (002 l.25-61)", modifier)]
    if bonus:
        parts.append(("other modifiers (l.183-186)", bonus))
    return Pool(character.name, "xp", kind, trait, "002 l.160-186", "points", tuple(parts), xp.SKILL_DICE,
                Target("at_least", xp.SKILL_SUCCESS), modifier=modifier + bonus, naturals_stand=True,
                sheet={trait: score})


def _skirmish(state: State, name: str, kind: str, trait: str, *, ob, bonus, aid_by) -> Pool:
    """003 l.13, l.27: roll 2d6 below the score (the two stats' sum halved,
    rounded down); its modifiers move the score (l.15-21, l.29-30, Rags l.421);
    3 either side is epic (l.23). l.36: Drinking is a test against Power."""
    character = find_character(state, name)
    stats = state.world.skirmish.of(character.name).stats
    missing = [s for s in skirmish.TESTS[trait] if s not in stats]
    if missing:
        raise RuleRefused(f"{character.name} has no {' or '.join(missing)} on the sheet: set it with "
                          f"`tally skirmish stat {character.name} {missing[0]} N` (003 l.13, l.27, l.36)")
    score = skirmish.score_for(trait, stats)
    named = " + ".join(f"{s} {stats[s]}" for s in skirmish.TESTS[trait])
    line = {"Interpersonal": "003 l.13-23", "Perception": "003 l.27-32", "Drinking": "003 l.36"}[trait]
    parts = [(f"({named}) / 2, rounded down" if len(skirmish.TESTS[trait]) > 1 else named, score)]
    if bonus:
        parts.append(("modifiers", bonus))
    clothing = state.world.skirmish.of(character.name).clothing
    if trait == "Interpersonal" and clothing == "Rags":
        parts.append(("Rags (003 l.421)", -1))
    settings = {}
    against = "below"
    if trait == "Drinking":
        against = settings["drinking_test"] = in_force(state.campaign.settings, "drinking_test")
    return Pool(character.name, "skirmish", kind, trait, line, "points", tuple(parts), skirmish.TEST_DICE,
                Target(against, sum(v for _, v in parts), skirmish.EPIC_MARGIN), settings=settings,
                sheet={stat: stats[stat] for stat in skirmish.TESTS[trait]})


def _wolves(state: State, name: str, kind: str, trait: str, *, ob, bonus, aid_by) -> Pool:
    """000 l.163-171: a d20, at least 15 (Dodging), 13 (Physique) or 17
    (Warding); Agility or Constitution 15+ adds 1 (l.30, l.32); the armour
    worn moves a Dodge roll (l.42-44, l.103)."""
    character = find_character(state, name)
    raider = state.world.wolves.of(character.name)
    if not raider.characteristics:
        raise RuleRefused(f"{character.name} has no Wolves sheet (not outfitted at creation): no saves to roll")
    medium = in_force(state.campaign.settings, "medium_dodge")
    parts = wolves.save_modifiers(trait, raider.characteristics, raider.gear, medium)
    settings = {"medium_dodge": medium} if trait == "Dodging" else {}
    if bonus:
        parts.append(("modifiers (l.171)", bonus))
    return Pool(character.name, "wolves", kind, trait, "000 l.163-171", "points", tuple(parts), wolves.SAVE_DIE,
                Target("at_least", wolves.SAVES[trait]), modifier=sum(v for _, v in parts), settings=settings,
                sheet={stat: raider.characteristics[stat] for stat in (wolves.SAVE_CHARACTERISTIC.get(trait),)
                       if stat in raider.characteristics})


# -- rolling it ----------------------------------------------------------------------

def trait_tested(state: State, name: str, trait: str, dice: Dice, *, ob: Optional[int] = None, bonus: int = 0,
                 aid_by: Sequence[str] = (), why: Optional[str] = None) -> list[NewEvent]:
    """The test rolled: the roll, and the test with its make-up, pass or fail and margin."""
    pool = pool_for(state, name, trait, ob=ob, bonus=bonus, aid_by=aid_by)
    batch = Batch(state, dice)
    roll, _, natural = batch.roll(pool.expression, character=pool.character,
                                  why=f"test of {pool.trait}" + (f": {why}" if why else ""))
    total = pool.total(natural)
    result = xp.skill_result(total) if pool.rules == "xp" else None
    batch.add(character_stream(pool.character), TraitTested(
        character=pool.character, rules=pool.rules, kind=pool.kind, trait=pool.trait, seed=pool.seed,
        unit=pool.unit, parts=[Part(what=w, value=v) for w, v in pool.parts], expression=pool.expression,
        natural=natural, total=total, check=RollChecked(**pool.target.result(total)), result=result,
        from_boons=pool.from_boons, aid_by=list(pool.aid_by), sheet=pool.sheet, settings=pool.settings, why=why),
        cause=roll)
    return batch.done()


def take(store, campaign, name: str, trait: str, *, actor: str, ob: Optional[int] = None, bonus: int = 0,
         aid_by: Sequence[str] = (), why: Optional[str] = None, hand: Optional[Sequence[int]] = None,
         game_date: Optional[str] = None, ruling: Optional[str] = None):
    why = clean_text(why, "--why") if why is not None else None
    return record(store, campaign, actor, lambda ctx: trait_tested(
        state_of(ctx), name, trait, dice_of(ctx, hand), ob=ob, bonus=bonus, aid_by=aid_by, why=why),
        game_date=game_date, ruling=ruling)


def dry_run(store, campaign, name: str, trait: str, *, ob: Optional[int] = None, bonus: int = 0,
            aid_by: Sequence[str] = ()) -> Pool:
    """The test as it would be formed now; nothing is recorded."""
    return query(store, campaign, lambda ctx: pool_for(state_of(ctx), name, trait, ob=ob, bonus=bonus,
                                                       aid_by=aid_by))
