"""The Chenghuang kernel end to end: conservation of games, scores and cards, determinism, seat
fairness under random play, mixed strategy tables, the variants and the trace."""

from __future__ import annotations

import numpy as np
import pytest

from simulator.games.base import FLAG_BLIND, StrategyInfo
from simulator.games.chenghuang.declaration import (
    DECISION, END, EV, N_KINDS, N_ROLES, OBS, ROLE, SCORE_CLIP, TR,
)
from simulator.games.chenghuang.params import ChenghuangParams, Knobs
from simulator.games.chenghuang.trace import decode_trace
from simulator.games.driver import StrategyFault
from simulator.statistics.inference import individual_fairness, simultaneous_rates, wilson
from strategies.chenghuang import builtin as builtin_strategies
from strategies.common import strategy

from test_chenghuang_positions import simulate
FIVE = ChenghuangParams(players=5)
SIX = ChenghuangParams(players=6, deck=(5, 6, 7, 7, 7, 4), role_pool=tuple(range(N_ROLES)),
                       pool_name="advanced")


def conservation(t, params, games):
    n, rounds = params.players, params.knobs.rounds
    ev = t.events
    assert t.games[0] == games
    assert t.team_wins.size == 0 and t.draws[0] == 0
    assert t.seat_wins.sum() == games                       # exactly one winner per game
    assert t.role_games.sum() == games * n and t.role_wins.sum() == games
    assert t.slot_games.sum() == games * n and t.slot_wins.sum() == games
    assert t.length_hist[rounds] == games and t.length_hist.sum() == games
    assert t.end_counts.sum() == games
    assert t.end_counts[END.captain_tie] == ev[EV.final_ties]
    assert ev[EV.rounds] == games * rounds == ev[EV.accusations]
    assert ev[EV.admits] + ev[EV.denies] == ev[EV.accusations]
    assert ev[EV.deny_correct] + ev[EV.deny_wrong] == ev[EV.denies]
    assert ev[EV.accused_highest] == ev[EV.admits_highest] + ev[EV.deny_wrong]
    assert ev[EV.thefts] + ev[EV.theft_declined] + ev[EV.rounds_without_theft] <= games * rounds
    assert 0 <= ev[EV.captain_round_top] <= games * rounds
    assert ev[EV.final_captain_wins] <= games
    # every game's points are accounted: per seat, per final role, per round role
    assert (t.seat_score_hist.sum(axis=1) == games).all()
    assert t.role_score_hist.sum() == games * n
    assert t.seat_score_sum.sum() == t.role_score_sum.sum() == t.role_round_sum.sum()
    assert t.seat_score_sq.sum() == t.role_score_sq.sum()
    assert t.role_rounds.sum() == games * rounds * n
    assert t.role_round_wins.sum() >= games * rounds        # ties give several top scorers
    clipped = np.minimum(np.arange(SCORE_CLIP + 1), SCORE_CLIP)
    assert (t.seat_score_hist @ clipped <= t.seat_score_sum).all()


@pytest.mark.parametrize("strategy", ["random", "greedy", "balanced"])
def test_conservation_five_players(strategy):
    t, _ = simulate(FIVE, [strategy] * 5, 2000, seed=1)
    conservation(t, FIVE, 2000)


def test_conservation_six_players_advanced_roles():
    t, _ = simulate(SIX, ["balanced", "random", "greedy"] * 2, 2000, seed=2)
    conservation(t, SIX, 2000)
    assert t.role_rounds.min() > 0                           # every role is dealt
    assert t.events[EV.fan_penalties] == t.role_rounds[ROLE.general_fan]  # acts every round out
    assert t.events[EV.horse_face_takes] > 0


def test_variants_overseers_and_three_players():
    overseers = ChenghuangParams(players=5, fan_variant="steal-four", fan_amount=4,
                                 role_pool=tuple(range(N_ROLES)), pool_name="advanced",
                                 knobs=Knobs(rounds=3))
    t, _ = simulate(overseers, ["random"] * 5, 1000, seed=3)
    conservation(t, overseers, 1000)
    three = ChenghuangParams(players=3, deck=(3, 4, 5, 5, 5, 3))
    t, _ = simulate(three, ["greedy", "balanced", "random"], 1000, seed=4)
    conservation(t, three, 1000)


def test_same_seed_same_result():
    a, _ = simulate(FIVE, ["balanced", "greedy", "random", "balanced", "random"], 500, seed=9)
    b, _ = simulate(FIVE, ["balanced", "greedy", "random", "balanced", "random"], 500, seed=9)
    c, _ = simulate(FIVE, ["balanced", "greedy", "random", "balanced", "random"], 500, seed=10)
    assert all((x == y).all() for x, y in zip(vars(a).values(), vars(b).values()))
    assert not all((x == y).all() for x, y in zip(vars(a).values(), vars(c).values()))


