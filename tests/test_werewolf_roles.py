"""The werewolf roles, the mayor and the full victory rules, on hand-built positions.

Three kinds of test:

* a rule function of rules.py or observation.py called on a position built by hand (the kernel's
  own state record, `driver.new_state`, with the roles, deaths and knowledge set directly);
* a kernel phase (`kernel.night`, `kernel.daytime`, `kernel.settle_deaths`, ...) run on such a
  position with every seat on a *scripted* strategy: each decision kind has its queue of actions,
  taken in the order the kernel asks, and every decision asked is logged (kind, seat, role,
  action, legal mask and the observation handed over), so a test reads who was asked what, what
  they were allowed and what they saw;
* whole games: the CLI's config refusals, and every role added alone to a base setup (the run
  completes, every game ends by a victory rule, the role's power was used).

Seats are numbered clockwise; the expectation of each test is derived in the comment above it.
docs/rules/werewolf.md maps every rule of the rules note to these tests.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest
from numba import carray

from cli_checks import one_line_error, run_cli
from simulator.setup import config
from simulator.run import runner
from simulator.games import driver
from simulator.games.base import TRACE_WIDTH, StrategyInfo, StrategyParam
from simulator.games.kernel_support import _address_as_pointer
from simulator.games.werewolf import GAME
from simulator.games.werewolf import kernel as K
from simulator.games.werewolf.declaration import (
    AVAILABLE_FROM, CAUSE, DECISION, DECISIONS, END, EV, HUMAN, HUMAN_SIDE, NO, NOT_WOLF, OBS,
    ROLE, ROLE_TEAM, TR, UNDECIDED, UNKNOWN, WOLF, WOLF_SIDE, YES,
)
from simulator.games.werewolf.observation import legal_kill, observe
from simulator.games.werewolf.rules import (
    attack, bodyguard_finds_witness, camp_winner, charm, choose_suspects, death_mark_kills,
    hunter_may_shoot, kill, link, living_counts, lovers_across, mark_winners, medium_learns,
    paranoid_becomes, piper_has_won, poison, protect, reset_for_deal, revive, seer_learns,
    victory, vote_weight, witness_sees,
)
from strategies.common import strategy

R = ROLE
V, W, S = R.villager, R.werewolf, R.seer
D = DECISION
BG, WITNESS, WITCH, HUNTER, CUPID = R.bodyguard, R.witness, R.witch, R.hunter, R.cupid
HAMSTER, PIPER, DG, OWL, MED, MAD, PARA = (R.hamster, R.piper, R.death_god, R.owl_man, R.medium,
                                         R.madman, R.paranoid)

# === the scripted strategy ======================================================================
# One int64 buffer, its address handed to the strategy as its first parameter:
#   [0]                      decisions logged
#   [SCRIPT_AT + kind * (SLEN + 1)]   the next entry of that kind's queue, then SLEN actions
#   [LOG_AT + r * ROW ...]   log row r: kind, seat, role, action, legal bits, observation
# A queue entry -1 (or an exhausted queue) means "the default": pass where pass is legal, else
# the first legal action (NO for a yes/no decision, the lowest legal seat otherwise).
KINDS = len(DECISIONS)
SLEN = 40
LOGMAX = 300
OBS_SIZE = OBS.size
ROW = 5 + OBS_SIZE
SCRIPT_AT = 1
LOG_AT = SCRIPT_AT + KINDS * (SLEN + 1)
SIZE = LOG_AT + LOGMAX * ROW


@strategy
def scripted(kind, obs, legal, params, memory, rng):
    """Plays the queue of its decision kind from the test's buffer, and logs the decision."""
    buf = carray(_address_as_pointer(int(params[0])), SIZE, np.int64)
    base = SCRIPT_AT + kind * (SLEN + 1)
    k = buf[base]
    action = -1
    if k < SLEN:
        action = buf[base + 1 + k]
        buf[base] = k + 1
    if action < 0:
        if legal[legal.size - 1]:
            action = legal.size - 1
        else:
            for a in range(legal.size):
                if legal[a]:
                    action = a
                    break
    r = buf[0]
    if r < LOGMAX:
        row = LOG_AT + r * ROW
        buf[row] = kind
        buf[row + 1] = obs[1]  # OBS_ME
        buf[row + 2] = obs[2]  # OBS_ROLE
        buf[row + 3] = action
        bits = 0
        for a in range(legal.size):
            if legal[a]:
                bits |= 1 << a
        buf[row + 4] = bits
        for i in range(obs.size):
            buf[row + 5 + i] = obs[i]
    buf[0] = r + 1
    return action


class Asked:
    """One logged decision."""

    def __init__(self, row, n):
        self.kind, self.seat, self.role, self.action, bits = (int(x) for x in row[:5])
        self.legal = {a for a in range(2 * n + 1) if bits >> a & 1}
        self.obs = row[5:].copy()
        self.n = n

    def seats(self):
        """The legal seats (pass left out)."""
        return {a for a in self.legal if a < self.n}

    def known(self, seat):
        return int(self.obs[OBS.known + seat])

    def __repr__(self):
        return f"Asked({DECISIONS[self.kind].name}, seat={self.seat}, action={self.action})"


@lru_cache(maxsize=None)
def _params(n):
    return config.load("werewolf/base-random.toml", players=n).params


class Table:
    """A hand-built position: the kernel's state for an n-player run (every seat on `scripted`),
    the roles set by hand and dealt (`reset_for_deal`), knobs and deaths set directly."""

    def __init__(self, roles, dead=(), caught=0.0, mayor=0, madman_literal=False):
        self.n = n = len(roles)
        self.buf = np.zeros(SIZE, np.int64)
        info = StrategyInfo("scripted", scripted, "test script",
                            params=(StrategyParam("buf", 0.0),))
        slot = driver.Slot("scripted", info, (("buf", float(self.buf.ctypes.data)),))
        lineup = driver.Lineup([slot], np.zeros((n, len(GAME.roles)), np.int64))
        self.st = st = driver.new_state(GAME, _params(n), lineup)
        st.role[:n] = roles
        reset_for_deal(st, n)
        st.witness_caught = caught
        st.mayor = mayor
        if madman_literal:
            st.role_camp[R.madman] = HUMAN
        for seat in dead:
            self.alive[seat] = 0
        self.rng = np.random.default_rng(0)
        self.clear_script()

    def clear_script(self):
        """An empty log, and every queue empty (every decision by default)."""
        self.buf[:] = 0
        self.queues = {}
        for kind in range(KINDS):
            self.buf[SCRIPT_AT + kind * (SLEN + 1) + 1:SCRIPT_AT + (kind + 1) * (SLEN + 1)] = -1

    # --- the script and the log
    def script(self, kind, *actions):
        """Queue actions for decisions of `kind` (after those already queued)."""
        queue = self.queues.setdefault(kind, [])
        queue.extend(actions)
        assert len(queue) <= SLEN
        base = SCRIPT_AT + kind * (SLEN + 1)
        self.buf[base + 1:base + 1 + SLEN] = -1
        self.buf[base + 1:base + 1 + len(queue)] = queue
        return self

    def asked(self, kind=None, seat=None):
        rows = [Asked(self.buf[LOG_AT + r * ROW:LOG_AT + (r + 1) * ROW], self.n)
                for r in range(min(int(self.buf[0]), LOGMAX))]
        return [a for a in rows if (kind is None or a.kind == kind)
                and (seat is None or a.seat == seat)]

    # --- public pieces (views)
    def piece(self, offset):
        return self.st.obs[offset:offset + self.n]

    alive = property(lambda self: self.piece(OBS.alive))
    revealed = property(lambda self: self.piece(OBS.revealed))
    votes = property(lambda self: self.piece(OBS.votes))

    @property
    def mayor(self):
        return int(self.st.obs[OBS.mayor])

    def living(self):
        return [s for s in range(self.n) if self.alive[s]]

    def dead(self):
        return [s for s in range(self.n) if not self.alive[s]]

    # --- phases
    def night(self, day, reference=0):
        return K.night(self.st, day, reference, self.rng)

    def daytime(self, day, reference):
        return int(K.daytime(self.st, day, reference, self.rng))

    def settle(self, day=1):
        K.settle_deaths(self.st, day, self.rng)

    def kill(self, seat, cause):
        kill(self.st, seat, cause)

    def victory(self):
        return int(victory(self.st, self.n))

    def ev(self, name):
        return int(self.st.events[getattr(EV, name)])

    def traced(self, rows=2000):
        """Record the trace from now on; returns a function giving the rows so far."""
        self.trace = np.zeros((rows, TRACE_WIDTH), np.int64)
        driver.attach_trace(self.st, self.trace)
        return lambda: self.trace[:int(self.st.trace_rows)].tolist()


