"""Turn the kernel's trace rows into the story of one game, step by step."""

from .declaration import CAUSE, END_CONDITIONS, ROLES, TEAMS, TR


def decode_trace(rows, params) -> list[str]:
    roles: dict[int, str] = {}
    lines: list[str] = []

    def who(seat):
        return f"seat {seat} ({roles.get(seat, '?')})"

    for step, code, actor, target, value, extra in rows.tolist():
        if code == TR.deal:
            roles[actor] = ROLES[value].name
            if actor == 0:
                lines.append("Deal (secret):")
            lines.append(f"  seat {actor}: {ROLES[value].name}")
        elif code == TR.night:
            lines.append(f"Night {value}")
        elif code == TR.seer_check:
            seen = "a werewolf" if TEAMS[value] == "wolf" else "not a werewolf"
            lines.append(f"  the seer, {who(actor)}, checks {who(target)}: {seen}")
        elif code == TR.wolf_kill:
            lines.append(f"  the werewolves ({who(actor)} for the pack) choose {who(target)}")
        elif code == TR.death:
            cause = "killed by the werewolves" if extra == CAUSE.wolves else "hanged"
            lines.append(f"  † {who(actor)} dies, {cause}")
        elif code == TR.day:
            lines.append(f"Day {value}")
        elif code == TR.claim:
            lines.append(f"  {who(actor)} claims to be the seer and names {who(target)} a werewolf")
        elif code == TR.suspect_vote:
            lines.append(f"  suspect vote: {who(actor)} -> {who(target)}")
        elif code == TR.suspects:
            lines.append(f"  suspects: footprint {who(actor)} ({value} votes), "
                         f"fur {who(target)} ({extra} votes)")
        elif code == TR.sentence_vote:
            lines.append(f"  sentence vote: {who(actor)} -> {who(target)}")
        elif code == TR.hanged:
            lines.append(f"  {who(actor)} is hanged ({value} to {extra})")
        elif code == TR.winner:
            lines.append(f"The {TEAMS[value]} team wins on day {step}: {END_CONDITIONS[extra].meaning}.")
    return lines
