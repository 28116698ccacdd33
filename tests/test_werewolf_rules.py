"""The rules of The Werewolves in Village, one function at a time, on hand-built positions.

Every test builds a position by hand (the kernel's own state record, `driver.new_state`, then
roles / deaths / votes set directly), calls the compiled rule function of rules.py or
observation.py and checks the result against an expectation derived by hand in the comment above
it. Seats are numbered clockwise; "the player to the right of X" is X + 1 (mod n).
docs/rules/werewolf.md maps every rule to these tests.

Role codes: 0 villager, 1 werewolf, 2 seer (the other roles' rules: tests/test_werewolf_roles.py).
Team codes: 0 human, 1 wolf. What a seat knows of another (`known`) is a role code or NOT_WOLF.
"""

from __future__ import annotations

import itertools
import math
from functools import lru_cache

import numpy as np
import pytest
from numba import njit

from simulator.setup import config
from simulator.setup.config import ConfigError
from simulator.games import driver
from simulator.games.base import OBS_KIND, OBS_ME, OBS_PLAYERS, OBS_ROLE
from simulator.games.engine import ask
from simulator.games.werewolf import GAME
from simulator.games.werewolf.declaration import (
    CAUSE, DECISION, END, HUMAN, MAX_PLAYERS, NOT_WOLF, OBS, OBSERVATION, ROLE, TIE, TIE_RULES,
    UNKNOWN, WOLF,
)
from simulator.games.werewolf.observation import legal_claim, legal_living, legal_pair, observe
from simulator.games.werewolf.params import DEFAULT_THRESHOLDS
from simulator.games.werewolf.rules import (
    beats, camp_winner, choose_suspects, clockwise_distance, draw_tie_order, kill, living_counts,
    pack_leader,
    publish_claim, reset_for_deal, seer_learns, sentence_result, shuffle_into, suspect_vote_order,
    victory, wolves_for_players,
)
from simulator.games.werewolf.state import alive, claimed, named_wolf, votes

V, W, S = ROLE.villager, ROLE.werewolf, ROLE.seer
CLAIM, SEER_CHECK, SENTENCE_VOTE, SUSPECT_VOTE, WOLF_KILL = (
    DECISION.claim, DECISION.seer_check, DECISION.sentence_vote, DECISION.suspect_vote,
    DECISION.wolf_kill)


@lru_cache(maxsize=None)
def _run_setup(n):
    """The params and a lineup (everyone `random`) of an n-player run, to build a state from."""
    return config.load("werewolf", players=n).params, driver.Lineup.uniform(GAME, n, "random")


class Position:
    """A hand-built game state: the kernel's own state record, as `driver.new_state` builds it for
    a run of n players (setup, strategies, the observation's constants), with the roles, deaths
    and open votes set by hand. The public record lives in the observation (`state.alive(st)` and
    its siblings are views of its pieces, for compiled code); from Python the same pieces are
    reached here as `pos.alive`, `pos.named_wolf`, `pos.claimed`, `pos.votes`."""

    def __init__(self, roles, dead=(), votes=None, deal=True):
        self.n = len(roles)
        params, lineup = _run_setup(self.n)
        self.st = driver.new_state(GAME, params, lineup)
        self.st.role[:self.n] = roles
        if deal:
            reset_for_deal(self.st, self.n)
        for seat in dead:
            self.alive[seat] = 0
        if votes is not None:
            self.votes[:] = votes

    def piece(self, offset):
        """The observation piece at `offset`, for the seats at the table (a writable view)."""
        return self.st.obs[offset:offset + self.n]

    alive = property(lambda self: self.piece(OBS.alive))
    named_wolf = property(lambda self: self.piece(OBS.named_wolf))
    claimed = property(lambda self: self.piece(OBS.claimed))
    votes = property(lambda self: self.piece(OBS.votes))

    def legal(self):
        """The legal mask a strategy is handed: the first n_actions entries, as booleans."""
        return self.st.legal[:self.st.n_actions].view(np.bool_)

    def apply(self, rule, *args):
        """rule(st, n, *args) on this position."""
        return rule(self.st, self.n, *args)


@njit(cache=True)
def _ask(st, seat, kind, context, rng):
    """The engine's decision, as the kernel makes it: `observe` fills the seat's observation, the
    engine adds the standard pieces, the seat's strategy is called."""
    return ask(st, seat, kind, rng, observe, context)


def observation(pos, me, kind, day, victim, suspect_a, suspect_b):
    """The observation seat `me` is handed for a decision of `kind` (the legal mask built as the
    kernel builds it), as a copy: the engine hands the strategy the state's own buffer, so after
    the decision `st.obs` is exactly what the strategy saw."""
    st, n = pos.st, pos.n
    if kind == WOLF_KILL:
        legal_living(st, n, -1)
    elif kind == CLAIM:
        legal_claim(st, n, me)
    elif kind == SENTENCE_VOTE:
        legal_pair(st, suspect_a, suspect_b)
    else:
        legal_living(st, n, me)
    st.asking_kind = -1
    action = _ask(st, me, kind, (day, victim, suspect_a, suspect_b), np.random.default_rng(0))
    assert st.asking_kind == kind, "the strategy was asked (the decision was not forced)"
    assert pos.legal()[action]
    return st.obs.copy()


# The standard 8-player table used below: wolves at seats 2 and 5, the seer at seat 6.
#            seat: 0  1  2  3  4  5  6  7
BASE_8 = (V, V, W, V, V, W, S, V)