def test_scripted_strategy_plays_its_queue_and_logs():
    # Night 1 of a plain 8-player table: the seer (6) checks seat 2, the pack (leader 2) kills 0.
    t = Table((V, V, W, V, V, W, S, V))
    t.script(DECISION.seer_check, 2).script(DECISION.wolf_kill, 0)
    reference, end = t.night(1)
    assert (reference, end) == (0, -1)
    check, kill_ = t.asked()
    assert (check.kind, check.seat, check.action) == (DECISION.seer_check, 6, 2)
    assert (kill_.kind, kill_.seat, kill_.action) == (DECISION.wolf_kill, 2, 0)
    assert check.seats() == set(range(8)) - {6}
    assert t.dead() == [0] and t.st.cause[0] == CAUSE.wolves


# === the roles' rule functions ==================================================================

def test_seer_and_medium_read_werewolf_or_not_and_a_madman_reads_not():
    # Seats: 0 V, 1 W, 2 seer, 3 medium, 4 madman, 5 V (lover of 4), 6 V, 7 W. The seer and the
    # medium are told "werewolf" or "not a werewolf" only: the madman (wolf camp) reads "not", and
    # the seer learns nothing of the lovers (his observation's lovers piece stays -1).
    t = Table((V, W, S, R.medium, R.madman, V, V, W))
    link(t.st, 6, 4, 5)
    st = t.st
    assert seer_learns(st, 2, 1) and st.known[2, 1] == W
    assert not seer_learns(st, 2, 4) and st.known[2, 4] == NOT_WOLF
    assert not seer_learns(st, 2, 5) and st.known[2, 5] == NOT_WOLF
    assert medium_learns(st, 3, 7) and st.known[3, 7] == W
    assert not medium_learns(st, 3, 4) and st.known[3, 4] == NOT_WOLF
    observe(st, 2, (1, -1, -1, -1))
    assert list(st.obs[OBS.lovers:OBS.lovers + 2]) == [-1, -1]
    observe(st, 4, (1, -1, -1, -1))
    assert list(st.obs[OBS.lovers:OBS.lovers + 2]) == [4, 5]


def test_seer_check_marks_the_hamster_to_die_at_daybreak():
    # Checking the hamster kills him, at daybreak (night_death), not on the spot; he reads "not".
    t = Table((V, W, S, R.hamster, V, V, V, W))
    assert not seer_learns(t.st, 2, 3)
    assert t.st.night_death[3] == CAUSE.seer and t.alive[3] == 1
    assert t.st.night_death[0] == -1 and not seer_learns(t.st, 2, 0) and t.st.night_death[0] == -1


def test_masons_and_wolves_know_each_other_from_the_deal():
    # The deal: each seat knows its own card; the werewolves each other, the masons each other.
    t = Table((V, W, R.mason, V, R.mason, W, S, V))
    k = t.st.known
    assert k[2, 4] == R.mason and k[4, 2] == R.mason
    assert k[1, 5] == W and k[5, 1] == W
    assert k[1, 2] == UNKNOWN and k[2, 1] == UNKNOWN and k[0, 2] == UNKNOWN and k[6, 4] == UNKNOWN


def test_protection_and_the_hamster_stop_the_wolves_only():
    # attack(): 1 if the attack will kill at daybreak. The bodyguard's protected player (seat 3)
    # and the hamster (seat 4) are not killed by the wolves; the witch's poison kills both.
    t = Table((V, W, R.bodyguard, V, R.hamster, V, S, W))
    st = t.st
    protect(st, 2, 3)
    assert st.shielded[3] == 1 and st.last_protected[2] == 3
    assert attack(st, 3) == 0 and st.night_death[3] == -1
    assert attack(st, 4) == 0 and st.night_death[4] == -1
    assert attack(st, 5) == 1 and st.night_death[5] == CAUSE.wolves
    poison(st, 3)
    poison(st, 4)
    assert st.night_death[3] == CAUSE.poison and st.night_death[4] == CAUSE.poison


def test_revival_undoes_the_wolves_attack_only():
    t = Table((V, W, R.witch, V, V, V, S, W))
    st = t.st
    attack(st, 3)
    poison(st, 4)
    revive(st, 3)
    revive(st, 4)
    assert st.night_death[3] == -1 and st.night_death[4] == CAUSE.poison


def test_bodyguard_naming_the_witness_learns_him():
    t = Table((V, W, R.bodyguard, R.witness, V, V, S, W))
    assert not bodyguard_finds_witness(t.st, 2, 4) and t.st.known[2, 4] == UNKNOWN
    assert bodyguard_finds_witness(t.st, 2, 3) and t.st.known[2, 3] == R.witness


def test_unnoticed_peek_shows_the_living_werewolves():
    # Wolves at 1 and 7 (1 dead: it did not wake), a madman at 5 (he does not wake with them).
    t = Table((V, W, V, R.witness, V, R.madman, S, W), dead=(1,))
    witness_sees(t.st, 3, 8)
    assert [int(t.st.known[3, j]) for j in range(8)] == \
        [UNKNOWN, UNKNOWN, UNKNOWN, R.witness, UNKNOWN, UNKNOWN, UNKNOWN, W]


@pytest.mark.parametrize("target_role, signal, camp", [
    (S, S, HUMAN), (V, HUMAN_SIDE, HUMAN), (R.witch, HUMAN_SIDE, HUMAN),
    (R.hunter, HUMAN_SIDE, HUMAN), (W, WOLF_SIDE, WOLF), (R.madman, WOLF_SIDE, WOLF),
])
def test_paranoid_becomes_the_role_and_camp_told_only_the_signal(target_role, signal, camp):
    # Seat 3 the paranoid names seat 4: he counts for neither camp before, and after is told one of
    # three signals (seer / another human-camp role / a wolf-camp role) and fully becomes the role
    # and its camp. A new witch has both potions; a new werewolf meets the pack next night.
    roles = [V, W, S, R.paranoid, target_role, V, V, W]
    if target_role == S:
        roles[2] = V
    t = Table(tuple(roles))
    st = t.st
    assert st.role_camp[st.role[3]] == UNDECIDED
    before = living_counts(st, 8)
    assert paranoid_becomes(st, 3, 4) == signal
    assert st.role[3] == target_role and st.known[3, 3] == target_role
    assert st.known[3, 4] == signal and st.role_camp[st.role[3]] == camp
    humans, wolves = living_counts(st, 8)
    assert (humans, wolves) == (before[0] + (camp == HUMAN), before[1] + (camp == WOLF))
    assert st.joins_pack == (3 if target_role == W else -1)
    if target_role == R.witch:
        assert st.save_left[3] == 1 and st.poison_left[3] == 1


def test_death_mark_kills_unless_a_werewolf_or_the_hamster():
    t = Table((V, W, R.madman, R.hamster, S, R.hunter, R.death_god, W))
    assert [bool(death_mark_kills(t.st, s)) for s in range(8)] == \
        [True, False, True, False, True, True, True, False]


@pytest.mark.parametrize("cause, shoots", [
    (CAUSE.wolves, True), (CAUSE.hanged, True), (CAUSE.grief, True), (CAUSE.shot, True),
    (CAUSE.death_god, True), (CAUSE.poison, False),
])
def test_hunter_shoots_unless_poisoned(cause, shoots):
    t = Table((V, W, R.hunter, V, V, V, S, W))
    t.kill(2, cause)
    assert bool(hunter_may_shoot(t.st, 2)) == shoots
    t.kill(3, cause)
    assert not hunter_may_shoot(t.st, 3)  # not the hunter


def test_the_mayors_vote_counts_twice():
    t = Table((V, W, V, V, V, V, S, W))
    t.st.obs[OBS.mayor] = 4
    assert [int(vote_weight(t.st, s)) for s in range(8)] == [1, 1, 1, 1, 2, 1, 1, 1]


def test_charm_marks_the_seat_only():
    t = Table((V, W, V, V, V, V, S, R.piper))
    link(t.st, 6, 2, 3)
    charm(t.st, 2)
    charm(t.st, 5)
    assert list(t.st.charmed[:8]) == [0, 0, 1, 0, 0, 1, 0, 0]
    assert t.st.charmed_bits == (1 << 2) | (1 << 5)  # the lover 3 is not charmed


# --- the owl man's footprint (choose_suspects) ---------------------------------------------------

def _suspects(votes, owl, dead=(), reference=0):
    t = Table((V, W, V, V, V, V, S, W), dead=dead)
    t.votes[:] = votes
    t.st.owl_target = owl
    footprint, fur, _ = choose_suspects(t.st, 8, reference)
    return int(footprint), int(fur)


