"""One readable line per event, for listings (`tally log`)."""

from __future__ import annotations

from typing import Callable

from ledger.envelope import Envelope
from projections.company import reputation_after


def _roll(p: dict) -> str:
    who = f"{p['character']}: " if p.get("character") else f"{p['speaker']}: " if p.get("speaker") else ""
    how = f"n={p['nonce']}" if p["verifiable"] else (
        f"from {p['source']} at {p['rolled_at'] or 'an unknown time'}" if p.get("source") else "by hand")
    why = f" — {p['why']}" if p.get("why") else ""
    dropped = f" (dropped {[p['dice'][i] for i in p['dropped']]})" if p.get("dropped") else ""
    total = p.get("exact_total") or p["total"]
    return f"{who}{p['expression']} {p['dice']}{dropped} = {total}{checked(p.get('check'))} ({how}){why}"


def checked(check: dict | None) -> str:
    """A roll's check in words: ", below 12: pass, margin 3 (epic success)"."""
    if not check:
        return ""
    target = f"Ob {check['target']}" if check["against"] == "ob" else \
        f"{check['against'].replace('_', ' ')} {check['target']}"
    verdict = f"{'pass' if check['passed'] else 'fail'}, margin {check['margin']}"
    band = f" ({check['band']})" if check.get("band") else ""
    return f", {target}: {verdict}{band}"


def _damaged(p: dict) -> str:
    took = f"{p['character']} takes {p['damage']} damage"
    parts = [f"{p['from_bonus']} from Bonus HP"] if p["from_bonus"] else []
    parts.append(f"HP {p['hp_before']} -> {p['hp_before'] - p['from_hp']}")
    if p["hp_before"] == 0:
        parts.append("struck while down and out: the table again (004 l.100)")
    elif p["hp_before"] - p["from_hp"] == 0:
        parts.append("down and out (004 l.100)")
    return f"{took} ({', '.join(parts)}): {p['why']}"


