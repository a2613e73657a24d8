"""One readable line per event, for listings (`tally log`)."""

from __future__ import annotations

from typing import Callable

from ledger.envelope import Envelope
from projections.company import reputation_after


def _roll(p: dict) -> str:
    who = f"{p['character']}: " if p.get("character") else ""
    how = f"n={p['nonce']}" if p["verifiable"] else "by hand"
    why = f" — {p['why']}" if p.get("why") else ""
    return f"{who}{p['expression']} {p['dice']} = {p['total']} ({how}){why}"


_LINES: dict[str, Callable[[dict], str]] = {
    "campaign.created": lambda p: f"campaign {p['name']} ({', '.join(p['rules']) or 'no modules'}; "
                                  f"{p['calendar']['kind']} calendar)",
    "campaign.setting_changed": lambda p: f"setting {p['key']}: {p['previous']} -> {p['value']}",
    "ledger.voided": lambda p: f"voided event {p['target']} ({p['target_type']}): {p['reason']}",
    "dice.committed": lambda p: f"epoch {p['epoch']} opened, commitment {p['commitment'][:16]}…",
    "dice.client_seed_set": lambda p: f"epoch {p['epoch']} client seed {p['client_seed']!r}",
    "dice.revealed": lambda p: f"epoch {p['epoch']} revealed after {p['rolls']} roll(s): seed {p['seed'][:16]}…",
    "dice.rolled": _roll,
    "checkpoint.key_recorded": lambda p: f"checkpoint key {p['key_id']} for the log {p['origin']}",
    "checkpoint.witness_added": lambda p: f"witness {p['name']} (key {p['key_id']})",
    "checkpoint.signed": lambda p: f"checkpoint of {p['size']} events signed ({p['occasion']}), root {p['root'][:12]}…",
    "checkpoint.cosigned": lambda p: f"witness {p['witness']} cosigns the checkpoint of {p['size']} events",
    "player.added": lambda p: f"player {p['name']} joins the table",
    "character.created": lambda p: f"{p['name']} joins {p['player']}'s stable" + (
        f" (opening {', '.join(f'{k} {v}' for k, v in p['opening'].items())})" if p.get("opening") else "") + (
        f" inheriting from {p['inherited_from']}" if p.get("inherited_from") else ""),
    "character.died": lambda p: f"{p['character']} dies: {p['cause']}",
    "character.retired": lambda p: f"{p['name']} retires ({p['boons']} Boons, Wealth {p['wealth']})",
    "session.opened": lambda p: f"session {p['number']} opens: " + ", ".join(p["activated"].values()),
    "session.closed": lambda p: f"session {p['number']} closes",
    "treasure.found": lambda p: f"{p['cash']} {'sp' if p.get('currency') == 'sp' else 'Cash'} found: {p['source']}",
    "treasure.divided": lambda p: "treasure divided: " + ", ".join(
        f"{k} {v}" for k, v in {**p["shares"], **p["set_aside"], **p.get("companions", {})}.items()),
    "treasure.set_aside_paid": lambda p: f"{p['character']} receives {p['cash']} Cash set aside for {p['player']}",
    "cash.changed": lambda p: f"{p['character']} Cash {p['delta']:+d}: {p['why']}",
    "boon.gained": lambda p: f"{p['character']} gains a Boon ({p['reason']})",
    "boon.owed": lambda p: f"{p['died']}'s Boon waits for {p['player']}'s next new character",
    "income.rolled": lambda p: f"{p['character']} Income: {p['successes']} Cash" + (
        f" from {p['wealth_dice'] + p['economy_dice']} dice" if p["wealth_dice"] + p["economy_dice"]
        else " (no dice: Wealth 0 and no Economy tags)"),
    "wealth.attempted": lambda p: f"{p['character']} Wealth {p['rank_from']} -> {p['rank_from'] + 1}, Ob {p['ob']}, "
                                  f"{p['successes']} successes: {'gained' if p['succeeded'] else 'failed'} "
                                  f"({p['wager']} Cash wagered)",
    "item.bought": lambda p: f"{p['character']} {'buys' if p['succeeded'] else 'fails to buy'} {p['item']} "
                             f"(Ob {p['ob']}, {p['rule']}, {p['cash_spent']} Cash spent)",
    "item.sold": lambda p: f"{p['character']} sells {p['item']} for {p['cash_gained']} Cash",
    "down_and_out.rolled": lambda p: f"{p['character']} Down and Out {p['total']}: {p['result'].replace('_', ' ')}",
    "hp.max_changed": lambda p: f"{p['character']} max HP {p['delta']:+d}",
    "save.lost": lambda p: f"{p['character']} {p['save']} -1 (was {p['before']})",
    "skill.reduced": lambda p: f"{p['character']} {p['skill']} -1 (was {p['before']})",
    "gear.broken": lambda p: f"{p['character']}: {p['items']} items break ({p['note']})",
    "stronghold.founded": lambda p: f"stronghold {p['name']} founded, owned by {p['owner']}",
    "stronghold.attempted": lambda p: f"{p['name']} {p['rank_from']} -> {p['rank_from'] + 1}, Ob {p['ob']}, "
                                      f"{p['successes']} successes: {'gained' if p['succeeded'] else 'failed'}"
                                      + (f", tags {', '.join(p['tags'])}" if p["tags"] else ""),
    "follower.gained": lambda p: f"{p['name']} follows {p['character']}" + (" (Feat)" if p["feat"] else "")
                                 + (f", replacing {p['refills']}" if p.get("refills") else ""),
    "follower.lost": lambda p: f"{p['character']} loses {p['name']}: {p['why']}",
    "xp.awarded": lambda p: f"{p['character']} +{p['amount']} XP ({p['source']}): {p['why']}",
    "level.attained": lambda p: f"{p['character']} attains level {p['level']}: {p['benefit']}",
    "vow.sworn": lambda p: f"{p['character']} swears: {p['vow']}",
    "vow.fulfilled": lambda p: f"{p['character']} fulfils the vow ({p['xp']} XP): {p['vow']}",
    "vow.abandoned": lambda p: f"{p['character']} abandons the vow: {p['vow']}",
    "god.adopted": lambda p: f"{p['character']} adopts {p['god']} (PR {p['power']}, {p['alignment']})",
    "god.black_mark": lambda p: f"{p['character']}: black mark: {p['why']}",
    "god.warning": lambda p: f"{p['character']}: a warning sign: {p['why']}",
    "god.grey_marks": lambda p: f"{p['character']}: {p['count']} grey mark(s): {p['why']}",
    "god.prayed": lambda p: f"{p['character']} prays to {p['god']} at {p['chance']}%: {p['outcome']}"
                            + (f", grade {p['grade']} ({p['percent']}%)" if p.get("grade") else ""),
    "god.crawled": lambda p: f"{p['character']} crawls at {p['chance']}%: "
                             + (p["effect"].replace("_", " ") if p["accepted"] else "not accepted"),
    "god.repented": lambda p: f"{p['character']} repents (needs {p['needs'] or 'X'}, PR {p['effective_power']}): "
                              + ("accepted" if p["accepted"] else "not believed"),
    "god.sacrificed": lambda p: f"{p['character']} sacrifices ({p['black']} black, {p['grey']} grey redeemed): {p['why']}",
    "god.punishment_checked": lambda p: f"{p['character']} punishment check at {p['black']} black marks: "
                                        + ("PUNISHED" if p["punished"] else "spared"),
    "wolves.outfitted": lambda p: f"{p['character']}: STR {p['strength']} AGI {p['agility']} CON {p['constitution']}, "
                                  f"{p['hp']} HP, {p['languages']} language(s), {p['hacksilver']} hacksilver: "
                                  f"{', '.join(p['spent']) or 'nothing bought'}; {p['lost']} lost",
    "silver.changed": lambda p: f"{p['character']} {p['delta']:+d} sp: {p['why']}",
    "companion.joined": lambda p: f"{p['name']} joins {p['character']} as a companion",
    "companion.left": lambda p: f"{p['name']} leaves {p['character']}: {p['why']}",
    "hireling.hired": lambda p: f"{p['character']} hires {p['name']} ({p['kind']}, {p['wage']} sp a day)",
    "hireling.dismissed": lambda p: f"{p['character']} dismisses {p['name']} after {p['days']} days "
                                    f"({p['wages_due']} sp earned)",
    "wages.paid": lambda p: f"{p['character']} pays {p['amount']} sp in wages",
    "boast.made": lambda p: f"{p['character']} boasts: {p['boast']} (+{p['bonus']} {p['reward'].replace('_', ' ')})",
    "boast.resolved": lambda p: f"{p['character']}'s boast {p['outcome']}: {p['boast']}",
    "ship.acquired": lambda p: f"the {p['kind']} {p['name']} ({p['value']} sp), {p['rowers']} rowers, "
                               f"{p['food_days']} days of food: {p['how']}",
    "luck.changed": lambda p: f"{p['character']} luck {p['delta']:+d} ({p['reason']}, cap {p['cap']})",
    "skirmish.level_set": lambda p: f"{p['character']} is level {p['level']}: {p['why']}",
    "wound.rolled": lambda p: f"{p['character']} wound {p['wound']}: {p['total']} = {p['result'].replace('_', ' ')}",
    "wound.healing": lambda p: f"{p['character']} healing wound {p['wound']}: {p['total']} = {p['result'].replace('_', ' ')}",
    "wound.open_checked": lambda p: f"{p['character']} open wound {p['wound']}: d6 {p['die']}"
                                    + (" - dies" if p["died"] else ""),
    "renown.changed": lambda p: f"{p['character']} renown {p['delta']:+d}: {p['why']}",
    "clothing.worn": lambda p: f"{p['character']} wears {p['clothing']} ({p['renown_modifier']:+d} Rn)",
    "god.battle": lambda p: f"{p['god']} ({p['character']}) battles {p['opponent_god']} ({p['opponent']}) "
                            f"for {len(p['rounds'])} round(s): {p['winner']}'s god wins",
    "calendar.advanced": lambda p: f"{p['days']} day(s) pass: {p['why']}" + (f" [{p['run']}]" if p.get("run") else ""),
    "schedule.added": lambda p: f"job {p['job']} ({p['kind']}) from {p['anchor_date']}",
    "schedule.removed": lambda p: f"job {p['job']} removed",
    "schedule.reminder": lambda p: f"reminder [{p['run']}]: {p['text']}",
    "downtime.acted": lambda p: f"{p['character']} spends a downtime action: {p['action']}"
                                + (f" (project {p['project']})" if p.get("project") else ""),
    "project.started": lambda p: f"project {p['name']} begins for {p['owner']}: {p['ticks']} ticks",
    "project.ticked": lambda p: f"project {p['name']}: one tick of {p['ticks']} by {p['by']}",
    "reputation.changed": lambda p: f"Reputation with {p['faction']} {p['requested']:+d} "
                                    f"(was {p['before']:+d} when decided -> {reputation_after(p):+d}): {p['why']}",
}


def line(envelope: Envelope) -> str:
    describe = _LINES.get(envelope.type)
    if describe is None:
        return " ".join(f"{k}={v}" for k, v in envelope.payload.items() if v is not None)
    return describe(envelope.payload)