def test_owl_suspect_gets_the_footprint_even_without_votes():
    # Votes: seat 2 three, seat 5 two; the owl man named seat 6 (no votes): footprint 6, fur 2.
    assert _suspects([0, 0, 3, 0, 0, 2, 0, 0], owl=6) == (6, 2)


def test_owl_suspect_also_most_voted_gives_the_fur_to_the_next():
    # The owl man's suspect 2 is also the most voted: the fur goes to the next in the ranking, 5.
    assert _suspects([0, 0, 3, 0, 0, 2, 0, 0], owl=2) == (2, 5)
    # ... with a tie for that next place: 4 and 5 both 2 votes, reference 0: 4 is nearer.
    assert _suspects([0, 0, 3, 0, 2, 2, 0, 0], owl=2) == (2, 4)


def test_owl_suspect_dead_or_none_gives_the_top_two():
    # The owl man's suspect 6 died (or there is none): the two most voted get the cards.
    assert _suspects([0, 0, 3, 0, 0, 2, 0, 0], owl=6, dead=(6,)) == (2, 5)
    assert _suspects([0, 0, 3, 0, 0, 2, 0, 0], owl=-1) == (2, 5)


# --- victory ------------------------------------------------------------------------------------

def _end(roles, dead=(), lovers=None, charmed=(), madman_literal=False):
    t = Table(roles, dead=dead, madman_literal=madman_literal)
    if lovers:
        link(t.st, -1, *lovers)
    for s in charmed:
        charm(t.st, s)
    return t.victory()


def test_victory_rule_1_needs_the_whole_wolf_camp_dead():
    # Wolves 1 and 7 dead, the madman 4 alive: the humans have not won (4 humans vs 1).
    roles = (V, W, V, V, R.madman, V, S, W)
    assert _end(roles, dead=(1, 7)) == -1
    assert _end(roles, dead=(1, 4, 7)) == END.wolves_dead
    # Knob rules.madman_literal: the madman counts as a human and need not die.
    assert _end(roles, dead=(1, 7), madman_literal=True) == END.wolves_dead
    # A paranoid who became a werewolf is of the wolf camp (role code werewolf after night 2).
    assert _end((V, W, V, W, V, V, S, W), dead=(1, 7)) == -1


def test_victory_rule_2_humans_down_to_one():
    # One human (seat 0) and one wolf left: rule 2 (rule 3 also holds; rule 2 comes first).
    assert _end((V, W, V, V, V, V, S, W), dead=(2, 3, 4, 5, 6, 7)) == END.humans_gone
    # The madman is not a human for rule 2: seat 0, the madman 4 and a wolf.
    assert _end((V, W, V, V, R.madman, V, S, W), dead=(2, 3, 5, 6, 7)) == END.humans_gone


def test_victory_rule_3_at_least_as_many():
    # 2 wolves vs 2 humans: parity; 2 vs 3: the game goes on.
    roles = (V, W, V, V, V, V, S, W)
    assert _end(roles, dead=(0, 2, 3, 4)) == END.parity
    assert _end(roles, dead=(0, 2, 3)) == -1
    # Several deaths at once skip over equality: 3 of the wolf camp vs 2 humans still wins.
    assert _end((V, W, V, V, R.madman, V, S, W), dead=(2, 3, 5)) == END.parity
    # The madman counts for the wolves: 2 wolves + madman vs 3 humans.
    assert _end((V, W, V, V, R.madman, V, S, W), dead=(2, 3)) == END.parity
    # ... unless rules.madman_literal: 2 vs 4.
    assert _end((V, W, V, V, R.madman, V, S, W), dead=(2, 3), madman_literal=True) == -1
    # The paranoid (before night 2) counts for neither camp: 2 wolves vs 2 humans + him.
    assert _end((V, W, V, V, R.paranoid, V, S, W), dead=(0, 2, 3)) == END.parity
    # The seer and the hamster count as humans: 2 wolves vs villager, seer, hamster.
    assert _end((V, W, V, V, R.hamster, V, S, W), dead=(2, 3, 5)) == -1


def test_victory_rule_4_lovers_across_the_camps_the_last_two():
    # A werewolf (1) and a human (3) in love, the last two alive: they win, before rules 2 and 3.
    roles = (V, W, V, V, V, V, S, W)

    def everyone_but(*alive):
        return tuple(s for s in range(8) if s not in alive)

    assert _end(roles, dead=everyone_but(1, 3), lovers=(1, 3)) == END.lovers
    # The madman and a human are lovers across the camps too.
    assert _end((V, W, V, V, R.madman, V, S, W), dead=everyone_but(4, 3), lovers=(4, 3)) == \
        END.lovers
    # Only as the last two: a third player alive -> the camp rules (1 wolf vs 2 humans: goes on;
    # 2 wolves vs 1 human: rule 2).
    assert _end(roles, dead=everyone_but(1, 3, 5), lovers=(1, 3)) == -1
    assert _end(roles, dead=everyone_but(1, 3, 7), lovers=(1, 3)) == END.humans_gone
    # Same-camp lovers have no special rule: two human lovers -> rule 1; two wolves -> rule 2.
    assert _end(roles, dead=everyone_but(2, 3), lovers=(2, 3)) == END.wolves_dead
    assert _end(roles, dead=everyone_but(1, 7), lovers=(1, 7)) == END.humans_gone
    # Not lovers: a wolf and a human left -> rule 2.
    assert _end(roles, dead=everyone_but(1, 3)) == END.humans_gone


def test_victory_rule_5_the_piper():
    # Every living player but the living piper (7) charmed: the piper wins, checked first.
    roles = (V, W, V, V, V, V, S, R.piper)
    assert _end(roles, dead=(0, 3), charmed=(1, 2, 4, 5, 6)) == END.piper
    assert _end(roles, dead=(0, 3), charmed=(1, 2, 4, 5)) == -1
    # Before rule 1: the wolves dead too.
    assert _end(roles, dead=(1,), charmed=(0, 2, 3, 4, 5, 6)) == END.piper
    # Only while alive: a dead piper with everyone charmed wins nothing (2 humans vs 1 wolf).
    assert _end(roles, dead=(0, 3, 4, 5, 7), charmed=(1, 2, 6)) == -1
    assert piper_has_won(Table(roles).st, 8) is False


def test_winners_of_each_end():
    # mark_winners: a camp's win goes to its roles (the madman with the wolves, also under the
    # knob), except lovers across the camps, who win only together, and a paranoid who never
    # chose; the lovers' and the piper's wins are the living lovers' and the living piper's.
    roles = (V, W, R.madman, R.paranoid, V, V, S, W)
    t = Table(roles)
    link(t.st, -1, 1, 4)  # a werewolf and a human
    assert lovers_across(t.st, 1) and lovers_across(t.st, 4) and not lovers_across(t.st, 0)
    assert mark_winners(t.st, 8, END.parity) == WOLF
    assert list(t.st.won[:8]) == [0, 0, 1, 0, 0, 0, 0, 1]
    assert mark_winners(t.st, 8, END.wolves_dead) == HUMAN
    assert list(t.st.won[:8]) == [1, 0, 0, 0, 0, 1, 1, 0]
    t.alive[:] = 0
    t.alive[1] = t.alive[4] = 1
    assert mark_winners(t.st, 8, END.lovers) == -1
    assert list(t.st.won[:8]) == [0, 1, 0, 0, 1, 0, 0, 0]
    # Same-camp lovers win with their camp.
    t = Table(roles, madman_literal=True)
    link(t.st, -1, 0, 4)
    assert not lovers_across(t.st, 0)
    mark_winners(t.st, 8, END.wolves_dead)
    assert list(t.st.won[:8]) == [1, 0, 0, 0, 1, 1, 1, 0]
    mark_winners(t.st, 8, END.parity)  # the madman wins with the wolves under the knob too
    assert list(t.st.won[:8]) == [0, 1, 1, 0, 0, 0, 0, 1]
    # The piper's win is the living piper's alone.
    t = Table((V, W, V, V, V, V, S, R.piper))
    assert mark_winners(t.st, 8, END.piper) == -1
    assert list(t.st.won[:8]) == [0] * 7 + [1]
    assert [camp_winner(e) for e in range(5)] == [HUMAN, WOLF, WOLF, -1, -1]


def test_lovers_never_kill_each_other_in_the_pack_mask():
    # A werewolf (1) loves seat 3 (cupid, seat 5, linked them and has died since): the pack may not
    # pick 3; any other living seat (wolves too).
    t = Table((V, W, V, V, V, CUPID, S, W), dead=(5,))
    link(t.st, -1, 1, 3)
    legal_kill(t.st, 8)
    assert {a for a in range(17) if t.st.legal[a]} == {0, 1, 2, 4, 6, 7}


# === the roles in the kernel's night and day (scripted play) =====================================

