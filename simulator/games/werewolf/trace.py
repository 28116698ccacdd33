"""How a werewolf trace reads: the sentences that need logic; TRACE_EVENTS declares the rest."""

from simulator.games.story import Story, trace_decoder

from .declaration import (
    CAUSE, END, END_CONDITIONS, HUMAN_SIDE, ROLE, ROLES, TEAMS, TRACE_EVENTS, WOLF_SIDE,
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


def _signal(code):
    if code == ROLE.seer:
        return "the seer"
    if code == WOLF_SIDE:
        return "a wolf-camp role"
    if code == HUMAN_SIDE:
        return "another human-camp role"
    return "?"


class WerewolfStory(Story):
    """Names each seat with the role it was dealt (a paranoid's, with the role it became)."""

    def __init__(self, params):
        super().__init__(params)
        self.roles: dict[int, str] = {}

    def who(self, seat):
        return f"seat {seat} ({self.roles.get(seat, '?')})"

    @staticmethod
    def dies(cause):
        return DEATHS.get(cause, "dies")

    @staticmethod
    def died(cause):
        """Why a seat is out, for the table: "killed by the werewolves", "of grief (a lover)"."""
        return DEATHS.get(cause, "dies").removeprefix("dies").lstrip(", ") or "dead"

    @staticmethod
    def role_name(role):
        return ROLES[role].name

    @staticmethod
    def of_team(team):
        return "a werewolf" if TEAMS[team] == "wolf" else "not a werewolf"

    @staticmethod
    def signal(code):
        return f"\"{_signal(code)}\""

    @staticmethod
    def a_werewolf(wolf):
        return "a werewolf" if wolf else "not a werewolf"

    @staticmethod
    def noticed(caught):
        return ", is noticed and becomes the victim" if caught else " unnoticed"

    def tell_deal(self, row):
        role = ROLES[row.role].name
        self.roles[row.seat] = role
        return (["Deal (secret):"] if row.seat == 0 else []) + [f"  seat {row.seat}: {role}"]

    def tell_seer_check(self, row):
        return (f"  the seer, {self.who(row.seer)}, checks {self.who(row.checked)}: "
                f"{self.a_werewolf(TEAMS[row.team] == 'wolf')}")

    def tell_protect(self, row):
        if row.done:
            return f"  the bodyguard, {self.who(row.bodyguard)}, protects {self.who(row.protected)}"
        return (f"  the bodyguard, {self.who(row.bodyguard)}, names the witness "
                f"{self.who(row.protected)} and must choose again")

    def tell_paranoid(self, row):
        old = self.who(row.paranoid)
        became = ROLES[row.role].name
        self.roles[row.paranoid] = f"{became}, was paranoid"
        return (f"  the paranoid, {old}, names {self.who(row.named)}, is told "
                f"\"{_signal(row.signal)}\" and becomes the {became}")

    def tell_nobody_killed(self, row):
        if row.attacked < 0:
            return "  nobody dies tonight (no werewolf is left to attack)"
        return f"  nobody dies tonight (the attack on {self.who(row.attacked)} killed nobody)"

    def tell_mayor(self, row):
        if row.succeeds:
            return (f"  the dying mayor, {self.who(row.predecessor)}, names {self.who(row.mayor)} "
                    f"his successor")
        return f"  {self.who(row.mayor)} is elected mayor ({self.votes(row.votes)})"

    def tell_winner(self, row):
        if row.team >= 0:
            return (f"The {TEAMS[row.team]} team wins on day {row.step}: "
                    f"{END_CONDITIONS[row.end].meaning}.")
        who_won = "The piper wins" if row.end == END.piper else "The lovers win"
        return f"{who_won} on day {row.step}: {END_CONDITIONS[row.end].meaning}."


decode_trace = trace_decoder(TRACE_EVENTS, WerewolfStory)