# === setup ======================================================================================

def test_wolves_for_players_thresholds():
    # The text: 2 wolves for 8 role players and up, 3 from 16, 4 from 20 (role players, not people).
    expected = {p: 2 for p in range(8, 16)} | {p: 3 for p in range(16, 20)} | {p: 4 for p in range(20, 24)}
    # The default table is config data ({head count: wolves}); the rule reads its rows as pairs.
    rows = tuple(DEFAULT_THRESHOLDS.items())
    for players, wolves in expected.items():
        assert wolves_for_players(players, rows) == wolves, players
    # Below the first threshold no row applies: 0.
    assert wolves_for_players(7, rows) == 0


def test_wolves_for_players_custom_and_unsorted_thresholds():
    # The last row (by head count) that applies wins, whatever order the rows come in:
    # rows (12 -> 3), (8 -> 1): 8..11 players -> 1 wolf, 12 and up -> 3.
    rows = ((12, 3), (8, 1))
    assert [wolves_for_players(p, rows) for p in (8, 11, 12, 23)] == [1, 1, 3, 3]


@pytest.mark.parametrize("players", range(8, 24))
def test_config_deals_the_threshold_wolves(players):
    # The built-in base config: werewolf = "auto", seer = 1, villagers fill the rest.
    # E.g. 16 players: 3 wolves, 1 seer, 12 villagers.
    cfg = config.load("werewolf", players=players)
    wolves = 2 if players < 16 else 3 if players < 20 else 4
    assert cfg.params.role_counts == (players - wolves - 1, wolves, 1) + (0,) * 13
    # The setup writes the deck dealt each game (and the public wolf count) into the state.
    st = driver.blank_state(cfg.game, players)
    driver.setup_state(cfg.game, cfg.params, st)
    deck = st.deck[:players]
    assert sorted(deck.tolist()) == [V] * (players - wolves - 1) + [W] * wolves + [S]
    assert st.wolves == wolves and st.obs[OBS.wolves] == wolves


def test_config_knobs_for_roles_and_rules():
    # roles.werewolf as a number replaces the thresholds; seer = 0 removes the seer.
    cfg = config.load("werewolf", ["roles.werewolf=3", "roles.seer=0"], players=12)
    assert cfg.params.role_counts[:3] == (9, 3, 0) and sum(cfg.params.role_counts[3:]) == 0
    # A custom [wolves_by_players] table: 9 players with (9 -> 3) gives 3 wolves.
    cfg = config.load("werewolf", ["wolves_by_players={8 = 2, 9 = 3}"], players=9)
    assert cfg.params.role_counts[:3] == (5, 3, 1)
    # rules.madman_literal is read (and has no effect without a madman).
    assert config.load("werewolf", ["rules.madman_literal=true"]).params.madman_literal is True
    assert config.load("werewolf").params.madman_literal is False
    # Mistakes: wolves must be outnumbered by humans (8 players: at most 3 wolves); a villager
    # count cannot be set; unknown rules; a non-boolean knob.
    for overrides in (["roles.werewolf=4"], ["roles.villager=3"], ["rules.mayor=1"],
                      ["rules.madman_literal=1"], ["roles.werewolf=0"], ["roles.seer=8"],
                      ["roles.medium=1"]):  # the medium is available from 9 role players
        with pytest.raises(ConfigError):
            config.load("werewolf", overrides, players=8)
    # 8..23 role players (the text's 9..24 people, less the moderator the simulator replaces).
    for players in (7, 24):
        with pytest.raises(ConfigError):
            config.load("werewolf", players=players)


def test_config_thresholds_that_deal_no_wolf_are_rejected():
    # Thresholds starting at 10 players leave an 8-player table without a row: 0 wolves. Such a
    # setup is not a game (it is won by the humans before night 1), so it must be a config error,
    # as roles.werewolf = 0 is.
    with pytest.raises(ConfigError):
        config.load("werewolf", ["wolves_by_players={10 = 2}"], players=8)


def test_shuffle_into_is_a_permutation_of_the_deck():
    # The deal copies the deck and shuffles it: the multiset of roles is unchanged, the source
    # untouched, every seat receives exactly one card.
    rng = np.random.default_rng(7)
    deck = np.array([V, V, V, V, V, W, W, S], np.int64)
    target = np.full(8, -9, np.int64)
    seen = set()
    for _ in range(500):
        shuffle_into(target, deck, 8, rng)
        assert sorted(target.tolist()) == sorted(deck.tolist())
        seen.add(tuple(target.tolist()))
    assert deck.tolist() == [V, V, V, V, V, W, W, S]
    # 8! / (5! 2! 1!) = 168 distinct deals; 500 draws from a uniform deal miss a given one with
    # probability (167/168)^500 ~ 5%, so we see most of them (expected ~159), and never fewer than 100.
    assert 100 <= len(seen) <= 168


def _chi_square(counts, expected):
    return sum((c - expected) ** 2 / expected for c in counts)


