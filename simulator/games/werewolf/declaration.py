"""The Werewolves in Village (狼人小鎮), declared: roles, decisions, observation, events.

Everything here is data: the kernel, the strategies and the trace decoder read these constants,
and a role's availability, camp and night step are rows of the tables below.
"""

from __future__ import annotations

import numpy as np

from simulator.games.base import (
    DecisionKind, Item, ObservationLayout, Mark, Role, TraceEvent, codes, private, public,
)

NAME = "werewolf"
TITLE = "The Werewolves in Village (狼人小鎮)"
SOURCE = ("The Werewolves in Village (狼人小鎮), a 2011 house variant of Werewolf / Mafia; the rules "
          "as implemented and this project's rulings: docs/rules/werewolf.md")
MIN_PLAYERS = 8  # role players; the moderator is the simulator
MAX_PLAYERS = 23
SCORING = "team"
LENGTH_UNIT = "days"
DEFAULT_CONFIG = "werewolf/base.toml"

# The players' standard (simulator/studies/standard.py, docs/strategies.md): the people-like strategy this
# game's balance is measured with, and the built-in configs it is measured on.
MEASURING_STRATEGY = "people"
STANDARD_CONFIGS = (
    "werewolf/standard-12.toml",
    "werewolf/standard-16.toml",
    "werewolf/standard-23.toml",
    "werewolf/mayor-23.toml",
)
FILLER_ROLE = "villager"  # villagers fill the seats the config's roles leave (fairplay roles)
# Rulings where the note and the text are silent (docs/rules/werewolf.md, "Provisional rulings"),
# each with what makes it matter: a result names a ruling when its setup deals one of these roles
# ("mayor": the mayor knob is on).
PROVISIONAL_RULINGS = (
    ("the night's deaths happen at daybreak: a player attacked tonight still acts later tonight",
     ("witch", "owl-man", "death-god", "paranoid", "piper", "hamster")),
    ("the mayor is elected on day 1, after the night's deaths, by an open vote in the suspect-vote "
     "order; a tie goes to the seat nearer clockwise to the night's reference seat", ("mayor",)),
    ("a death god's mark still kills the next day if the death god has died meanwhile",
     ("death-god",)),
    ("a paranoid who became a werewolf wakes with the pack from night 3: they know each other",
     ("paranoid",)),
    ("a paranoid who becomes the witch has both potions; one who dies before night 2 wins with "
     "nobody", ("paranoid",)),
    ("lovers across camps means one lover in the wolf camp and one in the human camp",
     ("cupid",)),
    ("a seer who checks the hamster kills him even if they are lovers (a check is not a kill)",
     ("cupid",)),
    ("the witch may not poison herself; voting for one's lover is allowed", ("witch", "cupid")),
    ("with two owl men (a paranoid became one), the later one's suspect holds", ("paranoid",)),
    ("with no werewolf alive (the madman keeps the wolf camp alive) nobody is attacked and the "
     "day's reference seat stays the last one", ("madman", "paranoid")),
    ("a hunter attacked and poisoned the same night dies of the wolves, so he may shoot",
     ("hunter",)),
    ("the piper's win is checked first, before the lovers' and the camps'", ("piper",)),
    ("nobody may vote for himself in the mayor's election, as in the suspect vote", ("mayor",)),
    ("on a night without a death the attacked player, alive, is the reference seat of the day's "
     "ties and wins every tie he is in (rules.tie_reference: first, after or random)",
     ("bodyguard", "hamster", "witch")),
    ("the paranoid is shown the role he became at once (he would learn it at its first night "
     "call)", ("paranoid",)),
    ("the pack decides together: its spokesman's mask leaves out every living werewolf's lover",
     ("cupid",)),
)
PROVISIONAL = tuple(text for text, _ in PROVISIONAL_RULINGS)

# --- teams (camps) ------------------------------------------------------------------------------
# A lovers' or a piper's win is won by neither camp: the platform counts it as a game without a
# winning team, and the end condition names it.
TEAMS = ("human", "wolf")
SYMMETRIC_SEATS = ("roles are dealt at random, and vote and hanging ties count from the night's "
                   "victim, never from a fixed seat")
