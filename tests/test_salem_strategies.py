"""Salem strategies on hand-built observations (each plays the way its summary says, ties at
random), and at the table: people-like towns win more than random ones."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import beta

from simulator.setup import config
from simulator.run import runner
from simulator.games import driver
from simulator.games.base import OBS_KIND, OBS_ME, OBS_ROLE
from simulator.games.salem import GAME
from simulator.games.salem.declaration import (
    CARD, DECISION, EVENTS, LOG, MODE, N_ACTIONS, N_CHARACTERS, N_ROLES, STOP, TOWN, TURN, WITCH,
)
from simulator.games.salem.observation import (
    legal_confess, legal_living, legal_play, legal_turn, observe,
)
from simulator.games.salem.rules import log_event, recount_all
from strategies.common import random_play
from strategies.salem import (
    MEMORY, M, P_CAT_KEEP, P_CAT_SUSPICION, P_CONFESS, P_FINISH, P_PILE_ON, PEOPLE_PARAMS, builtin,
    people,
)

from test_salem_positions import CONSTABLE, NAW, WITCH_TRYAL, add_front, position

PARAMS = np.zeros(len(PEOPLE_PARAMS), dtype=np.float64)
PARAMS[:len(PEOPLE_PARAMS)] = [p.default for p in PEOPLE_PARAMS]
CHARS = ["tituba", "sarah-good", "giles-corey", "ann-putnam", "mary-warren"]


def ask(st, seat, kind, context=(-1, -1, -1, MODE.plain), seed=0, memory=None, params=PARAMS):
    """What `people` answers at `seat` for a decision of `kind` whose legal mask the rules just
    built in st.legal (the engine's `ask`, from Python)."""
    observe(st, seat, context)
    st.obs[OBS_KIND] = kind
    st.obs[OBS_ME] = seat
    st.obs[OBS_ROLE] = st.role[seat]
    legal = np.array(st.legal[:N_ACTIONS], dtype=np.bool_)
    memory = np.zeros(MEMORY.size) if memory is None else memory
    return people(kind, st.obs, legal, params, memory, np.random.default_rng(seed))


def test_builtin_strategies_and_params():
    strategies = builtin()
    assert set(strategies) == {"random", "people"}
    assert strategies["people"].defaults() == {p.name: p.default for p in PEOPLE_PARAMS}
    assert strategies["random"].function is random_play
    assert strategies["people"].memory == MEMORY.size <= 256


def test_the_town_accuses_the_player_it_knows_holds_a_witch():
    st = position(CHARS, tryals=[[NAW] * 3, [NAW] * 3, [WITCH_TRYAL, NAW, NAW], [NAW] * 3,
                                 [NAW] * 3], hands=[{"witness": 1, "accusation": 1}])
    st.known_witch[0, 2] = 1      # seat 0 saw seat 2's Witch (it passed through its hands)
    st.known_team[0, 2] = WITCH
    memory = np.zeros(MEMORY.size)
    legal_play(st, 0, True)
    assert ask(st, 0, DECISION.play, memory=memory) == CARD.witness
    legal_living(st, 0)
    assert ask(st, 0, DECISION.target, (-1, CARD.witness, -1, MODE.plain),
               memory=memory) == 2


def test_a_witch_never_accuses_a_fellow_witch_and_kills_its_accuser():
    tryals = [[WITCH_TRYAL, NAW], [WITCH_TRYAL, NAW], [NAW, NAW], [NAW, NAW], [NAW, NAW]]
    st = position(CHARS, tryals=tryals, hands=[{"accusation": 3}])
    st.known_team[0, :5] = [WITCH, WITCH, TOWN, TOWN, TOWN]   # witches wake together
    targets = set()
    for seed in range(40):
        memory = np.zeros(MEMORY.size)
        legal_play(st, 0, True)
        ask(st, 0, DECISION.play, memory=memory, seed=seed)
        legal_living(st, 0)
        targets.add(ask(st, 0, DECISION.target, (-1, CARD.accusation, -1, MODE.plain),
                        memory=memory, seed=seed))
    assert 1 not in targets and targets <= {2, 3, 4} and len(targets) > 1   # ties at random
    # at night the witch votes for the player who accused the witches
    memory = np.zeros(MEMORY.size)
    for _ in range(3):   # seat 3 accused seat 1 three times (the public log)
        log_event(st, LOG.accuse, 3, 1, 1)
    legal_living(st, -1)
    assert ask(st, 0, DECISION.night_kill, (-1, -1, -1, MODE.votes), memory=memory) == 3


def test_ties_are_broken_at_random_never_by_seat_number():
    tryals = [[WITCH_TRYAL, NAW], [NAW, NAW], [NAW, NAW], [NAW, NAW], [NAW, NAW]]
    st = position(CHARS, tryals=tryals)
    st.known_team[0, :5] = [WITCH, TOWN, TOWN, TOWN, TOWN]
    picks = []
    for seed in range(200):
        legal_living(st, -1)
        picks.append(ask(st, 0, DECISION.night_kill, (-1, -1, -1, MODE.votes), seed=seed))
    counts = np.bincount(picks, minlength=5)
    # four seats alike, 200 picks: each count is Binomial(200, 1/4) (sd 6.1); 25..75 holds with
    # probability 1 - 4e-9 for each of them
    assert counts[0] == 0 and all(25 <= c <= 75 for c in counts[1:]), counts


def cat_table():
    """Seats 0 and 1 are the witches; seat 0's Witch is one of its four tryals (exposure 1/4),
    seat 1's one of two (1/2)."""
    tryals = [[WITCH_TRYAL, NAW, NAW, NAW], [WITCH_TRYAL, NAW], [NAW] * 3, [NAW] * 3, [NAW] * 3]
    st = position(CHARS, tryals=tryals)
    for w in (0, 1):
        st.known_team[w, :5] = [WITCH, WITCH, TOWN, TOWN, TOWN]
    return st


def test_the_witches_weigh_the_black_cats_start_against_exposing_a_witch():
    st = cat_table()
    keeps = PARAMS.copy()
    keeps[P_CAT_KEEP] = 1.0
    picks = []
    for seed in range(400):
        legal_living(st, -1)
        picks.append(ask(st, 0, DECISION.black_cat, (-1, -1, -1, MODE.votes), seed=seed,
                         params=keeps))
    counts = np.bincount(picks, minlength=5)
    # the first voter keeps the Cat for the least exposed witch (seat 0, never seat 1) with
    # probability cat_keep * (1 - 1/4) = 0.75: 400 votes give Binomial(400, 0.75), mean 300, sd
    # 8.7; 248..352 (6 sd) fails with probability 2e-9. The rest go to the townsfolk at random:
    # each of the three gets Binomial(400, 0.25 / 3), mean 33, sd 5.5; 5..70 is over 5 sd.
    assert counts[1] == 0 and 248 <= counts[0] <= 352, counts
    assert all(5 <= c <= 70 for c in counts[2:]), counts
    gives = PARAMS.copy()
    gives[P_CAT_KEEP] = 0.0
    for seed in range(50):
        legal_living(st, -1)
        assert ask(st, 1, DECISION.black_cat, (-1, -1, -1, MODE.votes), seed=seed,
                   params=gives) in (2, 3, 4)
    # a later voter follows the votes so far: the team speaks with one voice
    st.votes[3] = 1
    for seed in range(20):
        legal_living(st, -1)
        assert ask(st, 1, DECISION.black_cat, (-1, -1, -1, MODE.votes), seed=seed,
                   params=keeps) == 3


def test_the_town_reads_the_black_cats_holder_by_cat_suspicion():
    st = cat_table()
    log_event(st, LOG.blue, -1, 3, CARD.black_cat)   # the witches placed the Cat on seat 3
    for value in (-0.5, 0.0, 0.7):
        params = PARAMS.copy()
        params[P_CAT_SUSPICION] = value
        memory = np.zeros(MEMORY.size)
        legal_turn(st, 2)
        ask(st, 2, DECISION.turn, memory=memory, params=params)
        assert memory[M.suspicion + 3] == value and memory[M.suspicion + 4] == 0.0


def test_the_constable_protects_the_most_accused_player_it_trusts():
    tryals = [[WITCH_TRYAL, NAW], [NAW, CONSTABLE], [NAW, NAW], [NAW, NAW], [NAW, NAW]]
    st = position(CHARS, tryals=tryals)
    add_front(st, 3, CARD.evidence, 1)
    recount_all(st)
    log_event(st, LOG.accuse, 0, 3, 3)  # seat 0 put 3 accusations on seat 3
    legal_living(st, 1)
    assert ask(st, 1, DECISION.protect) == 3


def test_a_townsperson_confesses_only_when_it_fears_the_night():
    st = position(CHARS, tryals=[[WITCH_TRYAL, NAW], [NAW, NAW, NAW], [NAW, NAW], [NAW, NAW],
                                 [NAW, NAW]])
    for _ in range(4):   # seat 1 accused seat 0 a lot: the witches may come for it
        log_event(st, LOG.accuse, 1, 0, 1)
    fearless = PARAMS.copy()
    fearless[2] = 0.0
    answers = set()
    for seed in range(20):
        legal_confess(st, 1)
        answers.add(ask(st, 1, DECISION.confess, (-1, -1, -1, MODE.dawn), seed=seed,
                        params=fearless))
    assert answers == {STOP}
    fearful = PARAMS.copy()
    fearful[2] = 1.0
    legal_confess(st, 1)
    assert ask(st, 1, DECISION.confess, (-1, -1, -1, MODE.dawn), params=fearful) in (0, 1, 2)


def test_people_draw_or_play_and_draw_without_a_card_to_play():
    st = position(CHARS, tryals=[[WITCH_TRYAL, NAW]] + [[NAW, NAW]] * 4)
    legal_turn(st, 1)
    assert ask(st, 1, DECISION.turn) == TURN.draw


# --- at the table ----------------------------------------------------------------------------------
def team_lineup(players, town, witch):
    """Seats play `town` while on the town team and `witch` once on the witch team."""
    strategies = GAME.strategies()
    slots = [driver.Slot(name, strategies[name],
                         tuple((p.name, p.default) for p in strategies[name].params))
             for name in dict.fromkeys((town, witch))]
    table = np.zeros((players, N_ROLES), dtype=np.int64)
    table[:, N_CHARACTERS:] = len(slots) - 1   # one slot, and one memory, when both are alike
    return driver.Lineup(slots, table)


@pytest.mark.parametrize("players", [5, 8])
def test_people_like_towns_win_more_than_random_ones(players):
    params = config.load("salem", [], players).params
    games = 1500
    rates = []
    for town in ("people", "random"):
        t, _ = driver.play(GAME, params, team_lineup(players, town, "people"), games,
                           np.random.default_rng(players))
        rates.append(int(t["team_wins"][TOWN]))
    people_wins, random_wins = rates
    # Clopper-Pearson 99.9% intervals of the two town win rates must not overlap (measured on
    # these seeds: 8 players about 51% against 9%, 5 players 74% against 43%)
    low = beta.ppf(0.0005, people_wins, games - people_wins + 1)
    high = beta.ppf(0.9995, random_wins + 1, games - random_wins)
    assert low > high, (people_wins, random_wins)


def test_two_people_strategies_fit_in_a_seats_memory():
    # a seat plays the town's strategy, and the witches' once converted: both memories fit
    cfg = config.load("salem", ['strategies.town="people"',
                                'strategies.witch={name="people", profile=0.9}'], 8)
    t, _ = driver.play(GAME, cfg.params, cfg.lineup, 50, np.random.default_rng(1))
    assert t["games"][0] == 50 and 2 * MEMORY.size <= 256


def test_the_attack_matrix_keeps_whole_numbers_exactly():
    from strategies.salem import add_given, given
    memory = np.zeros(MEMORY.size)
    values = {}
    rng = np.random.default_rng(3)
    for _ in range(2000):
        a, t = int(rng.integers(0, 12)), int(rng.integers(0, 12))
        amount = float(rng.choice([-2, -1, 1, 2, 3, 7]))
        add_given(memory, a, t, amount)
        values[a, t] = values.get((a, t), 0.0) + amount
    assert all(given(memory, a, t) == values.get((a, t), 0.0)
               for a in range(12) for t in range(12))


# --- plays from outside the family (off by default) -----------------------------------------------
def with_params(**values):
    params = PARAMS.copy()
    names = [p.name for p in PEOPLE_PARAMS]
    for name, value in values.items():
        params[names.index(name)] = value
    return params


def test_the_new_plays_are_off_by_default():
    defaults = builtin()["people"].defaults()
    assert defaults["pile_on"] == defaults["confess"] == defaults["finish"] == 0.0
    names = [p.name for p in PEOPLE_PARAMS]
    assert (names.index("pile_on"), names.index("confess"), names.index("finish")) == \
        (P_PILE_ON, P_CONFESS, P_FINISH)


def accused_table():
    """Seat 1 (town) holds one Accusation; seats 0, 2, 3 and 4 look alike to it (two face-down
    tryals each, nothing in the log), but seat 3 has 4 accusations in front of it already."""
    st = position(CHARS, tryals=[[WITCH_TRYAL, NAW]] + [[NAW, NAW]] * 4,
                  hands=[{}, {"accusation": 1}])
    add_front(st, 3, CARD.accusation, 4)
    recount_all(st)
    return st


def planned_targets(st, params, seeds=60):
    targets = []
    for seed in range(seeds):
        memory = np.zeros(MEMORY.size)
        legal_play(st, 1, True)
        assert ask(st, 1, DECISION.play, memory=memory, seed=seed, params=params) == \
            CARD.accusation
        targets.append(int(memory[M.target]) - 1)
    return targets


def test_pile_on_accuses_the_player_nearest_a_trial():
    st = accused_table()
    focused = with_params(focus=1.0)
    # off: the four look alike, ties at random
    assert set(planned_targets(st, focused)) == {0, 2, 3, 4}
    # on: the accusations already in front of seat 3 make it the one to strike
    assert set(planned_targets(st, with_params(focus=1.0, pile_on=1.0))) == {3}
    # a witch strikes by its own reading (`pile_on` is the town's): the same plans either way
    witch = position(CHARS, tryals=[[NAW, NAW], [WITCH_TRYAL, NAW]] + [[NAW, NAW]] * 3,
                     hands=[{}, {"accusation": 1}])
    add_front(witch, 3, CARD.accusation, 4)
    recount_all(witch)
    witch.known_team[1, :5] = [TOWN, WITCH, TOWN, TOWN, TOWN]
    assert planned_targets(witch, with_params(focus=1.0, pile_on=3.0)) == \
        planned_targets(witch, focused)


def test_confess_insures_a_townsperson_who_never_accused():
    st = position(CHARS, tryals=[[WITCH_TRYAL, NAW], [NAW, NAW, NAW], [NAW, NAW], [NAW, NAW],
                                 [NAW, NAW]])
    fearful = with_params(fear=1.0)   # fear scales with my accusations: seat 1 made none
    insured = with_params(fear=1.0, confess=1.0)
    off, on = set(), set()
    for seed in range(30):
        legal_confess(st, 1)
        off.add(ask(st, 1, DECISION.confess, (-1, -1, -1, MODE.dawn), seed=seed,
                    params=fearful))
        legal_confess(st, 1)
        on.add(ask(st, 1, DECISION.confess, (-1, -1, -1, MODE.dawn), seed=seed,
                   params=insured))
    assert off == {STOP}
    assert on <= {0, 1, 2} and on   # a Not a Witch, every time
    # a tryal it cannot spare (one face down, no Phips) is never confessed
    st = position(CHARS, tryals=[[WITCH_TRYAL, NAW], [NAW], [NAW, NAW], [NAW, NAW], [NAW, NAW]])
    legal_confess(st, 1)
    assert ask(st, 1, DECISION.confess, (-1, -1, -1, MODE.dawn), params=insured) == STOP


def test_finish_sends_a_witch_for_the_townsperson_with_the_fewest_tryals():
    # seat 1 is the witch, with one Accusation; seat 3 has one face-down tryal left (a trial
    # kills it), the other townsfolk two; nobody threatens the witches yet
    st = position(CHARS, tryals=[[NAW, NAW], [WITCH_TRYAL, NAW], [NAW, NAW], [NAW], [NAW, NAW]],
                  hands=[{}, {"accusation": 1}])
    st.known_team[1, :5] = [TOWN, WITCH, TOWN, TOWN, TOWN]
    focused = with_params(focus=1.0)
    assert set(planned_targets(st, focused)) == {0, 2, 3, 4}   # off: alike, ties at random
    assert set(planned_targets(st, with_params(focus=1.0, finish=1.0))) == {3}
    # the town's reading does not move: `finish` is the witches'
    town = position(CHARS, tryals=[[WITCH_TRYAL, NAW], [NAW, NAW], [NAW, NAW], [NAW], [NAW, NAW]],
                    hands=[{}, {"accusation": 1}])
    assert planned_targets(town, with_params(focus=1.0, finish=3.0)) == \
        planned_targets(town, focused)


def salem_tallies(overrides, games=300, seed=3):
    cfg = config.load("salem", overrides)
    return runner.run(cfg, games, seed=seed, workers=1).tallies


def test_the_new_plays_at_their_defaults_play_the_same_games():
    plain = salem_tallies([])
    explicit = salem_tallies(['strategies.all={name="people", pile_on=0.0, confess=0.0, '
                              'finish=0.0}'])
    assert plain.keys() == explicit.keys()
    assert all(np.array_equal(plain[k], explicit[k]) for k in plain)


def test_the_new_plays_change_the_games_when_on():
    plain = salem_tallies([])
    confessions = [e.name for e in EVENTS].index("confessions")
    on = salem_tallies(['strategies.all={name="people", confess=1.0}'])
    # measured on 4,000 games: 2.2 confessions a game off, 10.2 on
    assert on["events"][confessions] > 2 * plain["events"][confessions]
    for play in ("pile_on=1.0", "finish=1.0"):
        on = salem_tallies([f'strategies.all={{name="people", {play}}}'])
        assert not all(np.array_equal(plain[k], on[k]) for k in plain), play