def test_shuffle_into_is_uniform():
    # Shuffle the 4 distinct cards (0, 1, 2, 3) N = 24000 times: each of the 4! = 24 orders must
    # appear with probability 1/24, expected 1000 times. Under uniformity Pearson's statistic
    # X^2 = sum (count - 1000)^2 / 1000 is chi-square with 23 degrees of freedom (mean 23,
    # sd sqrt(46) ~ 6.8). Bound: the 1 - 1e-6 quantile of chi2(23), 70.55 (scipy.stats.chi2.ppf);
    # a correct shuffle exceeds it for fewer than one seed in a million, so on this fixed seed it
    # is a deterministic check with a chance-failure level of 1e-6.
    bound = 70.55
    n_draws = 24000
    rng = np.random.default_rng(20240611)
    source = np.arange(4, dtype=np.int64)
    target = np.empty(4, np.int64)
    index = {p: i for i, p in enumerate(itertools.permutations(range(4)))}
    counts = [0] * 24
    for _ in range(n_draws):
        shuffle_into(target, source, 4, rng)
        counts[index[tuple(target.tolist())]] += 1
    assert _chi_square(counts, n_draws / 24) < bound

    # The bound has power: the classic wrong shuffle (swap i with a uniform j among ALL 4 seats)
    # has 4^4 = 256 equally likely paths onto 24 orders, so some orders get 11/256 and some 8/256
    # instead of 10.67/256: its statistic on the same number of draws is far above the bound.
    rng_py = np.random.default_rng(20240611)
    bad = [0] * 24
    for _ in range(n_draws):
        cards = [0, 1, 2, 3]
        for i in range(3, -1, -1):
            j = int(rng_py.random() * 4)
            cards[i], cards[j] = cards[j], cards[i]
        bad[index[tuple(cards)]] += 1
    assert _chi_square(bad, n_draws / 24) > 3 * bound


def test_shuffle_into_gives_every_seat_the_seer_equally_often():
    # With the real 8-card deck (5 villagers, 2 wolves, 1 seer) the seer's seat is uniform over
    # 0..7: 16000 deals, 2000 expected per seat, X^2 ~ chi2(7); bound = its 1 - 1e-6 quantile 40.52.
    # And each seat is a wolf with probability 2/8: 4000 expected, each within 4.5 sd
    # (sd = sqrt(16000 * 1/4 * 3/4) ~ 54.8).
    rng = np.random.default_rng(3)
    deck = np.array(BASE_8, np.int64)
    target = np.empty(8, np.int64)
    seer_at = [0] * 8
    wolf_at = np.zeros(8)
    for _ in range(16000):
        shuffle_into(target, deck, 8, rng)
        seer_at[int(np.flatnonzero(target == S)[0])] += 1
        wolf_at += target == W
    assert _chi_square(seer_at, 2000) < 40.52
    assert np.all(np.abs(wolf_at - 4000) < 4.5 * math.sqrt(16000 * 0.25 * 0.75))


def test_reset_for_deal_knowledge():
    # Start from a dirty state (as after a previous game): deaths, claims, votes, stale knowledge.
    pos = Position(BASE_8, deal=False)
    st, n = pos.st, pos.n
    pos.alive[:] = 0
    pos.named_wolf[:] = 1
    pos.claimed[:] = ROLE.seer
    pos.votes[:] = 3
    st.sentence[:] = 2
    st.known[:, :] = ROLE.werewolf
    reset_for_deal(st, n)
    assert pos.alive.tolist() == [1] * 8
    assert pos.named_wolf.tolist() == pos.votes.tolist() == [0] * 8
    assert pos.claimed.tolist() == [-1] * 8
    assert st.sentence[:n].tolist() == [0] * 8
    # Expected knowledge, seat by seat (row = who knows, column = about whom):
    #   villagers 0, 1, 3, 4, 7 and the seer 6: only their own seat, as their own role;
    #   wolves 2 and 5: themselves and each other as werewolves (1), nobody else.
    expected = np.full((8, MAX_PLAYERS), UNKNOWN)
    for seat in (0, 1, 3, 4, 6, 7):
        expected[seat, seat] = BASE_8[seat]
    for wolf in (2, 5):
        expected[wolf, 2] = expected[wolf, 5] = W
    # Only the columns of seats at the table are reset: the rest of a row is never read.
    assert np.array_equal(st.known[:n, :n], expected[:, :n])


# === counting and victory =======================================================================

def test_living_counts():
    # BASE_8 has 6 humans (5 villagers + the seer) and 2 wolves. Kill villager 0, the seer 6 and
    # wolf 5: 4 humans (1, 3, 4, 7) and 1 wolf (2) remain; the seer counts as a human.
    assert Position(BASE_8).apply(living_counts) == (6, 2)
    assert Position(BASE_8, dead=(0, 6, 5)).apply(living_counts) == (4, 1)


def test_victory_all_wolves_dead():
    # Both wolves (2, 5) dead, 6 humans alive -> rule 1: the humans win.
    pos = Position(BASE_8, dead=(2, 5))
    st = pos.st
    assert victory(st, 8) == END.wolves_dead
    assert camp_winner(END.wolves_dead) == HUMAN


def test_victory_humans_down_to_one():
    # Rule 2: every human but one dead. Alive: villager 7 and both wolves (1 human, 2 wolves).
    pos = Position(BASE_8, dead=(0, 1, 3, 4, 6))
    st = pos.st
    assert victory(st, 8) == END.humans_gone
    # Every human dead, wolves 2 and 5 alive (0 humans): also rule 2.
    pos = Position(BASE_8, dead=(0, 1, 3, 4, 6, 7))
    st = pos.st
    assert victory(st, 8) == END.humans_gone
    assert camp_winner(END.humans_gone) == WOLF


