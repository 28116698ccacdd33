"""Turn the kernel's trace rows into the story of one game, step by step."""

from .declaration import (
    CAUSE_WOLVES, END_CONDITIONS, ROLES, TEAMS, TR_CLAIM, TR_DAY, TR_DEAL, TR_DEATH, TR_HANGED,
    TR_NIGHT, TR_SEER_CHECK, TR_SENTENCE_VOTE, TR_SUSPECT_VOTE, TR_SUSPECTS, TR_WINNER,
    TR_WOLF_KILL,
)


def decode_trace(rows, params) -> list[str]:
    roles: dict[int, str] = {}
    lines: list[str] = []

    def who(seat):
        return f"seat {seat} ({roles.get(seat, '?')})"

    for step, code, actor, target, value, extra in rows.tolist():
        if code == TR_DEAL:
            roles[actor] = ROLES[value].name
            if actor == 0:
                lines.append("Deal (secret):")
            lines.append(f"  seat {actor}: {ROLES[value].name}")
        elif code == TR_NIGHT:
            lines.append(f"Night {value}")
        elif code == TR_SEER_CHECK:
            seen = "a werewolf" if TEAMS[value] == "wolf" else "not a werewolf"
            lines.append(f"  the seer, {who(actor)}, checks {who(target)}: {seen}")
        elif code == TR_WOLF_KILL:
            lines.append(f"  the werewolves ({who(actor)} for the pack) choose {who(target)}")
        elif code == TR_DEATH:
            cause = "killed by the werewolves" if extra == CAUSE_WOLVES else "hanged"
            lines.append(f"  † {who(actor)} dies, {cause}")
        elif code == TR_DAY:
            lines.append(f"Day {value}")
        elif code == TR_CLAIM:
            lines.append(f"  {who(actor)} claims to be the seer and names {who(target)} a werewolf")
        elif code == TR_SUSPECT_VOTE:
            lines.append(f"  suspect vote: {who(actor)} -> {who(target)}")
        elif code == TR_SUSPECTS:
            lines.append(f"  suspects: footprint {who(actor)} ({value} votes), "
                         f"fur {who(target)} ({extra} votes)")
        elif code == TR_SENTENCE_VOTE:
            lines.append(f"  sentence vote: {who(actor)} -> {who(target)}")
        elif code == TR_HANGED:
            lines.append(f"  {who(actor)} is hanged ({value} to {extra})")
        elif code == TR_WINNER:
            lines.append(f"The {TEAMS[value]} team wins on day {step}: {END_CONDITIONS[extra]}.")
    return lines