TURN_ORDER = None  # no first player: the day's votes start beside the night's victim
# What makes each power available in a setup (`fairplay coverage`): the role that holds it, or
# the knob that turns it on.
COVERAGE_NEEDS = {
    "seer_killed_at_night": "seer", "seer_checks": "seer", "seer_found_wolf": "seer",
    "hanged_seer": "seer", "medium_readings": "medium", "medium_claims": "medium",
    "protections": "bodyguard", "protected_saves": "bodyguard",
    "peeks": "witness", "witness_redirects": "witness", "witness_caught": "witness",
    "owl_suspects": "owl-man",
    "hamster_attacked": "hamster", "hamster_checked": "hamster",
    "witch_saves": "witch", "witch_poisons": "witch", "hunter_shots": "hunter",
    "lovers_linked": "cupid", "lovers_across": "cupid", "lover_grief": "cupid",
    "lovers across the camps, the last two alive": "cupid",
    "death_marks": "death-god", "death_god_kills": "death-god",
    "paranoid_wolf": "paranoid", "paranoid_human": "paranoid",
    "charms": "piper", "every living player but the piper charmed": "piper",
    "mayor_elected": "rules.mayor", "mayor_successions": "rules.mayor",
    "mayor_double_votes": "rules.mayor",
}
TEAM = codes(TEAMS, "Team")
HUMAN, WOLF = TEAM.human, TEAM.wolf
UNDECIDED = 2  # the paranoid's camp until night 2 (counted for neither camp)

# --- roles (index = role code) -----------------------------------------------------------------
ROLES = (
    Role("villager", "human", "no power", "鎮民"),
    Role("werewolf", "wolf", "knows the other wolves; the pack kills one player each night", "狼人"),
    Role("seer", "human", "each night learns whether one player is a werewolf", "先知"),
    Role("medium", "human", "from night 2 learns whether the player hanged that day was a werewolf",
         "靈媒"),
    Role("madman", "wolf", "a human who wins with the wolves; nobody knows anybody", "狂人"),
    Role("bodyguard", "human", "from night 2 protects one player from the wolves (not the same "
         "twice in a row, never the witness)", "保鑣"),
    Role("owl-man", "human", "each night names a player who is a suspect the next day", "貓頭鷹男"),
    Role("mason", "human", "two masons who know each other", "共濟會"),
    Role("hamster", "human", "the wolves cannot kill him; the seer's check kills him", "倉鼠人"),
    Role("witness", "human", "may peek at the wolves; caught, he is the night's victim", "目擊者"),
    Role("paranoid", "human", "undecided; on night 2 becomes the role of the player he names",
         "妄想狂"),
    Role("witch", "human", "shown the wolves' victim; one revival and one poison a game", "巫師"),
    Role("hunter", "human", "killed (not poisoned) or hanged, may shoot one player", "獵人"),
    Role("cupid", "human", "night 1 links two lovers, who die together", "愛神"),
    Role("death-god", "human", "each night marks a player who dies the next day unless a werewolf "
         "or the hamster", "死神"),
    Role("piper", "human", "each night charms two players; wins alone once all living are charmed",
         "吹笛人"),
)
ROLE = codes(ROLES, "Role")
N_ROLES = len(ROLES)
ROLE_TEAM = np.array([TEAMS.index(r.team) for r in ROLES], dtype=np.int64)
# The camp each role counts for in the victory rules (the madman's may be changed by a knob).
ROLE_CAMP = ROLE_TEAM.copy()
ROLE_CAMP[ROLE.paranoid] = UNDECIDED
# Head counts (role players) from which a role may be dealt: the text's numbers minus the
# moderator. The owl man is not used from 20 role players on, where the death god takes his card.
AVAILABLE_FROM = {"medium": 9, "madman": 10, "bodyguard": 11, "owl-man": 12, "mason": 13,
                  "hamster": 14, "witness": 15, "paranoid": 16, "witch": 17, "hunter": 18,
                  "cupid": 19, "death-god": 20, "piper": 21}
AVAILABLE_UNTIL = {"owl-man": 19}

# --- decisions ---------------------------------------------------------------------------------
# An action is a seat index 0..n-1 unless said otherwise; PASS(n) = 2n, the mask's last entry
# (legal.size - 1). Yes/no decisions answer NO (0) or YES (1). A claim names seat s a werewolf
# (action s) or not a werewolf (action n + s).
NO, YES = 0, 1