def test_victory_parity():
    # Rule 3: wolves alive equal humans alive. Alive: villagers 0, 1 and wolves 2, 5 (2 vs 2).
    pos = Position(BASE_8, dead=(3, 4, 6, 7))
    st = pos.st
    assert victory(st, 8) == END.parity
    # 3 wolves against 3 humans (a 3-wolf table of 9 with 3 humans dead): parity too.
    nine = (W, V, W, V, S, W, V, V, V)
    assert Position(nine, dead=(6, 7, 8)).apply(victory) == END.parity
    assert camp_winner(END.parity) == WOLF


def test_victory_game_goes_on():
    # 3 humans (0, 1, 3) against 2 wolves: no rule applies -> -1. So does the fresh deal (6 vs 2),
    # and 2 humans against 1 wolf (humans outnumber wolves and more than one human lives).
    assert Position(BASE_8, dead=(4, 6, 7)).apply(victory) == -1
    assert Position(BASE_8).apply(victory) == -1
    assert Position(BASE_8, dead=(0, 1, 3, 5, 6)).apply(victory) == -1  # 4, 7 vs wolf 2


def test_victory_priority():
    # Rule 1 before rule 2: the last wolf dies when one human is left (human 7 only, no wolves) ->
    # the humans win, although "every human but one is dead" also holds.
    pos = Position(BASE_8, dead=(0, 1, 2, 3, 4, 5, 6))
    st = pos.st
    assert victory(st, 8) == END.wolves_dead
    # Rule 2 before rule 3: 1 human and 1 wolf is also parity; it counts as "humans down to one".
    pos = Position(BASE_8, dead=(0, 1, 3, 4, 5, 6))  # villager 7, wolf 2
    st = pos.st
    assert victory(st, 8) == END.humans_gone
    # Nobody left at all (not reachable in play): no wolves -> rule 1.
    assert Position(BASE_8, dead=range(8)).apply(victory) == END.wolves_dead


# === night ======================================================================================

def test_pack_leader_is_the_lowest_living_wolf():
    # Wolves at 2 and 5: seat 2 speaks for the pack; once 2 is dead, seat 5; with none, -1.
    assert Position(BASE_8).apply(pack_leader) == 2
    assert Position(BASE_8, dead=(2,)).apply(pack_leader) == 5
    assert Position(BASE_8, dead=(2, 5)).apply(pack_leader) == -1
    # Deaths of non-wolves change nothing: villagers 0, 1 dead -> still 2.
    assert Position(BASE_8, dead=(0, 1)).apply(pack_leader) == 2


def test_seer_learns_werewolf_or_not_only():
    # The seer (6) checks wolf 5: learns "werewolf" (the role code 1); checks villager 0: learns
    # NOT_WOLF. Only the seer's own row, only the checked column changes.
    pos = Position(BASE_8)
    st = pos.st
    before = st.known.copy()
    assert seer_learns(st, 6, 5)
    assert not seer_learns(st, 6, 0)
    after = st.known.copy()
    assert after[6, 5] == W and after[6, 0] == NOT_WOLF
    after[6, 5] = before[6, 5]
    after[6, 0] = before[6, 0]
    assert np.array_equal(after, before)
    # "Not a werewolf", not the role: a hand-built table with two seers (seats 0 and 6). Seer 6
    # checking seer 0 learns NOT_WOLF, not the role code SEER = 2.
    pos2 = Position((S, V, W, V, V, W, S, V))
    assert not seer_learns(pos2.st, 6, 0)
    assert pos2.st.known[6, 0] == NOT_WOLF


def test_kill_marks_only_that_seat_dead_and_queues_it():
    pos = Position(BASE_8)
    kill(pos.st, 3, CAUSE.hanged)
    assert pos.alive.tolist() == [1, 1, 1, 0, 1, 1, 1, 1]
    assert pos.st.cause[3] == CAUSE.hanged and pos.st.queue[0] == 3 and pos.st.queued == 1


# === day ========================================================================================

def test_clockwise_distance():
    # Seats clockwise 0..7. From 5 to 1: 6, 7, 0, 1 -> 4 steps; from 1 to 5: 4 steps; from 7 to 0:
    # 1 step (wrap); from 0 to 7: 7 steps; a seat to itself: 0.
    assert clockwise_distance(5, 1, 8) == 4
    assert clockwise_distance(1, 5, 8) == 4
    assert clockwise_distance(7, 0, 8) == 1
    assert clockwise_distance(0, 7, 8) == 7
    assert clockwise_distance(3, 3, 8) == 0
    for origin in range(8):
        assert sorted(clockwise_distance(origin, s, 8) for s in range(8)) == list(range(8))


def test_suspect_vote_order_starts_right_of_the_victim_and_skips_the_dead():
    # Victim 5 (dead) and seat 7 dead: voting starts to the victim's right, 6, then clockwise
    # 0, 1, 2, 3, 4; 7 is skipped; the victim is not a voter. 6 voters.
    pos = Position(BASE_8, dead=(5, 7))
    order = np.full(8, -9, np.int64)
    k = suspect_vote_order(pos.st, 8, 5, order)
    assert k == 6
    assert order[:k].tolist() == [6, 0, 1, 2, 3, 4]
    assert order[k:].tolist() == [-9, -9]  # nothing written past the voters
    # Victim 7 (the last seat): its right is seat 0 (wrap): 0, 1, 2, ..., 6.
    pos = Position(BASE_8, dead=(7,))
    k = suspect_vote_order(pos.st, 8, 7, order)
    assert order[:k].tolist() == [0, 1, 2, 3, 4, 5, 6]