def test_bodyguard_protects_from_night_2_and_the_witch_still_poisons():
    # Night 1: the bodyguard (1) is not called. Night 2: he protects 3, the wolves attack 3: their
    # attack kills nobody; the witch (7) is shown the attacked player 3 and poisons him: 3 dies.
    t = Table((V, BG, W, V, V, W, S, WITCH))
    t.script(D.wolf_kill, 0, 3).script(D.protect, 3).script(D.witch_poison, 16, 3)
    assert t.night(1) == (0, -1)
    assert t.asked(D.protect) == [] and t.dead() == [0]
    assert t.night(2, 0) == (3, -1)  # the reference seat is the attacked one
    [save] = [a for a in t.asked(D.witch_save) if a.obs[OBS.day] == 2]
    assert save.seat == 7 and save.obs[OBS.victim] == 3
    assert t.dead() == [0, 3] and t.st.cause[3] == CAUSE.poison
    assert t.ev("protections") == 1 and t.ev("protected_saves") == 1 and t.ev("night_kills") == 1


def test_bodyguard_not_the_same_player_twice_in_a_row():
    # Night 2 he protects himself (allowed); night 3 he is shown that and may not name himself;
    # night 4 he may again.
    t = Table((V, BG, W, V, V, W, S, V))
    t.script(D.wolf_kill, 0, 3, 6).script(D.protect, 1, 4, 1)
    t.night(2)
    t.night(3)
    t.night(4)
    first, second, third = t.asked(D.protect)
    assert 1 in first.seats() and first.obs[OBS.protected] == -1
    assert second.obs[OBS.protected] == 1 and second.seats() == {2, 3, 4, 5, 6, 7}
    assert 1 in third.seats() and 4 not in third.seats()


def test_bodyguard_naming_the_witness_chooses_again_knowing_him():
    t = Table((V, BG, W, WITNESS, V, W, S, V))
    t.script(D.protect, 3, 4).script(D.wolf_kill, 4)
    t.night(2)
    first, second = t.asked(D.protect)
    assert 3 in first.seats() and first.known(3) == UNKNOWN
    assert 3 not in second.seats() and second.known(3) == WITNESS
    assert t.st.shielded[4] == 1 and t.st.shielded[3] == 0 and t.st.last_protected[1] == 4
    assert t.ev("witness_redirects") == 1 and t.dead() == []  # the attack on 4 was stopped


def test_witness_peek_unnoticed_learns_the_wolves():
    # Knob rules.witness_caught = 0: the peek is never noticed; the witness (3) learns 2 and 5.
    t = Table((V, V, W, WITNESS, V, W, S, V), caught=0.0)
    t.script(D.peek, YES).script(D.wolf_kill, 0)
    assert t.night(1) == (0, -1)
    assert [int(t.st.known[3, j]) for j in (2, 5)] == [W, W]
    assert t.dead() == [0] and t.ev("peeks") == 1 and t.ev("witness_caught") == 0


def test_witness_caught_is_the_victim_instead():
    # Knob rules.witness_caught = 1: noticed, the witness dies instead of the pack's victim 0, and
    # counts as the victim (the day's reference seat). The witch is shown him.
    t = Table((V, V, W, WITNESS, V, W, S, WITCH), caught=1.0)
    t.script(D.peek, YES).script(D.wolf_kill, 0)
    assert t.night(1) == (3, -1)
    assert t.dead() == [3] and t.st.cause[3] == CAUSE.wolves
    assert t.asked(D.witch_save)[0].obs[OBS.victim] == 3
    assert t.ev("witness_caught") == 1
    # Not peeking: nothing happens to him.
    t = Table((V, V, W, WITNESS, V, W, S, V), caught=1.0)
    t.script(D.peek, NO).script(D.wolf_kill, 0)
    assert t.night(1) == (0, -1) and t.dead() == [0] and t.ev("peeks") == 0


def test_witness_caught_probability_is_the_knob():
    # rules.witness_caught = 0.25: of 4000 peeks, the caught count is Binomial(4000, 0.25), mean
    # 1000, sd 27.4; +-5 sd is [863, 1137] (a correct kernel is outside with probability < 1e-6).
    caught = 0
    t = Table((V, V, W, WITNESS, V, W, S, V), caught=0.25)
    for _ in range(4000):
        reset_for_deal(t.st, 8)  # everyone alive again
        t.clear_script()
        t.script(D.peek, YES).script(D.wolf_kill, 0)
        reference, _ = t.night(1)
        caught += reference == 3
    assert t.ev("peeks") == 4000 and t.ev("witness_caught") == caught
    assert 863 <= caught <= 1137


def test_hamster_attacked_nobody_dies_but_the_poison_works():
    # The wolves attack the hamster (3): nobody dies of it; the witch's poison on 0 still works.
    t = Table((V, V, W, HAMSTER, V, W, S, WITCH))
    trace = t.traced()
    t.script(D.wolf_kill, 3).script(D.witch_poison, 0)
    assert t.night(1) == (3, -1)
    assert t.dead() == [0] and t.st.cause[0] == CAUSE.poison
    assert t.ev("hamster_attacked") == 1 and t.ev("night_kills") == 0
    # A night where the attack kills nobody at all is announced as such.
    t = Table((V, V, W, HAMSTER, V, W, S, V))
    trace = t.traced()
    t.script(D.wolf_kill, 3)
    assert t.night(1) == (3, -1) and t.dead() == []
    assert [row[1] for row in trace()].count(TR.nobody_killed) == 1


def test_seer_checking_the_hamster_kills_him_at_daybreak():
    t = Table((V, V, W, HAMSTER, V, W, S, V))
    t.script(D.seer_check, 3).script(D.wolf_kill, 0)
    assert t.night(1) == (0, -1)
    assert t.dead() == [0, 3] and t.st.cause[3] == CAUSE.seer and t.ev("hamster_checked") == 1
    # Even his lover's check kills him (a check is not a kill); the seer then dies of grief.
    t = Table((V, V, W, HAMSTER, V, W, S, V))
    link(t.st, -1, 3, 6)
    t.script(D.seer_check, 3).script(D.wolf_kill, 0)
    t.night(1)
    assert t.dead() == [0, 3, 6] and t.st.cause[6] == CAUSE.grief


def test_witch_revives_herself_and_each_potion_is_used_once():
    # Night 1: the pack attacks the witch (7); shown herself, she revives herself. Her poison's
    # mask excludes herself (she may not poison herself). Night 2: no revival is offered; she
    # poisons 4. Night 3: she is not asked at all.
    t = Table((V, V, W, V, V, W, S, WITCH))
    t.script(D.wolf_kill, 7, 0, 1).script(D.witch_save, YES).script(D.witch_poison, 16, 4)
    assert t.night(1) == (7, -1)
    [save] = t.asked(D.witch_save)
    assert save.obs[OBS.victim] == 7 and list(save.obs[OBS.potions:OBS.potions + 2]) == [1, 1]
    assert t.dead() == [] and t.st.save_left[7] == 0 and t.ev("witch_saves") == 1
    assert 7 not in t.asked(D.witch_poison)[0].seats()
    t.night(2)
    assert len(t.asked(D.witch_save)) == 1
    assert t.dead() == [0, 4] and t.st.cause[4] == CAUSE.poison and t.st.poison_left[7] == 0
    t.night(3)
    assert len(t.asked(D.witch_poison)) == 2 and t.dead() == [0, 1, 4]


def test_witch_revives_and_poisons_the_same_night():
    t = Table((V, V, W, V, V, W, S, WITCH))
    t.script(D.wolf_kill, 0).script(D.witch_save, YES).script(D.witch_poison, 5)
    t.night(1)
    assert t.dead() == [5] and t.ev("witch_saves") == 1 and t.ev("witch_poisons") == 1


def test_hunter_killed_by_the_wolves_shoots_publicly():
    t = Table((V, HUNTER, W, V, V, W, S, V))
    t.script(D.wolf_kill, 1).script(D.shoot, 5)
    t.night(1)
    [shot] = t.asked(D.shoot)
    assert shot.seat == 1 and 16 in shot.legal and 1 not in shot.legal  # pass allowed
    assert t.dead() == [1, 5] and t.st.cause[5] == CAUSE.shot and t.ev("hunter_shots") == 1
    assert list(t.revealed) == [-1, HUNTER, -1, -1, -1, -1, -1, -1]  # the announcement is public
    # Passing: no announcement, nobody shot.
    t = Table((V, HUNTER, W, V, V, W, S, V))
    t.script(D.wolf_kill, 1).script(D.shoot, 16)
    t.night(1)
    assert t.dead() == [1] and list(t.revealed) == [-1] * 8