DECISIONS = (
    DecisionKind("wolf_kill", "seat to attack", "the pack (its first living werewolf) picks "
                 "tonight's victim; never a werewolf's lover"),
    DecisionKind("seer_check", "seat to check", "the seer learns werewolf / not a werewolf"),
    DecisionKind("claim", "s: 's is a werewolf', n+s: 's is not', or PASS",
                 "discussion: a seat may claim to be the seer and announce a result (asked only "
                 "of strategies that talk)"),
    DecisionKind("suspect_vote", "seat to suspect", "open suspect vote, clockwise from the "
                 "reference seat's right"),
    DecisionKind("sentence_vote", "one of the two suspects", "secret, simultaneous vote to hang a "
                 "suspect (the ballots are public once opened)"),
    DecisionKind("medium_claim", "h: 'h was a werewolf', n+h: 'was not', or PASS",
                 "discussion: a seat may claim to be the medium and announce what the last hanged "
                 "player h was (asked only of strategies that talk)"),
    DecisionKind("protect", "seat to protect", "the bodyguard protects one player tonight"),
    DecisionKind("peek", "NO or YES", "the witness may peek at the wolves"),
    DecisionKind("witch_save", "NO or YES", "the witch may revive the player the wolves attacked"),
    DecisionKind("witch_poison", "seat to poison, or PASS", "the witch may poison one player"),
    DecisionKind("owl_accuse", "seat", "the owl man names tomorrow's first suspect"),
    DecisionKind("death_mark", "seat", "the death god marks a player who dies tomorrow"),
    DecisionKind("paranoid_pick", "seat", "night 2: the paranoid becomes this player's role"),
    DecisionKind("charm", "seat", "the piper charms a player (asked twice a night)"),
    DecisionKind("link", "seat", "night 1: cupid names a lover (asked twice)"),
    DecisionKind("shoot", "seat to shoot, or PASS", "the dying hunter may shoot one player"),
    DecisionKind("mayor_vote", "seat", "day 1: an open vote electing the mayor"),
    DecisionKind("successor", "seat", "the dying mayor names his successor"),
)
DECISION = codes(DECISIONS, "Decision")
MAX_ACTIONS = 2 * MAX_PLAYERS + 1  # seats, seats again (claims' "not a werewolf"), then PASS

# --- what a seat may know of another seat (the `known` piece) ---------------------------------------
# A role code when the seat knows the other's role, or one of these.
UNKNOWN = -1
NOT_WOLF = 100     # a seer's check or the medium: "not a werewolf" (a madman reads so too)
HUMAN_SIDE = 101   # the paranoid's signal: another human-camp role
WOLF_SIDE = 102    # the paranoid's signal: a wolf-camp role (werewolf or madman)

# --- observation: what one seat knows when it decides -------------------------------------------
OBSERVATION = ObservationLayout((
    public("day", 1, "current day/night number, from 1"),
    private("victim", 1,
            "by day: the night's reference seat (the attacked one); to the witch at night: the "
            "attacked seat; else -1"),
    public("suspect_a", 1, "first suspect (footprint) during the sentence vote, else -1"),
    public("suspect_b", 1, "second suspect (fur) during the sentence vote, else -1"),
    public("wolves", 1, "werewolves dealt (the setup is public)"),
    public("dealt", len(ROLES), "how many of each role were dealt (public)"),
    public("mayor", 1, "the mayor's seat, or -1 (public)"),
    public("hanged", 1, "the seat hanged on the last day, or -1 (public)"),
    public("alive", MAX_PLAYERS, "1 if the seat is alive (public)"),
    public("revealed", MAX_PLAYERS,
           "a role shown publicly (a hunter's announcement; a dead player's card under "
           "rules.reveal_dead), else -1"),
    public("claimed", MAX_PLAYERS, "the role the seat publicly claimed (seer or medium), else -1"),
    public("named_wolf", MAX_PLAYERS, "claims that the seat is a werewolf (public)"),
    public("named_clear", MAX_PLAYERS, "claims that the seat is not a werewolf (public)"),
    public("said", MAX_PLAYERS * MAX_PLAYERS,
           "claims by claimant: said[c * 23 + s] is 1 if c said s is a werewolf, 0 if not, -1 if "
           "c said nothing of s"),
    public("votes", MAX_PLAYERS,
           "open votes the seat has received so far today (the suspect vote; on day 1 first the "
           "mayor's election)"),
    public("voted", MAX_PLAYERS, "whom the seat gave its open vote today, or -1"),
    public("ballot", MAX_PLAYERS,
           "whom the seat chose at the last sentence vote, or -1 (public once opened)"),
    private("known", MAX_PLAYERS,
            "what I know of the seat: a role code, NOT_WOLF, HUMAN_SIDE, WOLF_SIDE or -1"),
    private("lovers", 2, "the two lovers, shown to the lovers and cupid; else -1"),
    private("charmed", 1,
            "bit s set if seat s is charmed, shown to the piper and the charmed; else 0"),
    private("potions", 2, "the witch's revival and poison left (1/0), shown to the witch; else 0"),
    private("protected", 1,
            "the player the bodyguard protected last night, shown to him; else -1"),
))
OBS = OBSERVATION.offsets()