def test_random_play_is_fair_across_seats():
    # Seats are symmetric (the first captain is random), so under random play every seat wins
    # 1/5 of the games: each 99% simultaneous Wilson interval (Bonferroni over the 5 seats) must
    # hold 0.2, and the chi-square test must not reject equal shares.
    games = 20000
    t, _ = simulate(FIVE, ["random"] * 5, games, seed=2024)
    for rate in simultaneous_rates(t.seat_wins, np.full(5, games), confidence=0.99):
        assert rate.low <= 0.2 <= rate.high, rate
    assert not individual_fairness(t.seat_wins, games).significant(0.01)



@pytest.mark.slow
@pytest.mark.parametrize("strategy,seed", [("greedy", 14), ("balanced", 15)])
def test_identical_scripted_tables_are_seat_fair(strategy, seed):
    # Five identical scripted players: the rules make every seat alike and the strategies break
    # their ties at random (never by seat number), so no seat may stand out. At 200,000 games
    # the chi-square test of equal shares must not reject at the 5% level, and every seat's 99%
    # simultaneous Wilson interval (Bonferroni over the 5 seats; half-width about 0.25 points)
    # must hold 1/5. (Ties broken by the lowest seat gave all-greedy 19.0% -> 20.5% from seat 0
    # to seat 4, p < 0.001.)
    games = 200_000
    t, _ = simulate(FIVE, [strategy] * 5, games, seed=seed)
    assert not individual_fairness(t.seat_wins, games).significant(0.05)
    for rate in simultaneous_rates(t.seat_wins, np.full(5, games), confidence=0.99):
        assert rate.low <= 0.2 <= rate.high, rate


@pytest.mark.parametrize("players", [4, 5, 6])
def test_one_balanced_among_greedy_wins_more_than_its_share(players):
    # benchmarks/chenghuang_scan.py --greedy (100,000 games each): 45.5% at 4 players, 29.4% at
    # 5, 39.0% at 6, against even shares of 25%, 20% and 16.7%. At 5,000 games a 99.9% Wilson
    # interval is about +-2.2 points wide on each side, so its lower bound clears the even share
    # by 7 points or more when the strategy is as strong as measured.
    params = FIVE if players == 5 else SIX if players == 6 else ChenghuangParams(
        players=4, deck=(3, 4, 5, 5, 5, 3))
    games = 5000
    t, _ = simulate(params, ["balanced"] + ["greedy"] * (players - 1), games, seed=40 + players)
    rate = wilson(int(t.seat_wins[0]), games, confidence=0.999)
    assert rate.low > 1 / players, rate


def test_s_abilities_knob_moves_ox_head():
    # rules.s_abilities: under random play at 6 players (advanced pool), 牛頭 wins about 21.4%
    # of the games it ends with when its x2 counts in every round ("always", the default), about
    # 17.4% when it counts only at a showdown (docs/rules/chenghuang.md). 牛頭 ends some 13,000
    # of 20,000 games (6 of 9 roles), so each rate's standard error is under 0.4 points and the
    # difference's under 0.6: requiring a difference of 2 points leaves 3 standard errors on
    # either side (of 0 and of the measured 4 points).
    only = ChenghuangParams(players=6, deck=SIX.deck, role_pool=SIX.role_pool,
                            pool_name="advanced", s_abilities="showdown-only")
    rates = []
    for params in (SIX, only):
        t, _ = simulate(params, ["random"] * 6, 20_000, seed=21)
        conservation(t, params, 20_000)
        rates.append(t.role_wins[ROLE.ox_head] / t.role_games[ROLE.ox_head])
    assert rates[0] - rates[1] > 0.02, rates

def test_mixed_table_slot_wins_are_consistent():
    seats = ["greedy", "balanced", "greedy", "balanced", "balanced"]
    games = 3000
    t, _ = simulate(FIVE, seats, games, seed=5)
    conservation(t, FIVE, games)
    # slot 0 = greedy (seats 0, 2), slot 1 = balanced (seats 1, 3, 4)
    assert t.slot_games[0] == 2 * games and t.slot_games[1] == 3 * games
    assert t.slot_wins[0] == t.seat_wins[0] + t.seat_wins[2]
    assert t.slot_wins[1] == t.seat_wins[1] + t.seat_wins[3] + t.seat_wins[4]
    assert t.slot_games[2:].sum() == 0


