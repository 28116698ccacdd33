"""The werewolf kernel: small runs with fixed seeds.

* conservation: every tally adds up (games, team / seat / role / slot wins, end conditions, game
  lengths, night kills and hangings);
* the trace of real games, replayed step by step against the rules (night order, the pack's
  spokesman, voting order, the suspects and the hanging, victory checked after every death);
* seer-led play only ever names real wolves;
* a strategy from a user's own .py file, named in a TOML config, runs through the same kernel;
* the config knobs that choose strategies (seat > role > team > all) and rules.
"""

from __future__ import annotations

import os
import pickle
import re

import numpy as np
import pytest
from numba import typeof

from simulator.setup import config
from simulator.run import runner
from simulator.setup.config import ConfigError
from simulator.games import driver
from simulator.games.base import MAX_STRATEGY_SLOTS
from simulator.games.werewolf.declaration import (
    CAUSE, DECISION, END, END_CONDITIONS, EV, HUMAN, ROLE, ROLE_TEAM, TR, WOLF,
)

VILLAGER, WEREWOLF, SEER = ROLE.villager, ROLE.werewolf, ROLE.seer


def run(players, strategy="random", games=2000, seed=1, overrides=()):
    cfg = config.load("werewolf", [f"strategies.all={strategy}", *overrides], players=players)
    return cfg, runner.run(cfg, games, seed=seed, workers=1).tallies


# === conservation ===============================================================================