# --- results -----------------------------------------------------------------------------------
END_CONDITIONS = (
    Item("wolves_dead", "every player of the wolf camp dead"),
    Item("humans_gone", "humans down to one or none"),
    Item("parity", "wolf camp at least as many as the humans"),
    Item("lovers", "lovers across the camps, the last two alive"),
    Item("piper", "every living player but the piper charmed"),
)
END = codes(END_CONDITIONS, "End")
MAX_LENGTH = 24  # days

EVENTS = (
    Item("night_kills", "players the werewolves killed at night"),
    Item("seer_killed_at_night", "the seer killed by the werewolves"),
    Item("seer_checks", "players the seer checked"),
    Item("seer_found_wolf", "checks that found a werewolf"),
    Item("wolf_claims", "public claims naming a player a werewolf"),
    Item("true_wolf_claims", "of those, naming a real werewolf"),
    Item("suspect_vote_ties", "suspect votes in which a tie decided a suspect"),
    Item("sentence_ties", "sentence votes decided by the tie rule"),
    Item("hanged_wolf", "werewolves hanged"),
    Item("hanged_human", "humans hanged"),
    Item("hanged_seer", "the seer hanged"),
    Item("medium_readings", "hanged players the medium learnt about"),
    Item("medium_claims", "public medium claims"),
    Item("clear_claims", "public claims that a player is not a werewolf"),
    Item("protections", "nights the bodyguard protected someone"),
    Item("protected_saves", "attacks the bodyguard's protection stopped"),
    Item("witness_redirects", "bodyguard picks of the witness, chosen again"),
    Item("owl_suspects", "owl man's suspects given the footprint"),
    Item("hamster_attacked", "attacks on the hamster (nobody died)"),
    Item("hamster_checked", "hamsters killed by the seer's check"),
    Item("peeks", "nights the witness peeked"),
    Item("witness_caught", "peeks the wolves noticed (the witness died instead)"),
    Item("witch_saves", "players the witch revived"),
    Item("witch_poisons", "players the witch poisoned"),
    Item("hunter_shots", "players the hunter shot"),
    Item("lovers_linked", "games with lovers"),
    Item("lovers_across", "of those, lovers across the camps"),
    Item("lover_grief", "lovers who died of grief"),
    Item("death_marks", "players the death god marked"),
    Item("death_god_kills", "of those, who died"),
    Item("paranoid_wolf", "paranoids who became a wolf-camp role"),
    Item("paranoid_human", "paranoids who became a human-camp role"),
    Item("charms", "players the piper charmed"),
    Item("mayor_elected", "mayors elected"),
    Item("mayor_successions", "mayors named by a dying mayor"),
    Item("mayor_double_votes", "votes in which the mayor's double vote decided"),
)
EV = codes(EVENTS, "Event")