def test_hunter_killed_by_the_witch_does_not_shoot():
    t = Table((V, HUNTER, W, V, V, W, S, WITCH))
    t.script(D.wolf_kill, 0).script(D.witch_poison, 1)
    t.night(1)
    assert t.dead() == [0, 1] and t.asked(D.shoot) == [] and t.ev("hunter_shots") == 0


def test_hunter_hanged_shoots():
    # Day 1 after seat 0's death: by the default votes every voter (1..7) names the lowest other
    # living seat, so seat 1 gets 6 votes and seat 2 one; the sentence ballots all go to 1.
    t = Table((V, HUNTER, W, V, V, W, S, V), dead=(0,))
    t.script(D.shoot, 5)
    assert t.daytime(1, 0) == -1
    assert t.st.obs[OBS.hanged] == 1 and t.dead() == [0, 1, 5] and t.revealed[1] == HUNTER


def test_hunter_dying_of_grief_shoots_but_never_his_lover():
    # The hunter (1) loves seat 3; the wolves kill 3; the hunter dies of grief (counts as killed)
    # and may shoot: not his lover.
    t = Table((V, HUNTER, W, V, V, W, S, V))
    link(t.st, -1, 1, 3)
    t.script(D.wolf_kill, 3).script(D.shoot, 2)
    t.night(1)
    [shot] = t.asked(D.shoot)
    assert 3 not in shot.legal and t.st.cause[1] == CAUSE.grief
    assert t.dead() == [1, 2, 3] and t.ev("lover_grief") == 1


def test_hunter_shot_decides_the_game_at_once():
    # One wolf (2): the pack kills the hunter, who shoots the wolf: the humans win at daybreak.
    t = Table((V, HUNTER, W, V, V, V, S, V))
    t.script(D.wolf_kill, 1).script(D.shoot, 2)
    assert t.night(1) == (1, END.wolves_dead)


def test_cupid_links_two_lovers_on_night_1_who_see_each_other():
    # Cupid (7) names himself and the werewolf 2: lovers across the camps. The second name may not
    # repeat the first. The pack (its spokesman 2 is a lover) may not attack 7. A lover's
    # observation shows the lovers; others' do not.
    t = Table((V, V, W, V, V, W, S, CUPID))
    t.script(D.link, 7, 2).script(D.wolf_kill, 0)
    t.night(1)
    first, second = t.asked(D.link)
    assert 7 in first.seats() and 7 not in second.seats() and 2 in second.seats()
    assert t.st.lover[7] == 2 and t.st.lover[2] == 7
    assert t.ev("lovers_linked") == 1 and t.ev("lovers_across") == 1
    [pack] = t.asked(D.wolf_kill)
    assert 7 not in pack.seats() and list(pack.obs[OBS.lovers:OBS.lovers + 2]) == [2, 7]
    [check] = t.asked(D.seer_check)
    assert list(check.obs[OBS.lovers:OBS.lovers + 2]) == [-1, -1]
    t.night(2)  # cupid is called on night 1 only
    assert len(t.asked(D.link)) == 2


def test_lovers_die_together():
    # Hanged or killed at night, a lover's partner dies of grief at once.
    t = Table((V, V, W, V, V, W, S, V))
    link(t.st, -1, 3, 4)
    t.kill(3, CAUSE.hanged)
    t.settle()
    assert t.dead() == [3, 4] and t.st.cause[4] == CAUSE.grief and t.ev("lover_grief") == 1
    t = Table((V, V, W, V, V, W, S, V))
    link(t.st, -1, 3, 4)
    t.script(D.wolf_kill, 4)
    t.night(1)
    assert t.dead() == [3, 4] and t.st.cause[3] == CAUSE.grief


def test_lovers_across_the_camps_win_as_the_last_two():
    # Alive: the werewolf 2, his lover 3, and seat 4; the pack kills 4: the lovers win.
    t = Table((V, V, W, V, V, W, S, V), dead=(0, 1, 5, 6, 7))
    link(t.st, -1, 2, 3)
    t.script(D.wolf_kill, 4)
    assert t.night(3) == (4, END.lovers)


def test_voting_for_ones_lover_is_allowed():
    t = Table((V, V, W, V, V, W, S, V), dead=(0,))
    link(t.st, -1, 3, 4)
    t.daytime(1, 0)
    [vote] = t.asked(D.suspect_vote, seat=3)
    assert 4 in vote.seats()


def test_death_god_kills_during_the_day_after_the_hanging():
    # Night 1: the death god (7) is attacked by the pack and still marks seat 4 (the night's deaths
    # happen at daybreak). Day 1 (reference 7: voters 8, 9, 0, ...): by the default votes seat 0
    # is hanged, then 4 dies of the mark, though the death god is dead.
    t = Table((V, V, W, V, V, W, S, DG, V, V))
    trace = t.traced()
    t.script(D.wolf_kill, 7).script(D.death_mark, 4)
    t.night(1)
    [mark] = t.asked(D.death_mark)
    assert mark.seat == 7 and 7 not in mark.seats() and t.dead() == [7]
    assert t.daytime(1, 7) == -1
    deaths = [(row[2], row[5]) for row in trace() if row[1] == TR.death]
    assert deaths == [(7, CAUSE.wolves), (0, CAUSE.hanged), (4, CAUSE.death_god)]
    assert t.ev("death_marks") == 1 and t.ev("death_god_kills") == 1


def test_death_god_mark_spares_werewolves_and_the_hamster_but_kills_the_madman():
    # Marks on the madman 3, the hamster 4 and the werewolf 5; seat 1 is hanged first; then only
    # the madman dies; victory is checked again (2 wolves vs 4 humans: the game goes on).
    t = Table((V, V, W, MAD, HAMSTER, W, S, DG, V, V), dead=(0,))
    t.st.marked[3] = t.st.marked[4] = t.st.marked[5] = 1
    assert t.daytime(1, 0) == -1
    assert t.dead() == [0, 1, 3] and t.st.cause[3] == CAUSE.death_god
    assert list(t.st.marked[:10]) == [0] * 10


def test_death_god_mark_does_not_kill_once_the_hanging_ended_the_game():
    # One wolf (2), hanged by the ballots; the marked seat 4 stays alive: the game ended first.
    t = Table((V, V, W, V, V, V, S, DG), dead=(0,))
    t.st.marked[4] = 1
    t.script(D.sentence_vote, *[2] * 7)
    assert t.daytime(1, 0) == END.wolves_dead
    assert t.dead() == [0, 2] and t.ev("death_god_kills") == 0


def test_paranoid_becomes_a_werewolf_and_meets_the_pack_next_night():
    # Night 1: the paranoid (3) is not called. Night 2: he names the werewolf 5, is told "a
    # wolf-camp role" and becomes a werewolf. Night 3: the pack meets; its spokesman 2 knows him.
    t = Table((V, V, W, PARA, V, W, S, V))
    t.script(D.wolf_kill, 0, 1, 4).script(D.paranoid_pick, 5)
    t.night(1)
    assert t.asked(D.paranoid_pick) == []
    t.night(2)
    [pick] = t.asked(D.paranoid_pick)
    assert pick.seat == 3 and 3 not in pick.seats()
    assert t.st.role[3] == W and t.st.known[3, 5] == WOLF_SIDE and t.st.known[2, 3] == UNKNOWN
    assert t.ev("paranoid_wolf") == 1
    t.night(3)
    assert len(t.asked(D.paranoid_pick)) == 1
    pack = t.asked(D.wolf_kill)[-1]
    assert pack.seat == 2 and pack.known(3) == W and pack.known(5) == W
    assert t.st.known[3, 2] == W and t.st.known[5, 3] == W


def test_paranoid_becoming_the_witch_has_both_potions():
    t = Table((V, V, W, PARA, V, W, S, WITCH))
    t.script(D.wolf_kill, 0, 1, 4).script(D.paranoid_pick, 7)
    t.night(1)
    t.night(2)
    assert t.st.role[3] == WITCH and t.ev("paranoid_human") == 1
    t.night(3)
    assert {a.seat for a in t.asked(D.witch_save) if a.obs[OBS.day] == 3} == {3, 7}


def test_piper_charms_two_a_night_and_wins_at_once():
    # Night 1: the piper (7) charms 1 and 2 (not himself, not the same twice); night 2: 4 and 5
    # (the charmed are no longer offered; 3, attacked tonight, still is). Night 3: 6, the last
    # uncharmed living player (the only legal choice, so taken without asking): he wins at once,
    # before the night's deaths (the pack attacked 6).
    t = Table((V, V, W, V, V, W, S, PIPER))
    t.script(D.wolf_kill, 0, 3, 6).script(D.charm, 1, 2, 4, 5, 6)
    t.night(1)
    first, second = t.asked(D.charm)
    assert first.seats() == {0, 1, 2, 3, 4, 5, 6} and second.seats() == {0, 2, 3, 4, 5, 6}
    assert t.night(2) == (3, -1)
    assert t.asked(D.charm)[2].seats() == {3, 4, 5, 6}
    reference, end = t.night(3)
    assert (reference, end) == (6, END.piper) and t.ev("charms") == 5
    assert t.alive[6] == 1  # the piper's win came first
    assert len(t.asked(D.charm)) == 4 and t.st.charmed[6] == 1  # the last charm was forced