def test_choose_suspects_clear_result():
    # Victim 4 (dead). Votes: seat 2 gets 3, seat 6 gets 2, seat 0 gets 1, seat 1 gets 1 (7 voters).
    # Most votes -> footprint 2; second -> fur 6; no tie decided either place.
    votes = [1, 1, 3, 0, 0, 0, 2, 0]
    pos = Position(BASE_8, dead=(4,), votes=votes)
    st = pos.st
    assert choose_suspects(st, 8, 4) == (2, 6, False)


def test_choose_suspects_tie_for_first():
    # Victim 5. Seats 1 and 7 both have 3 votes. Clockwise from the victim: 7 is 2 seats away, 1 is
    # 4 seats away -> the nearer, 7, gets the footprint; 1 the fur; tied.
    votes = [0, 3, 0, 0, 0, 0, 1, 3]
    pos = Position(BASE_8, dead=(5,), votes=votes)
    st = pos.st
    assert choose_suspects(st, 8, 5) == (7, 1, True)
    # Same votes, victim 0 instead (seat 5 alive again, seat 0 dead): 1 is 1 away, 7 is 7 away ->
    # footprint 1, fur 7.
    votes = [0, 3, 0, 0, 0, 1, 0, 3]
    pos = Position(BASE_8, dead=(0,), votes=votes)
    st = pos.st
    assert choose_suspects(st, 8, 0) == (1, 7, True)


def test_choose_suspects_tie_for_second():
    # Victim 4. Seat 3 has 4 votes (clear first). Seats 0 and 6 have 1 vote each: clockwise from 4,
    # seat 6 is 2 away and seat 0 is 4 away -> fur goes to 6. A tie decided second place: tied.
    votes = [1, 0, 0, 4, 0, 0, 1, 0]
    pos = Position(BASE_8, dead=(4,), votes=votes)
    st = pos.st
    assert choose_suspects(st, 8, 4) == (3, 6, True)
    # Three-way tie for first (2, 2, 2 on seats 1, 3, 7; victim 4 -> distances 5, 7, 3): the two
    # nearest are 7 (3 away) then 1 (5 away).
    votes = [0, 2, 0, 2, 0, 0, 0, 2]
    pos = Position(BASE_8, dead=(4,), votes=votes)
    st = pos.st
    assert choose_suspects(st, 8, 4) == (7, 1, True)


def test_choose_suspects_when_only_one_player_got_votes():
    # Victim 2. Every one of the 7 voters named seat 6. Seat 6 gets the footprint; the fur goes to
    # the best of the zero-vote players, i.e. the living seat nearest clockwise to the victim:
    # seat 3 (1 away). That place was decided by a tie among the zero-vote players -> tied.
    votes = [0, 0, 0, 0, 0, 0, 7, 0]
    pos = Position(BASE_8, dead=(2,), votes=votes)
    st = pos.st
    assert choose_suspects(st, 8, 2) == (6, 3, True)
    # With seat 3 dead too, the nearest living zero-vote seat is 4.
    pos = Position(BASE_8, dead=(2, 3), votes=votes)
    st = pos.st
    assert choose_suspects(st, 8, 2) == (6, 4, True)
    # Three players left (0, 1, 6; victim 7): 0 and 1 voted for 6, 6 voted for 1. Footprint 6
    # (2 votes), fur 1 (1 vote), and nobody else has 1 vote: no tie.
    pos = Position(BASE_8, dead=(2, 3, 4, 5, 7), votes=[0, 1, 0, 0, 0, 0, 2, 0])
    st = pos.st
    assert choose_suspects(st, 8, 7) == (6, 1, False)


def test_choose_suspects_ignores_the_dead():
    # Stale votes on dead seats (3 on seat 1, dead) never make them suspects. Victim 6; living
    # 0, 2, 3, 4, 5, 7 with votes 2 on seat 4 and 1 on seat 0: footprint 4, fur 0.
    votes = [1, 3, 0, 0, 2, 0, 0, 0]
    pos = Position(BASE_8, dead=(1, 6), votes=votes)
    st = pos.st
    assert choose_suspects(st, 8, 6) == (4, 0, False)


def test_choose_suspects_equals_ranking_by_votes_then_clockwise_distance():
    # Property over 3000 random positions: the suspects are the first two living seats when ranked
    # by (most votes, then nearest clockwise to the victim), and `tied` says whether the second
    # place's vote count is shared by another living non-first seat or by the first.
    rng = np.random.default_rng(11)
    for _ in range(3000):
        n = int(rng.integers(8, 24))
        roles = [V] * n
        victim = int(rng.integers(n))
        dead = [victim] + [s for s in range(n) if s != victim and rng.random() < 0.4]
        living = [s for s in range(n) if s not in dead]
        if len(living) < 3:
            continue
        votes = [0] * n
        for _voter in living:
            votes[int(rng.choice(living))] += 1
        pos = Position(roles, dead=dead, votes=votes)
        ranked = sorted(living, key=lambda s: (-votes[s], clockwise_distance(victim, s, n)))
        first, second = ranked[0], ranked[1]
        tied = any(votes[s] == votes[second] for s in ranked if s != second)
        assert choose_suspects(pos.st, n, victim) == (first, second, tied)


def test_beats_is_votes_then_distance():
    # 3 votes beat 2 whatever the seats; 2 vs 2: from victim 6 (n = 8), seat 7 (1 away) beats 0.
    st = Position(BASE_8, dead=(6,)).st
    assert beats(st, 3, 0, 2, 7, 6, 8) and not beats(st, 2, 7, 3, 0, 6, 8)
    assert beats(st, 2, 7, 2, 0, 6, 8) and not beats(st, 2, 0, 2, 7, 6, 8)