# --- trace events (rows of the trace buffer: step, code, actor, target, value, extra) -----------
# A line's seats read "seat 3 (seer)" ({seat:who}: the role dealt); trace.py tells the rest.
E, M = TraceEvent, Mark
TRACE_EVENTS = (
    E("deal", actor="seat", value="role", table=(M("role", "seat", "{role:role_name}"),)),
    E("night", "Night {night}", value="night"),
    E("seer_check", actor="seer", target="checked", value="team",
      table=(M("learns", "seer", "{checked:who} is {team:of_team}"),)),
    E("wolf_kill", "  the werewolves ({wolf:who} for the pack) attack {victim:who}",
      actor="wolf", target="victim"),
    E("death", "  † {seat:who} {cause:dies}", actor="seat", value="role", extra="cause",
      table=(M("out", "seat", "{cause:died}"),)),
    E("day", "Day {day}", value="day"),
    E("claim", "  {claimant:who} claims to be the seer: {checked:who} is {wolf:a_werewolf}",
      actor="claimant", target="checked", value="wolf", extra="role_claimed",
      table=(M("front", "claimant", "claims the seer: {checked:who} is {wolf:a_werewolf}"),)),
    E("suspect_vote", "  suspect vote: {voter:who} -> {suspect:who}",
      actor="voter", target="suspect"),
    E("suspects", "  suspects: footprint {footprint:who} ({footprint_votes:votes}), fur "
                  "{fur:who} ({fur_votes:votes})",
      actor="footprint", target="fur", value="footprint_votes", extra="fur_votes"),
    E("sentence_vote", "  sentence vote: {voter:who} -> {suspect:who}",
      actor="voter", target="suspect"),
    E("hanged", "  {hanged:who} is hanged ({votes} to {against})",
      actor="hanged", value="votes", extra="against"),
    E("winner", value="team", extra="end"),
    E("medium", "  the medium, {medium:who}, learns the hanged {hanged:who} was "
                "{wolf:a_werewolf}", actor="medium", target="hanged", value="wolf",
      table=(M("learns", "medium", "the hanged {hanged:who} was {wolf:a_werewolf}"),)),
    E("medium_claim", "  {claimant:who} claims to be the medium: the hanged {hanged:who} was "
                      "{wolf:a_werewolf}",
      actor="claimant", target="hanged", value="wolf", extra="role_claimed",
      table=(M("front", "claimant", "claims the medium: {hanged:who} was {wolf:a_werewolf}"),)),
    E("protect", actor="bodyguard", target="protected", value="done"),
    E("peek", "  the witness, {witness:who}, peeks at the werewolves{caught:noticed}",
      actor="witness", value="caught",
      table=(M("learns", "witness", "peeked at the werewolves{caught:noticed}"),)),
    E("witch_save", "  the witch, {witch:who}, revives {saved:who}", actor="witch", target="saved",
      table=(M("back", "saved"), M("front", "witch", "used the potion of life"))),
    E("witch_poison", "  the witch, {witch:who}, poisons {poisoned:who}",
      actor="witch", target="poisoned", table=(M("front", "witch", "used the poison"),)),
    E("owl", "  the owl man, {owl:who}, names {named:who} for tomorrow's footprint",
      actor="owl", target="named", table=(M("learns", "owl", "named {named:who}"),)),
    E("mark", "  the death god, {god:who}, marks {marked:who}", actor="god", target="marked",
      table=(M("front", "marked", "marked by the death god"),)),
    E("paranoid", actor="paranoid", target="named", value="signal", extra="role",
      table=(M("role", "paranoid", "{role:role_name}, was paranoid"),
             M("learns", "paranoid", "{named:who}: {signal:signal}"))),
    E("charm", "  the piper, {piper:who}, charms {charmed:who}", actor="piper", target="charmed",
      table=(M("front", "charmed", "charmed"),)),
    E("link", "  cupid, {cupid:who}, links {lover:who} and {other:who} as lovers",
      actor="lover", target="other", value="cupid",
      table=(M("learns", "lover", "in love with {other:who}"),
             M("learns", "other", "in love with {lover:who}"))),
    E("shoot", "  the hunter, {hunter:who}, announces himself and shoots {shot:who}",
      actor="hunter", target="shot", table=(M("front", "hunter", "the hunter (announced)"),)),
    E("mayor_vote", "  mayor vote: {voter:who} -> {choice:who}", actor="voter", target="choice"),
    E("mayor", actor="mayor", target="predecessor", value="succeeds", extra="votes",
      table=(M("taken", "predecessor", "the mayor"), M("front", "mayor", "the mayor"))),
    E("nobody_killed", target="attacked"),
)
TR = codes(TRACE_EVENTS, "Trace")
# The cause of a death (trace: extra of a death row).
CAUSES = ("wolves", "hanged", "poison", "seer", "grief", "shot", "death_god")
CAUSE = codes(CAUSES, "Cause")
# How the day's reference seat ranks in the day's ties when it is alive (a night without a death:
# the attacked player is the reference; `rules.tie_reference`): "first" (clockwise distance 0
# from himself: he wins every tie he is in), "after" (counted from the seat after him: he comes
# last), "random" (that day's ties are broken uniformly at random).
TIE_RULES = ("first", "after", "random")
TIE = codes(TIE_RULES, "TieRule")