def test_charming_one_lover_does_not_charm_the_other_and_the_charmed_see_each_other():
    t = Table((V, V, W, V, V, W, S, PIPER))
    link(t.st, -1, 1, 2)
    t.script(D.wolf_kill, 0).script(D.charm, 1, 4)
    t.night(1)
    assert list(t.st.charmed[:8]) == [0, 1, 0, 0, 1, 0, 0, 0]
    bits = (1 << 1) | (1 << 4)
    for seat, sees in ((1, bits), (4, bits), (7, bits), (2, 0), (3, 0)):
        observe(t.st, seat, (1, -1, -1, -1))
        assert t.st.obs[OBS.charmed] == sees, seat


def test_owl_mans_suspect_gets_the_footprint_in_the_kernel():
    # Night 1: the owl man (7) names 3 (not himself). Day 1: default votes give seat 1 six votes
    # and 2 one; the footprint is the owl man's 3 (no votes), the fur 1.
    t = Table((V, V, W, V, V, W, S, OWL))
    t.script(D.wolf_kill, 0).script(D.owl_accuse, 3)
    t.night(1)
    assert 7 not in t.asked(D.owl_accuse)[0].seats() and t.st.owl_target == 3
    t.daytime(1, 0)
    ballot = t.asked(D.sentence_vote)[0]
    assert (ballot.obs[OBS.suspect_a], ballot.obs[OBS.suspect_b]) == (3, 1)
    assert t.ev("owl_suspects") == 1 and t.st.owl_target == -1


def test_two_owl_men_the_later_ones_suspect_holds():
    t = Table((V, OWL, W, V, V, W, S, OWL))
    t.script(D.wolf_kill, 0).script(D.owl_accuse, 3, 4)
    t.night(1)
    assert [a.seat for a in t.asked(D.owl_accuse)] == [1, 7] and t.st.owl_target == 4


def test_medium_learns_the_hanged_from_night_2():
    # The madman (7) was hanged: the medium (3) reads "not a werewolf"; then the werewolf 2.
    t = Table((V, V, W, MED, V, W, S, MAD))
    t.script(D.wolf_kill, 0, 1, 4)
    t.st.obs[OBS.hanged] = 7
    t.night(1)
    assert t.st.known[3, 7] == UNKNOWN and t.ev("medium_readings") == 0
    t.night(2)
    assert t.st.known[3, 7] == NOT_WOLF
    t.st.obs[OBS.hanged] = 2
    t.night(3)
    assert t.st.known[3, 2] == W and t.ev("medium_readings") == 2


def test_mayor_elected_and_his_vote_counts_twice_in_both_votes():
    # Day 1, seat 0 dead, reference 0: voters 1..7 in order.
    # Election: 1,2,4,5,6,7 name 3; 3 names 4 -> the mayor is 3.
    # Suspect vote (1..7): 5,5,4,5,4,7,6 -> 5: 3 votes, 4: 1 + the mayor's 2 = 3, tie -> 4 is
    # nearer clockwise to 0: footprint 4, fur 5.
    # Sentence: 5,5,4,4,5,5,4 -> 4: 2 + 1 + 1 = 4, 5: 4; tie -> 4 hanged. Counted once, the
    # mayor's ballot would have hanged 5 (3 to 4): the double vote decided.
    t = Table((V, V, W, V, V, W, S, V), dead=(0,), mayor=1)
    t.script(D.mayor_vote, 3, 3, 4, 3, 3, 3, 3)
    t.script(D.suspect_vote, 5, 5, 4, 5, 4, 7, 6)
    t.script(D.sentence_vote, 5, 5, 4, 4, 5, 5, 4)
    assert t.daytime(1, 0) == -1
    assert t.mayor == 3 and t.ev("mayor_elected") == 1
    assert [a.seat for a in t.asked(D.mayor_vote)] == [1, 2, 3, 4, 5, 6, 7]  # after the deaths
    assert 3 not in t.asked(D.mayor_vote, seat=3)[0].seats()
    ballot = t.asked(D.sentence_vote)[0]
    assert (ballot.obs[OBS.suspect_a], ballot.obs[OBS.suspect_b]) == (4, 5)
    assert ballot.obs[OBS.votes + 4] == 3 and ballot.obs[OBS.votes + 5] == 3
    assert t.st.sentence[4] == 4 and t.st.sentence[5] == 4
    assert t.dead() == [0, 4] and t.ev("mayor_double_votes") == 1
    # The election happens once: day 2 asks nothing of it.
    t.daytime(2, 1)
    assert len(t.asked(D.mayor_vote)) == 7


def test_mayor_election_tie_goes_nearer_clockwise_to_the_reference():
    # Votes 4,5,4,5,6,7,6 -> 4, 5 and 6 two each: 4 is nearest clockwise to the reference 0.
    t = Table((V, V, W, V, V, W, S, V), dead=(0,), mayor=1)
    t.script(D.mayor_vote, 4, 5, 4, 5, 6, 7, 6)
    t.daytime(1, 0)  # (the default votes then hang seat 1, not the mayor)
    assert t.ev("mayor_elected") == 1 and t.mayor == 4 and t.st.obs[OBS.hanged] == 1


def test_hanged_mayor_names_a_successor():
    # The mayor is seat 1, hanged by the default votes; dead, he names 6, who may not refuse
    # (no pass in the mask).
    t = Table((V, V, W, V, V, W, S, V), dead=(0,))
    t.st.obs[OBS.mayor] = 1
    t.script(D.successor, 6)
    t.daytime(1, 0)
    [heir] = t.asked(D.successor)
    assert heir.seat == 1 and 16 not in heir.legal and 1 not in heir.legal
    assert t.mayor == 6 and t.ev("mayor_successions") == 1


def test_mayor_killed_at_night_names_a_successor():
    t = Table((V, V, W, V, V, W, S, V))
    t.st.obs[OBS.mayor] = 3
    t.script(D.wolf_kill, 3).script(D.successor, 4)
    t.night(2)
    assert t.mayor == 4 and t.asked(D.successor)[0].seat == 3


# === config consistency: one clear line, exit 2 =================================================

@pytest.mark.parametrize("players, settings, fragments", [
    (14, ["roles.mason=1"], ["roles.mason", "always two"]),
    (14, ["roles.owl-man=2"], ["roles.owl-man", "from 0 to 1"]),
    (20, ["roles.owl-man=1", "roles.death-god=1", "rules.ignore_availability=true"],
     ["roles.death-god", "owl man", "not both"]),
    (8, ["rules.ignore_availability=true", "roles.medium=1", "roles.madman=1",
         "roles.bodyguard=1", "roles.mason=2", "roles.hamster=1"],
     ["roles", "9 special roles do not fit 8 players"]),
    (9, ["roles.witch=1"], ["roles.witch", "available from 17", "rules.ignore_availability"]),
    (21, ["roles.owl-man=1"], ["roles.owl-man", "not used above 19"]),
    (9, ["roles.medium=1", "rules.reveal_dead=true"], ["rules.reveal_dead", "medium"]),
])
def test_inconsistent_setups_are_refused_in_one_line(players, settings, fragments):
    args = ["run", "werewolf", "--players", players]
    for setting in settings:
        args += ["--set", setting]
    one_line_error(run_cli(*args), *fragments)


def test_dead_cards_may_be_shown_without_a_medium(tmp_path):
    # The text forbids it only with a medium; without one the knob is the designer's.
    result = run_cli("run", "werewolf", "--players", 9, "--set", "rules.reveal_dead=true",
                     "-n", 50, "--workers", 1, "-o", tmp_path / "r.json")
    assert result.exit_code == 0, result.output


def test_ignore_availability_deals_a_role_below_its_head_count(tmp_path):
    result = run_cli("run", "werewolf", "--players", 9, "--set", "roles.witch=1", "--set",
                     "rules.ignore_availability=true", "-n", 50, "--workers", 1, "-o",
                     tmp_path / "r.json")
    assert result.exit_code == 0, result.output