def test_sentence_result_majority():
    # Suspects 1 (footprint) and 3 (fur). 5 votes to 2 -> 1 hanged; 2 to 5 -> 3 hanged; no tie.
    pos = Position(BASE_8, dead=(5,))
    st = pos.st
    st.sentence[1], st.sentence[3] = 5, 2
    assert sentence_result(st, 1, 3, 5, 8) == (1, False)
    st.sentence[1], st.sentence[3] = 2, 5
    assert sentence_result(st, 1, 3, 5, 8) == (3, False)


def test_sentence_result_tie_hangs_the_suspect_nearer_clockwise_to_the_victim():
    # Victim 5. Suspects 1 (4 seats clockwise from 5) and 7 (2 seats): 3 votes each -> 7 is hanged,
    # whichever suspect is footprint.
    pos = Position(BASE_8, dead=(5,))
    st = pos.st
    st.sentence[1] = st.sentence[7] = 3
    assert sentence_result(st, 1, 7, 5, 8) == (7, True)
    assert sentence_result(st, 7, 1, 5, 8) == (7, True)
    # Victim 0 instead: 1 is 1 away, 7 is 7 away -> 1 is hanged.
    assert sentence_result(st, 7, 1, 0, 8) == (1, True)


@pytest.mark.parametrize("rule,hanged", [("first", 5), ("after", 7)])
def test_a_living_reference_seat_ranks_in_ties_by_the_tie_ruling(rule, hanged):
    """After a night without a death the attacked seat (5) is the reference, alive. In a sentence
    tie with seat 7 (2 seats clockwise from it): "first" puts him at distance 0, so he is hanged;
    "after" counts from seat 6, so he comes last and 7 is hanged. With the victim dead every
    ruling is the text's (nearer clockwise to the victim)."""
    pos = Position(BASE_8)
    st = pos.st
    st.tie_reference = TIE_RULES.index(rule)
    st.sentence[5] = st.sentence[7] = 3
    assert sentence_result(st, 5, 7, 5, 8) == (hanged, True)
    assert sentence_result(st, 7, 5, 5, 8) == (hanged, True)
    st.sentence[1] = 3  # seats 1 and 7, neither the reference: 7 is nearer to 5 either way
    assert sentence_result(st, 1, 7, 5, 8) == (7, True)
    dead = Position(BASE_8, dead=(5,)).st
    dead.tie_reference = TIE_RULES.index(rule)
    dead.sentence[1] = dead.sentence[7] = 3
    assert sentence_result(dead, 1, 7, 5, 8) == (7, True)


def test_random_ties_after_a_night_without_a_death_are_uniform():
    """"random": the day's tie order is a uniform permutation drawn at daybreak, so the living
    reference seat (5) wins a tie with seat 7 in half the days. Over 2,000 days the count of 5's
    hangings has mean 1,000 and standard deviation sqrt(2000 / 4) = 22.4: 1,000 ± 112 (5 sd)
    cannot be missed by a fair draw, and catches any rule that favours one of them by 6 points.
    No order is drawn when the victim died (the text's rule holds)."""
    pos = Position(BASE_8)
    st = pos.st
    st.tie_reference = TIE.random
    st.sentence[5] = st.sentence[7] = 3
    rng = np.random.default_rng(3)
    hanged_5 = 0
    for _ in range(2000):
        draw_tie_order(st, 8, 5, rng)
        assert sorted(st.tie_rank[:8]) == list(range(8))
        hanged_5 += sentence_result(st, 5, 7, 5, 8)[0] == 5
    assert abs(hanged_5 - 1000) <= 112
    dead = Position(BASE_8, dead=(5,)).st
    dead.tie_reference = TIE.random
    dead.tie_rank[:8] = -1
    draw_tie_order(dead, 8, 5, np.random.default_rng(3))
    assert list(dead.tie_rank[:8]) == [-1] * 8


def test_the_tie_ruling_is_a_knob_and_random_play_keeps_its_games_under_the_default():
    """rules.tie_reference takes first (the default), after or random, refuses anything else,
    and a setup without a night without a death plays the same games under each."""
    assert config.load("werewolf").params.knobs.tie_reference == "first"
    with pytest.raises(ConfigError, match="rules.tie_reference"):
        config.load("werewolf", overrides=["rules.tie_reference=last"])
    base = [config.load("werewolf", overrides=["strategies.all=random",
                                               f"rules.tie_reference={rule}"])
            for rule in TIE_RULES]
    tallies = [driver.simulate(GAME, cfg.params, ["random"] * 8, 500, seed=2)[0] for cfg in base]
    for other in tallies[1:]:
        np.testing.assert_array_equal(other["team_wins"], tallies[0]["team_wins"])


def test_publish_claim():
    # Seat 4 claims "I am the seer and seat 2 is a werewolf": 2 is publicly named (once per claim),
    # 4 publicly claimed the seer, and the claimant's row of `said` holds it.
    pos = Position(BASE_8)
    st = pos.st
    publish_claim(st, 4, S, 2, True)
    assert pos.named_wolf.tolist() == [0, 0, 1, 0, 0, 0, 0, 0]
    assert pos.claimed.tolist() == [-1, -1, -1, -1, S, -1, -1, -1]
    said = st.obs[OBS.said:OBS.said + MAX_PLAYERS * MAX_PLAYERS].reshape(MAX_PLAYERS, MAX_PLAYERS)
    assert said[4, :8].tolist() == [-1, -1, 1, -1, -1, -1, -1, -1]
    # A second claimant (the real seer 6) says 5 is a werewolf and 0 is not.
    publish_claim(st, 6, S, 5, True)
    publish_claim(st, 6, S, 0, False)
    assert pos.named_wolf.tolist() == [0, 0, 1, 0, 0, 1, 0, 0]
    assert st.obs[OBS.named_clear:OBS.named_clear + 8].tolist() == [1, 0, 0, 0, 0, 0, 0, 0]
    assert pos.claimed.tolist() == [-1, -1, -1, -1, S, -1, S, -1]
    assert said[6, :8].tolist() == [0, -1, -1, -1, -1, 1, -1, -1]


