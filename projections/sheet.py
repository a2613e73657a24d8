"""A character's whole sheet: the stable's figures plus those of every
module the campaign runs."""

from __future__ import annotations

from typing import Optional

from ledger.rules import wolves
from ledger.settings import in_force
from projections.downtime import view
from projections.inventory import load
from ledger.names import key
from projections.world import World
from projections.xp import hit_dice


def sheet(world: World, name: str) -> Optional[dict]:
    character = world.stable.character(name)
    if character is None:
        return None
    out = character.sheet()
    if world.campaign.runs("coeac"):
        used, capacity = load(world, character.name)
        owned = [view(p) for p in world.downtime.projects.values() if key(p["owner"]) == key(character.name)]
        out.update(inventory=[i.view() for i in world.inventory.of(character.name)],
                   slots={"used": used, "capacity": capacity}, projects=owned)
    else:  # Boons, Cash, Wealth, HP and Followers are seed 004's
        for field in ("boons", "cash", "wealth", "lifestyle", "followers", "follower_vacancies", "hp", "bonus_hp",
                      "down_and_out", "boons_unchosen", "boon_choices", "specialties", "resources"):
            out.pop(field)
    if world.campaign.runs("gods"):
        standing = world.gods.of(character.name)
        out.update(alignment=world.gods.alignment_of(character.name),
                   god=standing.god if standing else None, power=standing.power if standing else None,
                   black_marks=standing.black if standing else 0, grey_marks=standing.grey if standing else 0,
                   battle_penalty=standing.penalty if standing else 0)
    if world.campaign.runs("wolves"):
        raider = world.wolves.of(character.name)
        out.update(raider.view(world.campaign.today))
        out.update(_defence(raider, in_force(world.campaign.settings, "medium_dodge")))
    if world.campaign.runs("skirmish"):
        out.update(world.skirmish.of(character.name).view(character.skills))
    if world.campaign.runs("xp"):
        out.update(world.xp.of(character.name).view())
        if world.campaign.runs("wolves") and key(character.name) in world.wolves.raiders:
            # one count of Hit Dice, the Wolves sheet's: no second "per level" figure beside it (002 l.103)
            out.pop("level_hit_dice")
            out["hit_dice_left"] = hit_dice(world, character.name)[1]
        if in_force(world.campaign.settings, "treasure_xp") != "spent":  # seized treasure has had its XP
            out.pop("treasure_unspent")
    return out


def _defence(raider, medium_dodge: str) -> dict:
    """000 l.36-44, l.94-103: the armour worn (read off what was bought), its AC,
    and each save's d20 target with what the sheet adds to the roll."""
    armour, shield = wolves.armour_worn(raider.gear)
    saves, parts_of = {}, {}
    for save, needs in wolves.SAVES.items():
        parts = wolves.save_modifiers(save, raider.characteristics, raider.gear, medium_dodge)
        saves[save] = {"needs": needs, "modifier": sum(v for _, v in parts)}
        parts_of[save] = ", ".join(f"{what} {value:+d}" for what, value in parts)
    return {"armour": armour + (", Shield" if shield else ""), "ac": wolves.armour_class(raider.gear),
            "d20_saves": saves, "d20_save_modifiers": parts_of}