# === each role alone in a base setup ============================================================
# Every expansion role (and the mayor) added alone to the base setup, `random` play, at the head
# count from which the role is available and at 8 role players (rules.ignore_availability): the
# run completes, every game ends by one of the victory rules (each counted, the lovers' and the
# piper's wins with no winning camp), and the role's power was used (its event counters > 0).
POWER = {
    "medium": ("medium_readings",), "bodyguard": ("protections", "protected_saves"),
    "owl-man": ("owl_suspects",), "hamster": ("hamster_attacked", "hamster_checked"),
    "witness": ("peeks", "witness_caught"), "paranoid": ("paranoid_wolf", "paranoid_human"),
    "witch": ("witch_saves", "witch_poisons"), "hunter": ("hunter_shots",),
    "cupid": ("lovers_linked", "lovers_across", "lover_grief"),
    "death-god": ("death_marks", "death_god_kills"), "piper": ("charms",),
    "mayor": ("mayor_elected", "mayor_successions", "mayor_double_votes"),
    "madman": (), "mason": (),  # no power to use: checked by their wins below
}
ALONE = [(role, AVAILABLE_FROM.get(role, 8)) for role in POWER] + [(role, 8) for role in POWER
                                                                    if role != "mayor"]


@pytest.mark.parametrize("role, players", ALONE)
def test_each_role_alone_completes_and_uses_its_power(role, players):
    games = 5000
    if role == "mayor":
        settings = ["rules.mayor=true"]
    else:
        settings = [f"roles.{role}={2 if role == 'mason' else 1}",
                    "rules.ignore_availability=true"]
    cfg = config.load("werewolf/base-random.toml", settings, players=players)
    t = runner.run(cfg, games, seed=players, workers=1).tallies
    ends = t["end_counts"]
    assert t["games"][0] == games == ends.sum()
    human, wolf = t["team_wins"]
    assert human == ends[END.wolves_dead] and wolf == ends[END.humans_gone] + ends[END.parity]
    assert human + wolf + ends[END.lovers] + ends[END.piper] == games
    assert t["draws"][0] == ends[END.lovers] + ends[END.piper]
    assert ends[END.wolves_dead] > 0 and ends[END.parity] > 0
    # The special wins happen only with their role, and do happen with it.
    assert (ends[END.lovers] > 0) == (role == "cupid")
    assert (ends[END.piper] > 0) == (role == "piper")
    for name in POWER[role]:
        assert t["events"][getattr(EV, name)] > 0, name
    if role == "cupid":
        assert t["events"][EV.lovers_linked] == games
    if role == "mayor":
        assert t["events"][EV.mayor_elected] == games
    if role == "madman":  # he wins exactly when the wolves do
        assert t["role_wins"][R.madman] == wolf and t["role_games"][R.madman] == games
    if role == "mason":  # two masons every game, winning with the humans
        assert t["role_games"][R.mason] == 2 * games and t["role_wins"][R.mason] == 2 * human


def test_witch_is_shown_the_wolves_victim_every_night():
    # "Every night is shown the wolves' victim": also when her revival is spent, at her poison
    # decision. Night 1 she revives 0 (shown 0 at both decisions); night 2, the pack attacks 3:
    # no revival to offer, but her poison decision still shows 3.
    t = Table((V, V, W, V, V, W, S, WITCH))
    t.script(D.wolf_kill, 0, 3).script(D.witch_save, YES)
    t.night(1)
    t.night(2)
    first, second = t.asked(D.witch_poison)
    assert first.obs[OBS.victim] == 0 and second.obs[OBS.victim] == 3
    assert len(t.asked(D.witch_save)) == 1


def test_lovers_never_kill_each_other_with_poison_or_the_death_mark():
    # The witch (7) loves 3, the death god (4) loves 0: her poison's mask lacks 3 (and herself),
    # his mark's mask lacks 0 (and himself).
    t = Table((V, V, W, V, DG, W, S, WITCH))
    link(t.st, -1, 3, 7)
    t.st.lover[0], t.st.lover[4] = 4, 0  # a second pair, for the test only
    t.script(D.wolf_kill, 1)
    t.night(1)
    assert t.asked(D.witch_poison)[0].seats() == {0, 1, 2, 4, 5, 6}
    assert t.asked(D.death_mark)[0].seats() == {1, 2, 3, 5, 6, 7}


def test_the_reference_seat_is_the_attacked_one_when_nobody_dies():
    # The witch revives the pack's victim 4: nobody dies, and day 1's voting starts right of 4.
    t = Table((V, V, W, V, V, W, S, WITCH))
    t.script(D.wolf_kill, 4).script(D.witch_save, YES)
    assert t.night(1) == (4, -1) and t.dead() == []
    t.daytime(1, 4)
    assert [a.seat for a in t.asked(D.suspect_vote)] == [5, 6, 7, 0, 1, 2, 3, 4]


def test_victory_is_checked_after_the_death_gods_kill():
    # After seat 1 is hanged: wolves 2 and 5 against 3, 4, 6, 7. The marks on 3 and 4 kill them:
    # 2 against 2, rule 3 ends the game on the death god's kill.
    t = Table((V, V, W, V, V, W, S, DG), dead=(0,))
    t.st.marked[3] = t.st.marked[4] = 1
    assert t.daytime(1, 0) == END.parity
    assert t.dead() == [0, 1, 3, 4]


def test_paranoid_dead_before_night_2_never_chooses_and_wins_with_nobody():
    t = Table((V, V, W, PARA, V, W, S, V))
    t.script(D.wolf_kill, 3, 0)
    t.night(1)
    t.night(2)
    assert t.asked(D.paranoid_pick) == [] and t.st.role[3] == PARA
    for end in (END.wolves_dead, END.parity):
        mark_winners(t.st, 8, end)
        assert t.st.won[3] == 0


def test_dead_cards_shown_only_under_the_knob():
    # rules.reveal_dead (default off): a dead player's card is shown publicly.
    t = Table((V, V, W, V, V, W, S, V))
    t.kill(2, CAUSE.hanged)
    assert list(t.revealed) == [-1] * 8
    t.st.reveal_dead = 1
    t.kill(5, CAUSE.wolves)
    assert t.revealed[5] == W and t.revealed[2] == -1


def test_madman_and_wolves_do_not_know_each_other():
    t = Table((V, W, MAD, V, V, W, S, V))
    k = t.st.known
    assert k[2, 1] == UNKNOWN and k[2, 5] == UNKNOWN and k[1, 2] == UNKNOWN and k[5, 2] == UNKNOWN
    assert k[2, 2] == MAD and k[1, 5] == W


def test_mayor_election_is_open_later_voters_see_earlier_ballots():
    # Voters 1..7 in order; 1 names 3. Seat 2, voting second, should be able to see that ballot.
    t = Table((V, V, W, V, V, W, S, V), dead=(0,), mayor=1)
    t.script(D.mayor_vote, 3, 3, 4, 3, 3, 3, 3)  # seat 3, voting third, names 4
    t.daytime(1, 0)
    first, second = t.asked(D.mayor_vote)[:2]
    assert (first.seat, second.seat) == (1, 2)
    public = np.r_[OBS.votes:OBS.votes + 8, OBS.voted:OBS.voted + 8]
    assert not np.array_equal(first.obs[public], second.obs[public])


def test_hunter_attacked_and_poisoned_the_same_night_dies_of_the_wolves_and_shoots():
    # The wolves' attack is recorded first; the poison does not replace the cause.
    t = Table((V, HUNTER, W, V, V, W, S, WITCH))
    t.script(D.wolf_kill, 1).script(D.witch_poison, 1).script(D.shoot, 5)
    t.night(1)
    assert t.st.cause[1] == CAUSE.wolves and t.dead() == [1, 5]
    assert t.ev("witch_poisons") == 1 and t.ev("hunter_shots") == 1


def test_no_werewolf_alive_no_attack_and_the_reference_stays():
    # The madman alone keeps the wolf camp alive: nobody is attacked, the reference seat stays 5.
    t = Table((V, W, MAD, V, V, V, S, V), dead=(1,))
    assert t.night(2, 5) == (5, -1)
    assert t.asked(D.wolf_kill) == [] and t.dead() == [1]


# === whole games replayed against the rules =====================================================
# The trace of real games with every role, replayed row by row against the rules written again
# here: each power's legality, each death's cause, and the victory rules (an independent
# implementation, rules 5, 4, 1, 2, 3) at every moment the game checks them: at daybreak (the
# next row is the day, else the game ended), after the hanging (before the death god's kill),
# after the death god's kill (the next night), and at the end (the winner row's end condition).


def _camp(role, madman_literal):
    if role == PARA:
        return None
    if role == MAD and madman_literal:
        return HUMAN
    return ROLE_TEAM[role]