def _rested(p: dict) -> str:
    what = [f"+{p['healed']} HP"]
    if p.get("resource_gained"):
        what.append(f"+{p['resource_gained']} {p['resource']}")
    if p.get("resources_rule") == "full":
        what.append("Class Resources restored")
    if p.get("rations"):
        what.append(f"spends {p['rations']}")
    return f"{p['character']} takes a {p['kind']} rest: {', '.join(what)}"


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
    "session.joined": lambda p: f"{p['character']} joins session {p['number']}"
                                + (f", replacing {p['replaces']}" if p.get("replaces") else ""),
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
    "save.lost": lambda p: f"{p['character']} {p['save']} -1 (was {p['before']})" if p["save"] else
                           f"{p['character']}: no Save rated above 0, nothing lost (trauma_pick {p['pick']})",
    "skill.reduced": lambda p: f"{p['character']} {p['skill']} -1 (was {p['before']})" if p["skill"] else
                               f"{p['character']}: no other Skill rated above 0, nothing lost "
                               f"(trauma_pick {p['pick']})",
    "hp.damaged": _damaged,
    "hp.healed": lambda p: f"{p['character']} regains {p['healed']} HP: {p['why']}",
    "hp.bonus_gained": lambda p: f"{p['character']} gains {p['amount']} Bonus HP: {p['why']}",
    "hp.bonus_expired": lambda p: f"{p['character']}'s {p['lost']} Bonus HP expire: {p['why']}",
    "rest.taken": _rested,
    "medical_aid.rolled": lambda p: f"{p['by']} gives {p['character']} medical aid: {p['successes']} of Ob "
                                    f"{p['ob']} on {p['pool']} dice, " + ("the Down and Out table follows"
                                                                          if p["succeeded"] else "failed"),
    "boon.spent": lambda p: f"{p['character']} chooses a Boon from the {p['boon_list']} list: "
                            + (f"{p['target']} {p['before']} -> {p['before'] + 1}" if p["kind"] != "feat"
                               else p["target"]),
    "specialty.unlocked": lambda p: f"{p['character']} unlocks the {p['specialty']} Specialty Class"
                                    + (f" (Class Resource {p['resource']})" if p["resource"] else "") + f": {p['why']}",
    "resource.max_set": lambda p: f"{p['character']}'s {p['resource']} pool {p['before']} -> {p['maximum']}: "
                                  f"{p['why']}",
    "resource.changed": lambda p: f"{p['character']} {'spends' if p['delta'] < 0 else 'regains'} {abs(p['delta'])} "
                                  f"{p['resource']}: {p['why']}",
    "gear.broken": lambda p: f"{p['character']}: Broken Gear: " + (", ".join(p["broken"]) or "nothing") + " broken"
                             + (f"; {', '.join(p['saved'])} saved (artifact)" if p["saved"] else ""),
    "item.gained": lambda p: f"{p['item']} goes into {p['character']}'s inventory "
                             f"({p['slots']} Slot{'s' if p['slots'] != 1 else ''}"
                             + (f", Depletion {p['depletion']}+" if p["depletion"] else "")
                             + (f", worth {p['cash']} Cash" if p["cash"] else "")
                             + (", artifact" if p["artifact"] else "")
                             + (f", carries {p['carries']}" if p["carries"] else "") + f"): {p['why']}",
    "item.dropped": lambda p: f"{p['character']} no longer carries {p['item']}: {p['why']}",
    "item.depletion_checked": lambda p: f"{p['character']}'s {p['item']} ({p['score']}+): "
                                        + (f"d20 {p['roll']}, " if p["roll"] is not None else "")
                                        + {"lasts": "lasts", "last_use": "one use left",
                                           "expended": "expended"}[p["result"]],
    "item.given": lambda p: f"{p['character']} gives {p['item']} to {p['to']}: {p['why']}",
    "cash.given": lambda p: f"{p['character']} gives {p['amount']} Cash to {p['to']}: {p['why']}",
    "commodity.converted": lambda p: f"{p['character']} turns {p['item']} into {p['cash']} Cash",
    "stronghold.founded": lambda p: f"stronghold {p['name']} founded, owned by {p['owner']}",
    "stronghold.attempted": lambda p: f"{p['name']} {p['rank_from']} -> {p['rank_from'] + 1}, Ob {p['ob']}, "
                                      f"{p['successes']} successes of {p['pool']} dice "
                                      f"({p['wealth_dice']} Wealth, {p['wager']} Cash wagered by {p['by']}): "
                                      f"{'gained' if p['succeeded'] else 'failed'}"
                                      + (f", tags {', '.join(p['tags'])}" if p["tags"] else ""),
    "company.income_rolled": lambda p: f"the Company's {p['stronghold']} Income: {p['successes']} Cash from "
                                       f"{p['economy_dice']} Economy dice",
    "treasury.paid": lambda p: f"the Company pays {p['character']} {p['amount']} Cash: {p['why']}",
    "treasury.funded": lambda p: f"{p['character']} puts {p['amount']} Cash into the Company's treasury: {p['why']}",
    "follower.gained": lambda p: f"{p['name']} follows {p['character']}" + (" (Feat)" if p["feat"] else "")
                                 + (f", replacing {p['refills']}" if p.get("refills") else ""),
    "follower.lost": lambda p: f"{p['character']} loses {p['name']}: {p['why']}",
    "xp.awarded": lambda p: f"{p['character']} +{p['amount']} XP ({p['source']}): {p['why']}",
    "level.attained": lambda p: f"{p['character']} attains level {p['level']}: {p['benefit']}",
    "level.lost": lambda p: f"{p['character']} falls to level {p['level']} (from {p['from_level']}) at {p['xp']} XP",
    "hit_dice.spent": lambda p: f"{p['character']} spends {p['count']} hit dice on a {p['on']} "
                                f"({p['left']} left before): {p['why']}",
    "hit_dice.restored": lambda p: f"{p['character']} regains {p['count']} hit dice ({p['how'].replace('_', ' ')})",
    "expertise.gained": lambda p: f"{p['character']} gains expertise: {p['area']} ({p['attribute']}), "
                                  f"{p['held'] + 1} of {p['claims']}",
    "skill.rolled": lambda p: f"{p['character']} {p['attribute']} skill roll {p['natural']}"
                              f"{p['modifier'] + p['hit_die']:+d} = {p['total']}: {p['result']}"
                              + (f" (expertise: {p['expertise']})" if p["expertise"] else "") + f" — {p['why']}",
    "vow.sworn": lambda p: f"{p['character']} swears: {p['vow']}",
    "vow.fulfilled": lambda p: f"{p['character']} fulfils the vow ({p['xp']} XP): {p['vow']}",
    "vow.abandoned": lambda p: f"{p['character']} abandons the vow: {p['vow']}",
    "alignment.chosen": lambda p: f"{p['character']}'s alignment is {p['alignment']}",
    "god.adopted": lambda p: f"{p['character']} adopts {p['god']} (PR {p['power']}, {p['alignment']})",
    "god.converted": lambda p: f"{p['character']} converts from {p['from_god']} to {p['god']} (PR {p['power']}, "
                               f"{p['alignment']}); marks {'kept' if p['marks'] == 'keep' else 'cleared'}",
    "god.recovered": lambda p: f"{p['character']} regains {p['penalty']} A.T. and D.T.: {p['why']}",
    "god.punished": lambda p: f"{p['character']} is punished ({p['severity']} black marks): {p['how']}",
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
    "god.punishment_checked": lambda p: f"{p['character']} punishment check ({p['reason']}, {p['chance']}%) at "
                                        f"{p['black']} black marks: " + ("PUNISHED" if p["punished"] else "spared"),
    "wolves.outfitted": lambda p: f"{p['character']}: STR {p['strength']} AGI {p['agility']} CON {p['constitution']}, "
                                  f"{p['hp']} HP, {p['languages']} language(s)"
                                  + (f" and {p['half_known']} half known" if p["half_known"] else "")
                                  + f", {p['hacksilver']} hacksilver: "
                                  f"{'; '.join(p['spent']) or 'nothing bought'}; {p['lost']} lost",
    "silver.changed": lambda p: f"{p['character']} {p['delta']:+d} sp: {p['why']}",
    "companion.joined": lambda p: f"{p['name']} joins {p['character']} as a companion",
    "companion.left": lambda p: f"{p['name']} leaves {p['character']}: {p['why']}",
    "equipment.bought": lambda p: f"{p['character']} buys {'; '.join(p['spent'])} for {p['total']} sp",
    "hireling.hired": lambda p: f"{p['character']} hires {p['name']} ({p['kind']}, {p['wage']} sp a day)",
    "hireling.dismissed": lambda p: f"{p['character']} dismisses {p['name']} after {p['days']} days "
                                    f"({p['wages_due']} sp earned)",
    "wages.paid": lambda p: f"{p['character']} pays {p['amount']} sp in wages",
    "boast.made": lambda p: f"{p['character']} boasts: {p['boast']} (+{p['bonus']} {p['reward'].replace('_', ' ')}"
                            + (f", {p['hp']} HP" if p["hp"] else "") + ")"
                            + (f", taken up from {p['passed_from']}" if p["passed_from"] else ""),
    "boast.passed": lambda p: f"{p['character']} refuses the stakes {p['to']} raised (+{p['complications']}): "
                              f"{p['to']} takes up the boast: {p['boast']}",
    "boast.resolved": lambda p: f"{p['character']}'s boast {p['outcome']}: {p['boast']}",
    "ship.acquired": lambda p: f"{p['name']}, a {p['kind']} (value {p['value']} sp"
                               + (f"; {p['by']} paid {p['price']} sp" if p["by"] else "")
                               + f"), {p['rowers']} rowers, {p['food_days']} days of food: {p['how']}",
    "luck.changed": lambda p: f"{p['character']} luck {p['delta']:+d} ({p['reason']}, cap {p['cap']})"
                              + (f": {p['mode'].replace('_', '-')} of roll {p['roll']}" if p.get("roll") else ""),
    "skirmish.level_set": lambda p: f"{p['character']} is level {p['level']}: {p['why']}",
    "skirmish.stat_set": lambda p: f"{p['character']} {p['stat']} {p['value']}"
                                   + (f" (level {p['level']} cap {p['cap']})" if p["cap"] is not None else "")
                                   + (f": {p['why']}" if p["why"] else ""),
    "skirmish.skill_set": lambda p: f"{p['character']} {p['skill']} {p['rating']}"
                                    + (f" (level {p['level']} allows {p['allowance']} skills)"
                                       if p["allowance"] is not None else "") + (f": {p['why']}" if p["why"] else ""),
    "wound.rolled": lambda p: f"{p['character']} wound {p['wound']}: {p['total']} = {p['result'].replace('_', ' ')}",
    "wound.healing": lambda p: f"{p['character']} healing wound {p['wound']}"
                               + (f" by {p['healer']} (Healing {p['skill']}, +{p['bonus']})" if p["healer"] else "")
                               + f": {p['total']} = {p['result'].replace('_', ' ')}",
    "wound.open_checked": lambda p: f"{p['character']} open wound {p['wound']}: d6 {p['die']}"
                                    + (" - dies" if p["died"] else ""),
    "renown.changed": lambda p: f"{p['character']} renown {p['delta']:+d}: {p['why']}",
    "clothing.worn": lambda p: f"{p['character']} wears {p['clothing']} ({p['renown_modifier']:+d} Rn"
                               + (f", {p['movement_modifier']:+d} M" if p["movement_modifier"] else "")
                               + (f", {p['deadliness_modifier']:+d} deadliness against"
                                  if p["deadliness_modifier"] else "") + ")",
    "god.battle": lambda p: f"{p['god']} ({p['character']}) battles {p['opponent_god']} ({p['opponent']}) "
                            f"for {len(p['rounds'])} round(s): {p['winner']}'s god wins; {p['loser']} "
                            f"A.T. and D.T. -{p['penalty']}",
    "note.recorded": lambda p: f"note: {p['title']}" + (f" — {p['text']}" if p.get("text") else "")
                               + (f" (from {p['source']})" if p.get("source") else ""),
    "calendar.advanced": lambda p: (f"{p['span']} ({p['days']} day(s))" if p.get("span") else f"{p['days']} day(s)")
                                   + f" pass: {p['why']}" + (f" [{p['run']}]" if p.get("run") else "")
                                   + (f" ({p['note']})" if p.get("note") else ""),
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