# === legal actions ==============================================================================
# The engine hands a strategy the first `n_actions` entries of the state's mask (seats 0..n-1, seats
# again n..2n-1 for a claim's "not a werewolf", then 2n = "pass"); the mask builders keep `st.legal_count`, from which the engine knows whether a
# decision is forced.

def test_legal_living_excludes_the_dead_and_the_excluded_seat():
    # Dead 1 and 4, excluding 6 (the deciding seat): legal = 0, 2, 3, 5, 7; never "pass" (16).
    pos = Position(BASE_8, dead=(1, 4))
    pos.st.legal[:] = True  # stale content must be cleared (the whole mask, not only 17 entries)
    pos.st.legal_count = 99
    legal_living(pos.st, 8, 6)
    legal = pos.legal()
    assert legal.size == 17 == GAME.actions(_run_setup(8)[0])
    assert np.flatnonzero(legal).tolist() == [0, 2, 3, 5, 7]
    assert not pos.st.legal[17:].any() and pos.st.legal_count == 5
    # exclude = -1 (the pack's choice): every living seat, wolves included.
    legal_living(pos.st, 8, -1)
    assert np.flatnonzero(pos.legal()).tolist() == [0, 2, 3, 5, 6, 7]
    assert pos.st.legal_count == 6


def test_legal_claim_adds_pass():
    # Seat 3 talks with 0 dead: it may say of 1, 2, 4, 5, 6, 7 (not itself, not the dead) that
    # they are werewolves (the seat) or not (8 + the seat), or pass = 16.
    pos = Position(BASE_8, dead=(0,))
    legal_claim(pos.st, 8, 3)
    legal = pos.legal()
    others = [1, 2, 4, 5, 6, 7]
    assert np.flatnonzero(legal).tolist() == others + [8 + s for s in others] + [16]
    assert legal[16] and legal.size - 1 == 16
    assert pos.st.legal_count == 13


def test_legal_pair_is_exactly_the_two_suspects():
    # Sentence vote between 2 and 7: only those two, even for a suspect voting (self-vote allowed).
    pos = Position(BASE_8)
    pos.st.legal[:] = True
    legal_pair(pos.st, 2, 7)
    assert np.flatnonzero(pos.legal()).tolist() == [2, 7]
    assert not pos.st.legal[17:].any() and pos.st.legal_count == 2


# === the observation ============================================================================
# A seat's observation is built in three parts: the run's constants (players; the public setup:
# wolves, dealt) written once when the state is made; the public record (alive, claims, votes,
# ballots, ...) kept in the observation by the rules; and, at each decision, the engine's
# standard pieces (kind, me, my_role) and the game's observer `observe` (day, victim, suspects and
# the seat's own knowledge row). `observation(...)` above takes a real decision through the
# engine's `ask` and returns what the strategy was handed.

def test_observation_layout():
    # 10 scalars, the 16 role counts dealt, 2 scalars; then per-seat pieces of MAX_PLAYERS = 23
    # entries (said: 23 x 23), then the private pieces. The first five are the engine's standard
    # pieces, the same in every game (werewolf names no first player: -1).
    assert [piece.name for piece in OBSERVATION.pieces] == [
        "kind", "me", "my_role", "players", "first_player", "day", "victim", "suspect_a", "suspect_b", "wolves",
        "dealt", "mayor", "hanged", "alive", "revealed", "claimed", "named_wolf", "named_clear",
        "said", "votes", "voted", "ballot", "known", "lovers", "charmed", "potions", "protected"]
    assert (OBS.kind, OBS.me, OBS.my_role, OBS.players) == (OBS_KIND, OBS_ME, OBS_ROLE,
                                                            OBS_PLAYERS) == (0, 1, 2, 3)
    assert (OBS.dealt, OBS.alive, OBS.said, OBS.votes, OBS.known, OBS.size) == (
        10, 28, 143, 672, 741, 770)