def _end_now(role, alive, lover, charmed, madman_literal):
    living = [s for s in range(len(role)) if alive[s]]
    for p in living:
        if role[p] == PIPER and all(charmed[j] for j in living if j != p):
            return END.piper
    camps = {s: _camp(role[s], madman_literal) for s in living}
    if len(living) == 2:
        a, b = living
        if lover[a] == b and {camps[a], camps[b]} == {HUMAN, WOLF}:
            return END.lovers
    wolves = sum(1 for s in living if camps[s] == WOLF)
    humans = sum(1 for s in living if camps[s] == HUMAN)
    if wolves == 0:
        return END.wolves_dead
    if humans <= 1:
        return END.humans_gone
    if wolves >= humans:
        return END.parity
    return -1


def _replay_full(rows, n, madman_literal):
    """Check whole games' trace rows against the rules; returns (games, end conditions seen)."""
    games, ends = 0, []
    i = 0
    while i < len(rows):
        role, alive, lover, charmed = [0] * n, [1] * n, [-1] * n, [0] * n
        cause = [-1] * n
        saves, poisons, last_protected = {}, {}, {}
        mayor, day, hanged_seen, dg_checked = -1, 0, False, False
        first_row = i

        def end_now():
            return _end_now(role, alive, lover, charmed, madman_literal)

        while True:
            step, code, actor, target, value, extra = rows[i]
            i += 1
            if code == TR.deal:
                role[actor] = value
            elif code == TR.night:
                day = value
                assert day == 1 or end_now() == -1
                hanged_seen = dg_checked = False
                attacked = {}  # seat -> its role when the wolves attacked it tonight
            elif code == TR.link:
                assert day == 1 and actor != target and role[value] == CUPID
                lover[actor], lover[target] = target, actor
            elif code == TR.medium:
                assert day >= 2 and role[actor] == MED and alive[actor]
                assert value == (role[target] == W)
            elif code == TR.seer_check:
                assert role[actor] == S and alive[actor] and alive[target] and target != actor
                assert value == (WOLF if role[target] == W else HUMAN)
            elif code == TR.protect:
                assert day >= 2 and role[actor] == BG and alive[actor] and alive[target]
                if value == 0:
                    assert role[target] == WITNESS
                else:
                    others = [s for s in range(n) if alive[s] and s != last_protected.get(actor)]
                    assert target != last_protected.get(actor) or not others
                    last_protected[actor] = target
            elif code == TR.wolf_kill:
                assert actor == min(s for s in range(n) if alive[s] and role[s] == W)
                assert alive[target]
                attacked[target] = role[target]
                wolf_lovers = {lover[s] for s in range(n)
                               if alive[s] and role[s] == W and lover[s] >= 0}
                if any(alive[s] and s not in wolf_lovers for s in range(n)):
                    assert target not in wolf_lovers
            elif code == TR.peek:
                assert role[actor] == WITNESS and alive[actor]
                if value:  # noticed: the witness is the victim instead
                    attacked = {actor: role[actor]}
            elif code == TR.witch_save:
                assert role[actor] == WITCH and alive[actor] and actor not in saves
                saves[actor] = target
            elif code == TR.witch_poison:
                assert role[actor] == WITCH and alive[actor] and actor not in poisons
                assert alive[target] and target != actor and target != lover[actor]
                poisons[actor] = target
            elif code == TR.owl:
                assert role[actor] == OWL and alive[actor] and alive[target] and target != actor
            elif code == TR.mark:
                assert role[actor] == DG and alive[actor] and alive[target]
                assert target != actor and target != lover[actor]
            elif code == TR.paranoid:
                assert day == 2 and role[actor] == PARA and alive[actor] and target != actor
                assert extra == role[target]
                expected = S if role[target] == S else (
                    WOLF_SIDE if ROLE_TEAM[role[target]] == WOLF else HUMAN_SIDE)
                assert value == expected
                role[actor] = extra
            elif code == TR.charm:
                assert role[actor] == PIPER and alive[actor] and alive[target]
                assert target != actor and not charmed[target]
                charmed[target] = 1
            elif code == TR.death:
                assert alive[actor] and value == role[actor]
                if extra == CAUSE.wolves:  # (a paranoid may become the hamster after the attack)
                    assert actor in attacked and attacked[actor] != HAMSTER
                elif extra == CAUSE.seer:
                    assert role[actor] == HAMSTER
                elif extra == CAUSE.grief:
                    assert lover[actor] >= 0 and not alive[lover[actor]]
                elif extra == CAUSE.death_god:
                    assert role[actor] not in (W, HAMSTER) and hanged_seen
                    if not dg_checked:  # the game went on after the hanging
                        assert end_now() == -1
                        dg_checked = True
                elif extra == CAUSE.poison:
                    assert actor in poisons.values()
                alive[actor] = 0
                cause[actor] = extra
            elif code == TR.shoot:
                assert role[actor] == HUNTER and not alive[actor]
                assert cause[actor] != CAUSE.poison
                assert alive[target] and target != lover[actor]
            elif code == TR.day:
                assert value == day and end_now() == -1  # daybreak did not end the game
            elif code == TR.mayor:
                if value == 0:
                    assert day == 1 and mayor == -1 and alive[actor]
                else:
                    assert target == mayor and not alive[target] and alive[actor]
                mayor = actor
            elif code == TR.hanged:
                hanged_seen = True
            elif code == TR.winner:
                assert extra == end_now(), (rows[first_row:i], extra, end_now())
                assert value == {END.wolves_dead: HUMAN, END.humans_gone: WOLF,
                                 END.parity: WOLF}.get(extra, -1)
                ends.append(extra)
                break
        games += 1
    return games, ends


@pytest.mark.parametrize("setup, overrides", [
    ("werewolf/mayor-23.toml", ["strategies.all=random"]),
    ("werewolf/mayor-23.toml", ["strategies.all=seer-led"]),
    ("werewolf/standard-23.toml", ["rules.madman_literal=true", "rules.witness_caught=0.6"]),
    ("werewolf/standard-16.toml", []),
    ("werewolf/rich-16.toml", ["rules.mayor=true"]),
    ("werewolf/standard-12.toml", ["players=13", "roles.mason=2"]),
    ("werewolf/base.toml", ["players=10", "rules.ignore_availability=true", "roles.cupid=1",
                            "roles.piper=1", "roles.hunter=1", "roles.witch=1"]),
])
def test_whole_games_replay_against_the_rules(setup, overrides):
    cfg = config.load(setup, overrides)
    n = cfg.params.players
    games = 1000
    tallies, rows = driver.play(cfg.game, cfg.params, cfg.lineup, games,
                                np.random.default_rng(n), trace_rows=3000 * games, trace_game=-1)
    assert len(rows) < 3000 * games
    seen, ends = _replay_full(rows.tolist(), n, cfg.params.madman_literal)
    assert seen == games == tallies["games"][0]
    assert np.array_equal(np.bincount(ends, minlength=5), tallies["end_counts"])


def test_role_tallies_count_the_paranoid_as_dealt():
    # 16 players with the paranoid, 2,000 games: a paranoid is dealt every game, one seer every
    # game; the per-role tallies (role_games, the reports' role win rates) should say so.
    cfg = config.load("werewolf/base-random.toml", ["roles.paranoid=1"], players=16)
    t = runner.run(cfg, 2000, seed=1, workers=1).tallies
    assert t["role_games"][PARA] == 2000 and t["role_games"][S] == 2000


def test_madman_literal_only_moves_games_to_the_humans():
    # The knob changes nothing but the victory rules' counting (the madman a human, his death not
    # required), and `random` play never looks at camps. So one game played from the same seed with
    # and without the knob is the same game up to the first victory check the two readings answer
    # differently. Without the knob the humans win when the whole wolf camp is dead, i.e. the
    # werewolves are dead (which ends the game with the knob too, if not earlier), and before it
    # the wolf camp was outnumbered (W + M < H, so W < H + M: no wolf win with the knob either).
    # Hence, game by game: a human win without the knob is a human win with it, and a wolf win
    # with the knob is a wolf win without it. The madman wins exactly the wolves' games, both ways.
    plain = config.load("werewolf/base-random.toml", ["roles.madman=1"], players=10)
    literal = config.load("werewolf/base-random.toml", ["roles.madman=1", "rules.madman_literal=true"], players=10)
    moved = 0
    for seed in range(1000):
        a, _ = driver.play(plain.game, plain.params, plain.lineup, 1, np.random.default_rng(seed))
        b, _ = driver.play(literal.game, literal.params, literal.lineup, 1,
                           np.random.default_rng(seed))
        for t in (a, b):
            assert t["role_wins"][MAD] == t["team_wins"][WOLF]
        assert a["team_wins"][HUMAN] <= b["team_wins"][HUMAN]
        moved += int(b["team_wins"][HUMAN] - a["team_wins"][HUMAN])
    assert moved > 0  # and the knob does move some games