@pytest.mark.parametrize("strategy", ["random", "seer-led"])
@pytest.mark.parametrize("players", [8, 11, 16, 20, 23])
def test_tallies_are_conserved(players, strategy):
    games = 2000
    cfg, t = run(players, strategy, games, seed=players)
    counts = np.array(cfg.params.role_counts)  # villagers, werewolves, seers per game
    wolves = counts[WEREWOLF]
    humans = players - wolves
    human_wins, wolf_wins = t["team_wins"]
    # Every game has exactly one winning team and no draw.
    assert t["games"][0] == games and human_wins + wolf_wins == games and t["draws"][0] == 0
    # Every seat plays every game; each role is dealt its count every game.
    assert np.array_equal(t["role_games"], counts * games)
    assert t["role_games"].sum() == players * games == t["slot_games"].sum()
    # Wins follow the team: the werewolves win together, villagers and the seer together.
    assert t["role_wins"][WEREWOLF] == wolves * wolf_wins
    assert t["role_wins"][VILLAGER] == counts[VILLAGER] * human_wins
    assert t["role_wins"][SEER] == counts[SEER] * human_wins
    assert t["seat_wins"].sum() == humans * human_wins + wolves * wolf_wins == t["slot_wins"].sum()
    # Seats are exchangeable under a uniform deal: no seat wins more games than were played.
    assert np.all(t["seat_wins"] <= games)
    # End conditions: "all wolves dead" is exactly the humans' wins.
    assert t["end_counts"].sum() == games
    assert t["end_counts"][END.wolves_dead] == human_wins
    assert t["end_counts"][END.humans_gone] + t["end_counts"][END.parity] == wolf_wins
    # Lengths: no game is decided before night 1. A night starts only while humans > wolves >= 1,
    # i.e. with at least 3 players alive, and each round (night + day) removes two players, so
    # night d has players - 2 (d - 1) >= 3 alive: a game lasts at most (players - 1) // 2 days.
    hist = t["length_hist"]
    assert hist.sum() == games and hist[0] == 0
    assert not hist[(players - 1) // 2 + 1:].any()
    days = np.arange(hist.size)
    ev = t["events"]
    # One kill every night, and a game of length d had d nights: night kills = sum of lengths.
    assert ev[EV.night_kills] == (days * hist).sum() >= games
    # One hanging every completed day: a game of length d had d - 1 or d hangings.
    hangings = ev[EV.hanged_wolf] + ev[EV.hanged_human]
    assert 0 <= ev[EV.night_kills] - hangings <= games
    # The seer checks at most once a night, dies at most once.
    assert ev[EV.seer_found_wolf] <= ev[EV.seer_checks] <= ev[EV.night_kills]
    assert ev[EV.seer_killed_at_night] + ev[EV.hanged_seer] <= games
    assert ev[EV.hanged_seer] <= ev[EV.hanged_human]
    # These packs never kill a wolf, so every human win hanged all the wolves.
    assert ev[EV.hanged_wolf] >= wolves * human_wins
    # At most one tie of each kind a day.
    assert ev[EV.suspect_vote_ties] <= hangings and ev[EV.sentence_ties] <= hangings
    if strategy == "random":
        assert ev[EV.wolf_claims] == 0  # random play never talks
    # Decisions, by kind: while the game goes on at least 3 players live and the two suspects
    # differ, so no decision ever has a single legal action (none is forced), and each is asked:
    # one seer check per check, one pack choice per night kill, one suspect vote and one sentence
    # vote per voter, and (talking strategies only, in the roles they speak as) one claim decision
    # per voter: seer-led speaks only as the seer, who is a voter on each day after a night he
    # checked, except for at most one such night a game (the one he dies in, or whose daybreak
    # ends the game).
    asked, forced = t["decisions"], t["forced"]
    assert not forced.any()
    assert asked[DECISION.seer_check] == ev[EV.seer_checks]
    assert asked[DECISION.wolf_kill] == ev[EV.night_kills]
    assert asked[DECISION.sentence_vote] == asked[DECISION.suspect_vote] >= 3 * hangings
    if strategy == "seer-led":
        checks = ev[EV.seer_checks]
        assert checks - games <= asked[DECISION.claim] <= checks
        assert asked[DECISION.claim] > 0
    else:
        assert asked[DECISION.claim] == 0


def test_seer_led_claims_are_all_true():
    # The seer-led seer names only players it checked and found to be wolves; no one else claims.
    # So every claim names a real wolf, at most one claim per wolf found.
    _, t = run(12, "seer-led", games=3000, seed=5)
    ev = t["events"]
    assert ev[EV.wolf_claims] > 0
    assert ev[EV.true_wolf_claims] == ev[EV.wolf_claims]
    assert ev[EV.wolf_claims] <= ev[EV.seer_found_wolf]


def test_seer_led_helps_the_town():
    # Same table, same seeds: the town wins more often with a seer who names wolves and a town that
    # follows him. Exact values (oracle, 10 humans vs 2 wolves): random 0.352, seer-led 0.555, a
    # difference of 0.20; on 4000 games each the difference's sd is below 0.011, so a margin of
    # 0.15 (4.5 sd below the exact difference) cannot be missed by a correct kernel.
    _, rnd = run(12, "random", games=4000, seed=9)
    _, led = run(12, "seer-led", games=4000, seed=9)
    assert led["team_wins"][HUMAN] - rnd["team_wins"][HUMAN] > 0.15 * 4000


def test_same_seed_same_tallies():
    # The kernel draws from the Generator it is given and nothing else.
    _, a = run(9, "seer-led", games=500, seed=42)
    _, b = run(9, "seer-led", games=500, seed=42)
    _, c = run(9, "seer-led", games=500, seed=43)
    assert all(np.array_equal(a[k], b[k]) for k in a)
    assert not all(np.array_equal(a[k], c[k]) for k in a)


# === the trace ==================================================================================

def test_trace_of_one_game_reads_like_the_rulebook():
    # An 8-player game always has a day 1 (night 1 leaves 5 humans against 2 wolves), so its story
    # has a deal, night 1, the pack's choice, a death, day 1, votes, a hanging and a winner.
    cfg = config.load("werewolf", ["strategies.all=seer-led"], players=8)
    lines = runner.trace_game(cfg, seed=3)
    text = "\n".join(lines)
    assert lines[0] == "Deal (secret):"
    assert sum(1 for line in lines if re.match(r"  seat \d+: ", line)) == 8
    for needle in ("Night 1", "the werewolves (", "dies, killed by the werewolves", "Day 1",
                   "suspect vote: ", "suspects: footprint", "sentence vote: ", "is hanged",
                   "dies, hanged"):
        assert needle in text, needle
    assert lines[-1].startswith("The ") and \
        lines[-1].rstrip(".").split(": ")[1] in [end.meaning for end in END_CONDITIONS]
    # The seer, while alive, checks every night (seer-led play).
    assert "the seer, seat" in text


FULL_GAME_STORY = (
    # every night action by role
    "cupid, seat", "the seer, seat", "the medium, seat", "the bodyguard, seat",
    "the werewolves (", "the witness, seat", "the witch, seat", "the death god, seat",
    "the paranoid, seat", "the piper, seat",
    # each claim, every vote by voter, the mayor
    "claims to be the seer", "claims to be the medium", "mayor vote: seat", "is elected mayor",
    "suspect vote: seat", "suspects: footprint", "sentence vote: seat", "is hanged",
    "names seat", "his successor",
    # each death with its cause
    "dies, killed by the werewolves", "dies, hanged", "dies, poisoned by the witch",
    "dies of grief", "dies, shot by the hunter", "dies, taken by the death god",
    "dies, checked by the seer",
)


def test_trace_of_the_full_game_at_23_players_tells_everything():
    # `fairplay trace werewolf/mayor-23.toml --seed S`: every role the text allows at 23 players
    # and the mayor, people-like play. Each game's story starts with the secret deal and ends with
    # the victory rule that ended it; over 40 games every kind of line appears (a role's power is
    # used in most games, a poison or a grief in some). The rarest line is the hamster checked by
    # the seer, 0.133 a game at mayor-23 (benchmarks/bench_players.py): absent from 40 games with
    # probability about exp(-0.133 * 40) = 0.005.
    cfg = config.load("werewolf/mayor-23.toml")
    seen = set()
    ends = set()
    for seed in range(40):
        lines = runner.trace_game(cfg, seed=seed)
        assert lines[0] == "Deal (secret):"
        assert sum(1 for line in lines if re.match(r"  seat \d+: ", line)) == 23
        last = lines[-1].rstrip(".")
        assert re.match(r"The (human team|wolf team|piper|lovers) wins? on day \d+: ", last), last
        ends.add(last.split(": ")[1])
        text = "\n".join(lines)
        seen |= {needle for needle in FULL_GAME_STORY if needle in text}
    assert seen == set(FULL_GAME_STORY), set(FULL_GAME_STORY) - seen
    assert ends <= {end.meaning for end in END_CONDITIONS} and len(ends) >= 2


def kernel_trace(players, strategy, seed, games):
    cfg = config.load("werewolf", [f"strategies.all={strategy}"], players=players)
    capacity = 200 * games * players
    tallies, rows = driver.play(cfg.game, cfg.params, cfg.lineup, games,
                                np.random.default_rng(seed), trace_rows=capacity, trace_game=-1)
    assert len(rows) < capacity  # every game of the call traced, none cut short
    return cfg, rows.tolist(), tallies


def end_of(role, alive):
    """The victory rules, written again: -1 while the game goes on."""
    wolves = sum(1 for s, r in enumerate(role) if alive[s] and ROLE_TEAM[r] == WOLF)
    humans = sum(alive) - wolves
    if wolves == 0:
        return END.wolves_dead
    if humans <= 1:
        return END.humans_gone
    if wolves >= humans:
        return END.parity
    return -1


def replay(rows, n, talks):
    """Check a trace of whole games row by row against the rules; returns the games seen."""
    games = 0
    i = 0

    def take(code):
        nonlocal i
        assert rows[i][1] == code, (i, rows[i], code)
        i += 1
        return rows[i - 1]

    while i < len(rows):
        role = [take(TR.deal)[4] for _ in range(n)]
        alive = [1] * n
        day = 0
        while True:
            day += 1
            # Night: the living seer checks first, then the pack's lowest living wolf chooses.
            assert take(TR.night)[4] == day
            seer = next((s for s in range(n) if alive[s] and role[s] == SEER), -1)
            if seer >= 0:
                _, _, actor, target, team, _ = take(TR.seer_check)
                assert actor == seer and target != seer and alive[target]
                assert team == ROLE_TEAM[role[target]]  # the team, truthfully
            _, _, leader, victim, _, _ = take(TR.wolf_kill)
            assert leader == min(s for s in range(n) if alive[s] and ROLE_TEAM[role[s]] == WOLF)
            assert alive[victim]
            death = take(TR.death)
            assert death[2:] == [victim, -1, role[victim], CAUSE.wolves]
            alive[victim] = 0
            end = end_of(role, alive)
            if end >= 0:
                break
            # Day: voting order is clockwise from the victim's right, living players only.
            assert take(TR.day)[4] == day
            order = [(victim + k) % n for k in range(1, n) if alive[(victim + k) % n]]
            while rows[i][1] == TR.claim:
                _, _, claimant, named, _, _ = take(TR.claim)
                assert talks and alive[claimant] and alive[named] and claimant != named
            votes = [0] * n
            for voter in order:
                _, _, actor, target, _, _ = take(TR.suspect_vote)
                assert actor == voter and target != voter and alive[target]
                votes[target] += 1
            ranked = sorted((s for s in range(n) if alive[s]),
                            key=lambda s: (-votes[s], (s - victim) % n))
            _, _, a, b, va, vb = take(TR.suspects)
            assert (a, b, va, vb) == (ranked[0], ranked[1], votes[ranked[0]], votes[ranked[1]])
            ballots = {a: 0, b: 0}
            for voter in order:  # everyone living votes, the suspects included
                _, _, actor, target, _, _ = take(TR.sentence_vote)
                assert actor == voter and target in (a, b)
                ballots[target] += 1
            nearer = a if (a - victim) % n < (b - victim) % n else b
            hanged = max((a, b), key=lambda s: (ballots[s], s == nearer))
            _, _, who, _, got, other = take(TR.hanged)
            assert (who, got, other) == (hanged, ballots[hanged], len(order) - ballots[hanged])
            death = take(TR.death)
            assert death[2:] == [hanged, -1, role[hanged], CAUSE.hanged]
            alive[hanged] = 0
            end = end_of(role, alive)
            if end >= 0:
                break
        # Victory is checked after every death: the game ends at the first death that decides it.
        winner = take(TR.winner)
        assert winner[0] == day and winner[4] == (HUMAN if end == END.wolves_dead else WOLF)
        assert winner[5] == end
        games += 1
    return games


@pytest.mark.parametrize("strategy", ["random", "seer-led"])
@pytest.mark.parametrize("players", [8, 13, 23])
def test_trace_replays_against_the_rules(players, strategy):
    # 30 games per setup, every event checked against the rules written again in this file.
    cfg, rows, tallies = kernel_trace(players, strategy, seed=players, games=30)
    assert replay(rows, players, talks=strategy == "seer-led") == 30 == tallies["games"][0]


def test_trace_of_one_game_of_a_call_is_that_game():
    # trace_game = k records game k of the call and nothing else: the same rows as game k's part of
    # the trace of every game (same seed), and the tallies are those of the untraced call. A
    # buffer too small stops recording without disturbing play.
    cfg = config.load("werewolf", ["strategies.all=seer-led"], players=9)

    def play(**trace):
        return driver.play(cfg.game, cfg.params, cfg.lineup, 5, np.random.default_rng(4), **trace)

    plain, none = play()
    assert len(none) == 0
    tallies, rows = play(trace_rows=20_000, trace_game=-1)
    assert all(np.array_equal(plain[k], tallies[k]) for k in plain)
    starts = [i for i, row in enumerate(rows.tolist()) if row[1] == TR.deal and row[2] == 0]
    assert len(starts) == 5 and starts[0] == 0
    for k, (start, end) in enumerate(zip(starts, starts[1:] + [len(rows)])):
        tallies, one = play(trace_rows=20_000, trace_game=k)
        assert np.array_equal(one, rows[start:end]), k
        assert all(np.array_equal(plain[name], tallies[name]) for name in plain)
    tallies, few = play(trace_rows=10, trace_game=-1)
    assert np.array_equal(few, rows[:10])
    assert all(np.array_equal(plain[name], tallies[name]) for name in plain)


# === user strategies ============================================================================

USER_STRATEGY = '''
"""A user's werewolf strategy, in plain Python (fairplay compiles it)."""
from simulator.games.werewolf.declaration import DECISION, OBS

PARAMS = {"claim_rate": 0.5}
FLAGS = 1  # FLAG_TALKS: ask me in the discussion


def loud(kind, obs, legal, params, memory, rng):
    """Names the first other living seat with probability claim_rate; otherwise uniform."""
    if kind == DECISION.claim:
        if rng.random() < params[0]:
            for a in range(legal.size - 1):
                if legal[a]:
                    return a
        return legal.size - 1
    count = 0
    for a in range(legal.size):
        if legal[a]:
            count += 1
    k = int(rng.random() * count)
    for a in range(legal.size):
        if legal[a]:
            if k == 0:
                return a
            k -= 1
    return -1
'''


def test_user_strategy_file_named_in_a_config_runs(tmp_path):
    # Seat 0 plays the user's strategy (whatever role it is dealt), everyone else random.
    (tmp_path / "mine.py").write_text(USER_STRATEGY)
    (tmp_path / "setup.toml").write_text(
        'extends = "werewolf/base.toml"\n'
        "players = 10\n"
        "[strategies]\n"
        'all = "random"\n'
        "[strategies.seat]\n"
        '0 = "mine.py:loud"\n')
    cfg = config.load(str(tmp_path / "setup.toml"))
    mine = [i for i, slot in enumerate(cfg.slots) if slot.name == "mine.py:loud"]
    assert mine and set(cfg.slot_table[0]) == set(mine)
    assert cfg.slots[mine[0]].info.summary.startswith("Names the first other living seat")
    assert cfg.slots[mine[0]].params == (("claim_rate", 0.5),)  # the file's PARAMS default
    assert not set(cfg.slot_table[1:].ravel()) & set(mine)
    result = runner.run(cfg, 500, seed=1, workers=1)
    t = result.tallies
    assert t["games"][0] == 500 and t["team_wins"].sum() == 500
    # seat 0 played every game on the user's strategy; the others on random
    assert t["slot_games"][mine].sum() == 500 and t["slot_games"].sum() == 10 * 500
    assert t["slot_wins"][mine].sum() == t["seat_wins"][0]
    # It talks (FLAGS) and, with claim_rate 0.5, claims; nobody else talks.
    assert t["events"][EV.wolf_claims] > 0

    # Its parameter, set in the config: claim_rate = 0 never claims.
    (tmp_path / "quiet.toml").write_text(
        'extends = "setup.toml"\n[strategies.seat]\n0 = { name = "mine.py:loud", claim_rate = 0.0 }\n')
    quiet = config.load(str(tmp_path / "quiet.toml"))
    assert {slot.params for slot in quiet.slots if slot.name == "mine.py:loud"} == {(("claim_rate", 0.0),)}
    assert runner.run(quiet, 300, seed=1, workers=1).tallies["events"][EV.wolf_claims] == 0


def test_user_strategy_named_for_a_team_is_one_slot(tmp_path):
    # `strategies.human = "mine.py:loud"` on 10 players: 8 humans on one slot, the wolves random.
    # Every (seat, role) cell that names the file must get the same compiled strategy, hence one
    # slot (not players x roles copies, which would also overflow the 16 slots).
    (tmp_path / "mine.py").write_text(USER_STRATEGY)
    (tmp_path / "setup.toml").write_text(
        'extends = "werewolf/base.toml"\nplayers = 10\n[strategies]\nall = "random"\n'
        'human = "mine.py:loud"\n')
    cfg = config.load(str(tmp_path / "setup.toml"))
    assert sorted(slot.label() for slot in cfg.slots) == ["mine.py:loud", "random"]
    t = runner.run(cfg, 500, seed=1, workers=1).tallies
    mine = [slot.name for slot in cfg.slots].index("mine.py:loud")
    assert t["slot_games"][mine] == 8 * 500


def test_an_edited_strategy_file_is_loaded_again(tmp_path):
    # A long-lived process (a notebook, the API) sees the file as it is now: edited, its
    # functions are compiled anew, not taken from the module loaded before.
    path = tmp_path / "mine.py"
    path.write_text(USER_STRATEGY)
    spec = f'strategies.all="{path}:loud"'
    before = config.load("werewolf", [spec]).slots[0].info
    path.write_text(USER_STRATEGY.replace("Names the first other living seat",
                                          "Edited: names the first other living seat"))
    stamp = path.stat().st_mtime_ns + 1_000_000_000
    os.utime(path, ns=(stamp, stamp))  # (a file system's clock may not tick between writes)
    after = config.load("werewolf", [spec]).slots[0].info
    assert before.summary.startswith("Names") and after.summary.startswith("Edited")
    assert after.function is not before.function


def test_user_strategy_errors_are_config_errors(tmp_path):
    (tmp_path / "mine.py").write_text(USER_STRATEGY)
    base = 'game = "werewolf"\nplayers = 9\n[strategies]\n'
    cases = {
        "missing.toml": 'all = "nothere.py:loud"\n',
        "nofunc.toml": 'all = "mine.py:silent"\n',
        "badparam.toml": 'all = { name = "mine.py:loud", volume = 3 }\n',
    }
    for name, body in cases.items():
        (tmp_path / name).write_text(base + body)
        with pytest.raises(ConfigError):
            config.load(str(tmp_path / name))


# === config knobs ===============================================================================

def test_strategy_precedence_seat_role_team_all():
    # all = random; the wolf team seer-led; the werewolf role random again (role beats team);
    # the seer role seer-led with trust 0.5; seat 3 seer-led with trust 0.25 whatever its role.
    cfg = config.load("werewolf", [
        "strategies.all=random",
        "strategies.wolf=seer-led",
        "strategies.werewolf=random",
        'strategies.seer={ name = "seer-led", trust = 0.5 }',
        'strategies.seat.3={ name = "seer-led", trust = 0.25 }',
    ], players=9)

    def slot(seat, role):
        s = cfg.slots[cfg.slot_table[seat, role]]
        return s.name, dict(s.params).get("trust")

    for seat in range(9):
        if seat == 3:
            assert {slot(3, r) for r in (VILLAGER, WEREWOLF, SEER)} == {("seer-led", 0.25)}
            continue
        assert slot(seat, VILLAGER) == ("random", None)    # all
        assert slot(seat, WEREWOLF) == ("random", None)    # role beats team
        assert slot(seat, SEER) == ("seer-led", 0.5)       # role
    # team beats all: without the werewolf line, wolves play seer-led
    cfg = config.load("werewolf", ["strategies.all=random", "strategies.wolf=seer-led"], players=9)
    assert cfg.slots[cfg.slot_table[0, WEREWOLF]].name == "seer-led"
    assert cfg.slots[cfg.slot_table[0, VILLAGER]].name == "random"
    assert len(cfg.slots) <= MAX_STRATEGY_SLOTS


def test_madman_literal_has_no_effect_without_a_madman():
    # The knob changes the wolves' win condition only when a madman is in play; the base game has
    # none, so the same seed gives the same tallies either way.
    _, a = run(11, "seer-led", games=500, seed=7, overrides=["rules.madman_literal=false"])
    _, b = run(11, "seer-led", games=500, seed=7, overrides=["rules.madman_literal=true"])
    assert all(np.array_equal(a[k], b[k]) for k in a)


def test_balance_target_is_a_validated_number():
    # balance_target: the intended win rate of the first team (humans), 0..1; default 0.5.
    assert config.load("werewolf", ["balance_target=0.4"]).raw["balance_target"] == 0.4
    for bad in ("balance_target=1.5", 'balance_target="half"'):
        with pytest.raises(ConfigError):
            config.load("werewolf", [bad])


def test_kernel_argument_types_pickle_by_reference():
    # Numba's on-disk cache finds a compiled kernel by its argument types, which it pickles. The
    # kernel's arguments are now (state record, game count, Generator): each type must come back
    # from a pickle equal to itself, or the cache would never hit. The state record is sized for
    # the game's maximum player count, so every table size has the same type (one compile).
    from simulator.games.werewolf import GAME

    states = [driver.blank_state(GAME, n) for n in range(GAME.min_players, GAME.max_players + 1)]
    assert len({typeof(st) for st in states}) == 1
    for argument in (states[0], np.int64(0), np.random.default_rng(0)):
        kind = typeof(argument)
        assert pickle.loads(pickle.dumps(kind)) == kind
    # Once played in this process, the kernel is ready for every player count.
    cfg = config.load("werewolf", players=8)
    driver.play(cfg.game, cfg.params, cfg.lineup, 1, np.random.default_rng(0))
    for players in (8, 23):
        cfg = config.load("werewolf", players=players)
        assert driver.kernel_is_ready(cfg.game, cfg.params, cfg.lineup)


def test_a_night_without_a_werewolf_to_attack_says_so():
    # The madman alone keeps the wolf camp alive: nobody is attacked (the kernel traces the
    # night's attack on seat -1), and the trace says why instead of naming a seat.
    from simulator.games.werewolf.declaration import TR
    from simulator.games.werewolf.trace import decode_trace

    rows = np.array([[0, TR.nobody_killed, -1, -1, 0, 0]], dtype=np.int64)
    assert decode_trace(rows, None) == ["  nobody dies tonight (no werewolf is left to attack)"]