def test_scripted_strategies_beat_random():
    games = 4000
    t, _ = simulate(FIVE, ["greedy", "random", "random", "random", "random"], games, seed=6)
    assert t.seat_wins[0] / games > 0.3   # well above 1/5
    mean_greedy = t.seat_score_sum[0] / games
    mean_random = t.seat_score_sum[1:].mean() / games
    assert mean_greedy > mean_random + 10


def test_trace_rows_tell_the_whole_game():
    t, rows = simulate(FIVE, ["balanced", "greedy", "random", "balanced", "greedy"], 1, seed=8,
                       trace_rows=5000)
    codes = rows[:, 1]
    assert (codes == TR.round).sum() == 4
    assert (codes == TR.pick).sum() == 4 * 30 and (codes == TR.discard).sum() == 4 * 5
    assert (codes == TR.vote).sum() == 4 * 5 and (codes == TR.winner).sum() == 1
    scores = rows[codes == TR.round_score]
    totals = np.zeros(5, np.int64)
    for _, _, seat, _, score, total in scores:
        totals[seat] += score
        assert totals[seat] == total                          # totals add up round by round
    winner = rows[codes == TR.winner][0]
    assert winner[4] == totals.max() == totals[winner[2]]
    assert t.seat_wins[winner[2]] == 1
    lines = decode_trace(rows, FIVE)
    text = "\n".join(lines)
    for words in ("== round 1 ==", "is dealt", "draft pick 6", "discards", "lays", "votes for",
                  "accused:", "everyone reveals", "scores", "winner: seat"):
        assert words in text
    assert lines[-1].startswith("winner: seat")


# --- blind strategies (base.FLAG_BLIND) -----------------------------------------------------------
def test_a_blind_strategy_plays_the_same_game_without_an_observation():
    """`random` is flagged blind, so the kernel does not build its observation. It never reads
    one, so the same function unflagged plays bit-identical games; a mixed table too."""
    blind = builtin_strategies()["random"]
    assert blind.flags & FLAG_BLIND
    sighted = StrategyInfo("random-sighted", blind.function, blind.summary, flags=0)
    for seats in ([blind] * 5, ["balanced", blind, "greedy", blind, "balanced"]):
        unflagged = [sighted if s is blind else s for s in seats]
        a, _ = simulate(FIVE, seats, 400, seed=11)
        b, _ = simulate(FIVE, unflagged, 400, seed=11)
        for name in vars(a):
            assert np.array_equal(getattr(a, name), getattr(b, name)), name


@strategy
def _blank_only(kind, obs, legal, params, memory, rng):
    """The first legal action if the observation holds nothing of a seat; else an illegal one."""
    blank = (obs[OBS.kind] == kind and obs[OBS.me] == -1 and obs[OBS.my_role] == -1
             and obs[OBS.round] == -1 and obs[OBS.players] == 5)
    for k in range(N_KINDS):
        blank = blank and obs[OBS.mine + k] == 0 and obs[OBS.pack + k] == 0
    for i in range(6 * N_KINDS):
        blank = blank and obs[OBS.known + i] == 0
    if not blank:
        return -1
    for a in range(legal.size):
        if legal[a]:
            return a
    return -1


def test_a_blind_strategy_is_handed_only_the_constants_and_the_decision_kind():
    flagged = StrategyInfo("blank-only", _blank_only, "", flags=FLAG_BLIND)
    t, _ = simulate(FIVE, ["balanced", flagged, "balanced", flagged, "random"], 200, seed=3)
    conservation(t, FIVE, 200)
    # unflagged, the same strategy sees its seat's view (its own cards at the latest) and fails
    unflagged = StrategyInfo("blank-only", _blank_only, "", flags=0)
    with pytest.raises(StrategyFault, match="not a legal action"):
        simulate(FIVE, [unflagged] * 5, 5, seed=3)


@strategy
def _fails_at_the_vote(kind, obs, legal, params, memory, rng):
    if kind == DECISION.vote:
        raise RuntimeError("a strategy's own error")
    for a in range(legal.size):
        if legal[a]:
            return a
    return -1


def test_an_error_inside_a_strategy_reaches_the_caller():
    # Strategies are called by the address of their compiled code (kernel_support.call_strategy);
    # an exception raised inside one still stops the run with its own message (the driver names
    # the strategy, the seat and the decision).
    failing = StrategyInfo("fails-at-the-vote", _fails_at_the_vote, "")
    with pytest.raises(StrategyFault, match="RuntimeError: a strategy's own error") as fault:
        simulate(FIVE, ["random", failing, "random", "random", "random"], 3, seed=1)
    assert fault.value.seat == 1 and fault.value.kind == "vote"