def test_fill_observation_for_a_villager():
    # Villager 3 in the sentence vote of day 2: victim 5 (dead), suspects 2 (footprint) and 7 (fur),
    # seat 1 claimed the seer and named 2, votes as given. The seer (6) has checked 3 and 2 and
    # wolf 2 knows wolf 5: none of that is in 3's row, which knows only itself (human).
    votes = [0, 0, 4, 0, 0, 0, 0, 3]
    pos = Position(BASE_8, dead=(5,), votes=votes)
    st = pos.st
    seer_learns(st, 6, 3)
    seer_learns(st, 6, 2)
    publish_claim(st, 1, S, 2, True)
    obs = observation(pos, 3, SENTENCE_VOTE, 2, 5, 2, 7)
    assert obs[:OBS.dealt].tolist() == [SENTENCE_VOTE, 3, V, 8, -1, 2, 5, 2, 7, 2]
    assert obs[OBS.dealt:OBS.dealt + 3].tolist() == [5, 2, 1]  # the public setup
    assert obs[OBS.alive:OBS.alive + 8].tolist() == [1, 1, 1, 1, 1, 0, 1, 1]
    assert obs[OBS.known:OBS.known + 8].tolist() == [-1, -1, -1, V, -1, -1, -1, -1]
    assert obs[OBS.named_wolf:OBS.named_wolf + 8].tolist() == [0, 0, 1, 0, 0, 0, 0, 0]
    assert obs[OBS.claimed:OBS.claimed + 8].tolist() == [-1, S, -1, -1, -1, -1, -1, -1]
    assert obs[OBS.votes:OBS.votes + 8].tolist() == votes
    # Nothing private of others: no lovers, no charmed, no potions, no protection shown.
    assert obs[OBS.lovers:OBS.protected + 1].tolist() == [-1, -1, 0, 0, 0, -1]
    # Seats that do not exist (8..22) carry no information: the buffer's fill value -1.
    for piece in (OBS.alive, OBS.known, OBS.named_wolf, OBS.claimed, OBS.votes):
        assert set(obs[piece + 8:piece + MAX_PLAYERS].tolist()) == {-1}


def test_fill_observation_for_the_seer_and_a_wolf():
    # Same position. The seer 6 at night 3 (victim/suspects -1 at night): its row holds what it
    # learnt: 3 not a werewolf, 2 a werewolf, itself the seer.
    pos = Position(BASE_8, dead=(5,))
    st = pos.st
    seer_learns(st, 6, 3)
    seer_learns(st, 6, 2)
    obs = observation(pos, 6, SEER_CHECK, 3, -1, -1, -1)
    assert obs[:OBS.dealt].tolist() == [SEER_CHECK, 6, S, 8, -1, 3, -1, -1, -1, 2]
    assert obs[OBS.known:OBS.known + 8].tolist() == [-1, -1, W, NOT_WOLF, -1, -1, S, -1]
    # Wolf 2 choosing the victim: knows itself and wolf 5 (dead, still known as a wolf); nothing
    # of the seer's checks.
    obs = observation(pos, 2, WOLF_KILL, 3, -1, -1, -1)
    assert obs[OBS.my_role] == W
    assert obs[OBS.known:OBS.known + 8].tolist() == [-1, -1, W, -1, -1, W, -1, -1]
    # The claim and suspect-vote kinds carry the kind code and the victim.
    obs = observation(pos, 0, CLAIM, 3, 4, -1, -1)
    assert (obs[OBS.kind], obs[OBS.victim]) == (CLAIM, 4)
    obs = observation(pos, 0, SUSPECT_VOTE, 3, 4, -1, -1)
    assert (obs[OBS.kind], obs[OBS.suspect_a], obs[OBS.suspect_b]) == (SUSPECT_VOTE, -1, -1)


def test_fill_observation_writes_into_the_state_buffer():
    # The observation is the state's one buffer (no allocation per decision): `observe` writes
    # into st.obs, the engine hands the strategy that buffer, and the next decision overwrites it.
    pos = Position(BASE_8)
    a = pos.st.obs  # a view of the state's buffer
    observe(pos.st, 0, (1, 4, -1, -1))
    assert (a[OBS.day], a[OBS.victim]) == (1, 4)
    assert a[OBS.known:OBS.known + 8].tolist() == [V] + [-1] * 7
    observe(pos.st, 2, (2, -1, -1, -1))
    assert (a[OBS.day], a[OBS.victim]) == (2, -1)
    assert a[OBS.known:OBS.known + 8].tolist() == [-1, -1, W, -1, -1, W, -1, -1]
    observation(pos, 0, SUSPECT_VOTE, 1, 4, -1, -1)
    assert (a[OBS.kind], a[OBS.me]) == (SUSPECT_VOTE, 0)
    observation(pos, 6, SEER_CHECK, 1, -1, -1, -1)
    assert (a[OBS.kind], a[OBS.me]) == (SEER_CHECK, 6)


@njit(cache=True)
def _add_a_vote(st, seat):
    votes(st)[seat] += 1


@njit(cache=True)
def _public_pieces_at(st):
    """Where the state's public-record accessors point: (start address - obs address, size)."""
    base = st.obs.ctypes.data
    out = np.empty((4, 2), np.int64)
    for i, piece in enumerate((alive(st), named_wolf(st), claimed(st), votes(st))):
        out[i, 0] = piece.ctypes.data - base
        out[i, 1] = piece.size
    return out


def test_public_record_lives_in_the_observation():
    # The rules write the public record (deaths, claims, open votes) straight into the observation
    # buffer, once for everybody; a decision writes only the deciding seat's own part.
    pos = Position(BASE_8)
    st = pos.st
    # The accessors rules use (state.alive(st) etc.) are the observation's pieces, byte for byte.
    offsets = [OBS.alive, OBS.named_wolf, OBS.claimed, OBS.votes]
    assert _public_pieces_at(st).tolist() == [[8 * o, MAX_PLAYERS] for o in offsets]
    kill(st, 3, CAUSE.hanged)
    publish_claim(st, 6, S, 2, True)
    _add_a_vote(st, 5)
    assert st.obs[OBS.alive + 3] == 0 and st.obs[OBS.named_wolf + 2] == 1
    assert st.obs[OBS.claimed + 6] == S and st.obs[OBS.votes + 5] == 1
    # The secret sentence votes are not in it.
    assert not np.shares_memory(st.sentence, st.obs)
