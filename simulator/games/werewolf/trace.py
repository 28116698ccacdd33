"""Turn the kernel's trace rows into the story of one game, step by step."""

from .declaration import (
    CAUSE, END, END_CONDITIONS, HUMAN_SIDE, ROLE, ROLES, TEAMS, TR, WOLF_SIDE,
)

DEATHS = {
    CAUSE.wolves: "dies, killed by the werewolves",
    CAUSE.hanged: "dies, hanged",
    CAUSE.poison: "dies, poisoned by the witch",
    CAUSE.seer: "dies, checked by the seer (the hamster)",
    CAUSE.grief: "dies of grief (a lover)",
    CAUSE.shot: "dies, shot by the hunter",
    CAUSE.death_god: "dies, taken by the death god",
}

# Rows that read "<actor> does it to <target>", by trace code ({a}: the actor, {t}: the target).
PLAIN = {
    TR.wolf_kill: "the werewolves ({a} for the pack) attack {t}",
    TR.witch_save: "the witch, {a}, revives {t}",
    TR.witch_poison: "the witch, {a}, poisons {t}",
    TR.owl: "the owl man, {a}, names {t} for tomorrow's footprint",
    TR.mark: "the death god, {a}, marks {t}",
    TR.charm: "the piper, {a}, charms {t}",
    TR.shoot: "the hunter, {a}, announces himself and shoots {t}",
    TR.mayor_vote: "mayor vote: {a} -> {t}",
    TR.suspect_vote: "suspect vote: {a} -> {t}",
    TR.sentence_vote: "sentence vote: {a} -> {t}",
}


def _signal(code):
    if code == ROLE.seer:
        return "the seer"
    if code == WOLF_SIDE:
        return "a wolf-camp role"
    if code == HUMAN_SIDE:
        return "another human-camp role"
    return "?"


def decode_trace(rows, params) -> list[str]:
    roles: dict[int, str] = {}
    lines: list[str] = []

    def who(seat):
        return f"seat {seat} ({roles.get(seat, '?')})"

    for step, code, actor, target, value, extra in rows.tolist():
        if code in PLAIN:
            lines.append("  " + PLAIN[code].format(a=who(actor), t=who(target)))
        elif code == TR.deal:
            roles[actor] = ROLES[value].name
            if actor == 0:
                lines.append("Deal (secret):")
            lines.append(f"  seat {actor}: {ROLES[value].name}")
        elif code == TR.night:
            lines.append(f"Night {value}")
        elif code == TR.link:
            lines.append(f"  cupid, {who(value)}, links {who(actor)} and {who(target)} as lovers")
        elif code == TR.medium:
            seen = "a werewolf" if value else "not a werewolf"
            lines.append(f"  the medium, {who(actor)}, learns the hanged {who(target)} was {seen}")
        elif code == TR.seer_check:
            seen = "a werewolf" if TEAMS[value] == "wolf" else "not a werewolf"
            lines.append(f"  the seer, {who(actor)}, checks {who(target)}: {seen}")
        elif code == TR.protect:
            if value:
                lines.append(f"  the bodyguard, {who(actor)}, protects {who(target)}")
            else:
                lines.append(f"  the bodyguard, {who(actor)}, names the witness {who(target)} "
                             f"and must choose again")
        elif code == TR.peek:
            caught = ", is noticed and becomes the victim" if value else " unnoticed"
            lines.append(f"  the witness, {who(actor)}, peeks at the werewolves{caught}")
        elif code == TR.paranoid:
            old = who(actor)
            roles[actor] = f"{ROLES[extra].name}, was paranoid"
            lines.append(f"  the paranoid, {old}, names {who(target)}, is told "
                         f"\"{_signal(value)}\" and becomes the {ROLES[extra].name}")
        elif code == TR.nobody_killed and target < 0:
            lines.append("  nobody dies tonight (no werewolf is left to attack)")
        elif code == TR.nobody_killed:
            lines.append(f"  nobody dies tonight (the attack on {who(target)} killed nobody)")
        elif code == TR.death:
            lines.append(f"  † {who(actor)} {DEATHS.get(extra, 'dies')}")
        elif code == TR.day:
            lines.append(f"Day {value}")
        elif code == TR.mayor:
            if value:
                lines.append(f"  the dying mayor, {who(target)}, names {who(actor)} his successor")
            else:
                lines.append(f"  {who(actor)} is elected mayor ({extra} votes)")
        elif code == TR.claim:
            said = "a werewolf" if value else "not a werewolf"
            lines.append(f"  {who(actor)} claims to be the seer: {who(target)} is {said}")
        elif code == TR.medium_claim:
            said = "was a werewolf" if value else "was not a werewolf"
            lines.append(f"  {who(actor)} claims to be the medium: the hanged {who(target)} {said}")
        elif code == TR.suspects:
            lines.append(f"  suspects: footprint {who(actor)} ({value} votes), "
                         f"fur {who(target)} ({extra} votes)")
        elif code == TR.hanged:
            lines.append(f"  {who(actor)} is hanged ({value} to {extra})")
        elif code == TR.winner:
            if value >= 0:
                lines.append(f"The {TEAMS[value]} team wins on day {step}: "
                             f"{END_CONDITIONS[extra].meaning}.")
            else:
                who_won = "The piper wins" if extra == END.piper else "The lovers win"
                lines.append(f"{who_won} on day {step}: {END_CONDITIONS[extra].meaning}.")
    return lines
