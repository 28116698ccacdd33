"""No peeking: a werewolf seat's decisions depend only on what that seat can know.

The guarantee is a chain of three facts, each tested here:

1. A strategy is a function of (decision kind, observation, legal mask, params, memory, rng) and
   of nothing else: the signature has exactly those six arguments, the built-in strategies are
   compiled with it, and the one call the engine makes into a strategy passes exactly those. The
   memory is the one writable argument: the seat's own scratch, which only that seat's strategy
   sees and which is zeroed at the start of every game (so it holds nothing but what the seat
   itself was shown in this game).
2. The observation (and the legal mask) of a seat is the same in every world the seat cannot tell
   apart, and differs between worlds it can: checked exhaustively over every deal of the 8-player
   table (real decisions through the engine's `ask` on hand-built positions).
3. End to end, the kernel hands a seat exactly that observation at every decision of a real game:
   a recording test strategy logs every (kind, observation, legal mask) it receives; the log is
   compared with the seat's knowledge rebuilt from the game's trace, and with the log of the same
   seat in a re-dealt game that differs only in hidden roles.
"""

from __future__ import annotations

import ast
import inspect
import itertools
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest
from numba import carray, njit, types

from simulator.setup import config
from simulator.games import driver, engine, kernel_support
from simulator.games.base import (
    FLAG_TALKS, STRATEGY_SIGNATURE, TRACE_WIDTH, StrategyInfo, StrategyParam,
)
from simulator.games.engine import ask
from simulator.games.kernel_support import _address_as_pointer, compile_strategy
from simulator.games.werewolf import GAME
from simulator.games.werewolf import kernel as kernel_module
from simulator.games.werewolf import observation as observation_module
from simulator.games.werewolf import rules as rules_module
from simulator.games.werewolf import state as state_module
from simulator.games.werewolf.declaration import (
    DECISION, MAX_ACTIONS, MAX_PLAYERS, N_ROLES, NOT_WOLF, OBS, ROLE, ROLE_TEAM, TR, UNKNOWN,
    WOLF,
)
from simulator.games.werewolf.observation import legal_claim, legal_living, legal_pair, observe
from simulator.games.werewolf.rules import (
    publish_claim, reset_for_deal, seer_learns, shuffle_into, victory,
)
from strategies.common import inlined, strategy, uniform_legal
from strategies.werewolf import builtin, random_play, seer_led

V, W, S = ROLE.villager, ROLE.werewolf, ROLE.seer
CLAIM, SEER_CHECK, SENTENCE_VOTE, SUSPECT_VOTE, WOLF_KILL = (
    DECISION.claim, DECISION.seer_check, DECISION.sentence_vote, DECISION.suspect_vote,
    DECISION.wolf_kill)
N = 8
BASE_8 = (V, V, W, V, V, W, S, V)  # wolves at 2 and 5, the seer at 6
ALL_KINDS = (SEER_CHECK, WOLF_KILL, CLAIM, SUSPECT_VOTE, SENTENCE_VOTE)


@lru_cache(maxsize=None)
def params_for(players):
    """The validated params of the built-in config for `players`."""
    return config.load("werewolf/base-random.toml", players=players).params


def all_deals():
    """Every distinct deal of the 8-player deck (5 villagers, 2 wolves, 1 seer): 168."""
    deals = []
    for wolves in itertools.combinations(range(N), 2):
        for seer in range(N):
            if seer in wolves:
                continue
            roles = [V] * N
            for w in wolves:
                roles[w] = W
            roles[seer] = S
            deals.append(tuple(roles))
    return deals


# === 1. the strategy API has no path to the state ===============================================

def test_strategy_signature_is_exactly_kind_obs_legal_params_rng():
    # (decision kind, observation, legal mask, parameters, memory, rng) -> action: six arguments,
    # none of them a game state (a tuple or record type).
    args = STRATEGY_SIGNATURE.args
    assert len(args) == 6
    assert args[0] == types.int64
    assert args[1] == types.Array(types.int64, 1, "C", readonly=True)
    assert args[2] == types.Array(types.boolean, 1, "C", readonly=True)
    assert args[3] == types.Array(types.float64, 1, "C", readonly=True)
    # the seat's own memory: writable, a plain float64 vector (see test_memory_is_the_seats_own_
    # and_fresh_every_game)
    assert args[4] == types.Array(types.float64, 1, "C")
    assert isinstance(args[5], types.NumPyRandomGeneratorType)
    assert not any(isinstance(arg, (types.BaseTuple, types.Record)) for arg in args)
    assert STRATEGY_SIGNATURE.return_type == types.int64
    # Every built-in werewolf strategy is compiled (when first used) with that one signature and
    # no other: not before, and a call from Python compiles that one too.
    for info in builtin().values():
        assert info.function.signatures in ([], [args]), info.name
        compile_strategy(info.function)
        assert info.function.signatures == [args], info.name
    fresh = strategy(_first_legal)
    assert fresh.signatures == []
    assert fresh(np.int64(0), np.zeros(3, np.int64), np.ones(2, np.bool_), np.zeros(1),
                 np.zeros(1), np.random.default_rng(0)) == 0
    assert fresh.signatures == [args]


def _first_legal(kind, obs, legal, params, memory, rng):
    return 0


def _writes_obs(kind, obs, legal, params, memory, rng):
    obs[0] = 1
    return 0


def _writes_legal(kind, obs, legal, params, memory, rng):
    legal[0] = False
    return 0


def _writes_params(kind, obs, legal, params, memory, rng):
    params[0] = 0.5
    return 0


def _writes_an_obs_slice(kind, obs, legal, params, memory, rng):
    obs[3:5] = 1
    return 0


def _writes_memory(kind, obs, legal, params, memory, rng):
    memory[0] = obs[0]
    return 0


@pytest.mark.parametrize("scribbler", [_writes_obs, _writes_legal, _writes_params,
                                       _writes_an_obs_slice])
def test_strategies_get_read_only_buffers(scribbler):
    # The engine hands a strategy the state's own observation and legal-mask buffers and its slot's
    # parameters (no copy per decision), so a strategy that writes into any of them must not
    # compile. (Its memory is its own scratch, and writable: see the next test.)
    from numba.core.errors import TypingError

    with pytest.raises(TypingError, match="readonly"):
        compile_strategy(strategy(scribbler))


def test_strategies_may_write_their_memory():
    # The control: the one writable argument is the seat's memory (private to the seat and zeroed
    # every game, see test_memory_is_the_seats_own_and_fresh_every_game).
    compiled = strategy(_writes_memory)
    compile_strategy(compiled)
    assert compiled.signatures == [STRATEGY_SIGNATURE.args]
    memory = np.zeros(2)
    compiled(0, np.full(3, 7, np.int64), np.ones(4, np.bool_), np.zeros(8), memory,
             np.random.default_rng(0))
    assert memory.tolist() == [7.0, 0.0]


def test_strategies_compile_without_reference_counting_unless_they_allocate():
    # Reference counting at a non-inlinable call is pure overhead when nothing is allocated; a
    # strategy that does allocate still compiles, with the ordinary runtime.
    def allocates(kind, obs, legal, params, memory, rng):
        scratch = np.zeros(legal.size, np.int64)
        return scratch[0]

    for info in builtin().values():
        assert info.function.targetoptions.get("_nrt") is False, info.name
    compiled = strategy(allocates)
    legal = np.ones(4, np.bool_)
    assert compiled(0, np.zeros(3, np.int64), legal, np.zeros(8), np.zeros(2),
                    np.random.default_rng(0)) == 0


def _function_defs(module):
    tree = ast.parse(Path(inspect.getsourcefile(module)).read_text())
    return {node.name: node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}


def _calls_named(node, name):
    return [call for call in ast.walk(node) if isinstance(call, ast.Call) and (
        (isinstance(call.func, ast.Name) and call.func.id == name)
        or (isinstance(call.func, ast.Attribute) and call.func.attr == name))]


def _state_fields_read(node):
    """The `st.<field>` attributes an expression reads."""
    return {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)
            and isinstance(n.value, ast.Name) and n.value.id == "st"}


def test_every_call_into_a_strategy_passes_only_the_observation_buffers():
    # Read the sources. A strategy is called by the address of its compiled code, through
    # kernel_support.call_strategy, and only from the engine's `ask`: the game's kernel, rules,
    # observer and state never call one, never reach for the call or a strategy's address. The
    # one call passes exactly (kind, obs, legal, params, memory, rng), where obs is the state's
    # observation buffer (the one `observe` fills; the blank one for a strategy that decides
    # without it), legal the state's mask cut to n_actions, params and memory the seat's slot's
    # (read-only to the strategy but the memory, see test_strategies_get_read_only_buffers), and
    # never the state `st` itself or one of its secret fields.
    for module in (kernel_module, rules_module, observation_module, state_module):
        text = Path(inspect.getsourcefile(module)).read_text()
        for forbidden in ("call_strategy", "kernel_support", "slot_address", "native_address"):
            assert forbidden not in text, (module.__name__, forbidden)

    engine_defs = _function_defs(engine)
    callers = [name for name, node in engine_defs.items() if _calls_named(node, "call_strategy")
               and name != "call_strategy"]
    assert callers == ["ask"], "only `ask` calls into a strategy"
    (call,) = _calls_named(engine_defs["ask"], "call_strategy")
    assert len(call.args) == 7 and not call.keywords
    address, *handed = [ast.unparse(arg) for arg in call.args]
    assert address == "st.slot_address[slot]"
    assert handed == ["kind", "obs", "_ks.flag_view(st.legal, st.n_actions)",
                      "st.slot_params[slot]", "memory", "rng"]
    # What `obs`, `memory` and `slot` are, in `ask` (every assignment to them).
    assigned = {}
    for node in ast.walk(engine_defs["ask"]):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and \
                isinstance(node.targets[0], ast.Name):
            assigned.setdefault(node.targets[0].id, []).append(node.value)
    assert sorted(ast.unparse(v) for v in assigned["obs"]) == ["st.blank", "st.obs"]
    assert [ast.unparse(v) for v in assigned["memory"]] == [
        "_ks.subarray(st.memory, st.memory_offset[seat, slot], st.slot_memory[slot])"]
    assert [ast.unparse(v) for v in assigned["slot"]] == ["slot_of(st, seat)"]
    # The state fields the handed arguments are made of: the strategy machinery's own, and no
    # field of the game's state (its secrets: roles dealt, knowledge rows, ballots, ...).
    read = set()
    for node in call.args[1:] + assigned["obs"] + assigned["memory"]:
        read |= _state_fields_read(node)
    assert read == {"obs", "blank", "legal", "n_actions", "slot_params", "memory",
                    "memory_offset", "slot_memory"}
    assert not read & ({f.name for f in GAME.state_fields} | {"role"})
    # The interpreted twin (NUMBA_DISABLE_JIT=1) passes on its own arguments and nothing else.
    support_tree = ast.parse(Path(inspect.getsourcefile(kernel_support)).read_text())
    twins = [node for node in ast.walk(support_tree)
             if isinstance(node, ast.Call) and isinstance(node.func, ast.Subscript)
             and ast.unparse(node.func.value) == "INTERPRETED_STRATEGIES"]
    assert len(twins) == 1
    assert [ast.unparse(arg) for arg in twins[0].args] == [
        "int(kind)", "_read_only_view(obs)", "legal", "_read_only_view(params)", "memory", "rng"]


# === 2. the observation: the same in worlds a seat cannot tell apart ============================

# A public history on the 8-player table: night 1 killed seat 4, day 1 hanged seat 7, night 2 killed
# seat 3 (the victim of the day being played). Seat 1 publicly claimed the seer and named seat 0.
# Today's open suspect vote so far: 2 votes on seat 0, 1 on seat 5. Suspects 0 and 5.
DEAD = (4, 7, 3)
VICTIM = 3
VOTES = (2, 0, 0, 0, 0, 1, 0, 0)
SUSPECTS = (0, 5)
DAY = 2


@njit(cache=True)
def _ask(st, seat, kind, context, rng):
    """The engine's decision, as the kernel makes it: `observe` fills the seat's observation, the
    engine adds the standard pieces (kind, me, my_role), the seat's strategy is called."""
    return ask(st, seat, kind, rng, observe, context)


@lru_cache(maxsize=None)
def _lineup(players):
    return driver.Lineup.uniform(GAME, players, "random")


class World:
    """One hidden world behind the public history above: a deal, the seer's private checks (the
    seer checks `checks` in order, skipping itself), and secret sentence ballots. Its state is the
    kernel's own record, as the driver builds it for an 8-player run, set by hand."""

    def __init__(self, deal, checks=(), sentence=(0,) * N):
        self.deal = deal
        self.st = driver.new_state(GAME, params_for(N), _lineup(N))
        st = self.st
        st.role[:N] = deal
        reset_for_deal(st, N)
        seer = deal.index(S)
        for target in checks:
            if target != seer:
                seer_learns(st, seer, target)
        for seat in DEAD:
            self.alive[seat] = 0
        publish_claim(st, 1, S, 0, True)
        self.votes[:] = VOTES
        st.sentence[:N] = sentence

    # The public record lives in the observation (state.alive(st) etc. in compiled code).
    alive = property(lambda self: self.st.obs[OBS.alive:OBS.alive + N])
    votes = property(lambda self: self.st.obs[OBS.votes:OBS.votes + N])

    def goes_on(self):
        return victory(self.st, N) == -1

    def view(self, me, kind):
        """(observation, legal mask) seat `me` is handed for a decision of `kind`, as copies: the
        mask built as the kernel builds it, then a real decision through the engine's `ask` (the
        strategy is handed the state's own buffers, so afterwards they hold what it saw)."""
        st = self.st
        night = kind in (SEER_CHECK, WOLF_KILL)
        victim = -1 if night else VICTIM
        a, b = SUSPECTS if kind == SENTENCE_VOTE else (-1, -1)
        if kind == WOLF_KILL:
            legal_living(st, N, -1)
        elif kind == CLAIM:
            legal_claim(st, N, me)
        elif kind == SENTENCE_VOTE:
            legal_pair(st, a, b)
        else:
            legal_living(st, N, me)
        st.asking_kind = -1
        _ask(st, me, kind, (DAY, victim, a, b), np.random.default_rng(0))
        assert st.asking_kind == kind, "the strategy was asked (the decision was not forced)"
        return st.obs.copy(), st.legal[:st.n_actions].view(np.bool_).copy()


def indistinguishable(me, deal, other, checked):
    """True if seat `me`, dealt `deal[me]`, cannot tell `deal` from `other`: same own role; a wolf
    knows every wolf; the seer knows the team of each seat it checked."""
    if other[me] != deal[me]:
        return False
    if deal[me] == W:
        return {s for s in range(N) if deal[s] == W} == {s for s in range(N) if other[s] == W}
    if deal[me] == S:
        return all(ROLE_TEAM[deal[t]] == ROLE_TEAM[other[t]] for t in checked if t != me)
    return True


SEER_CHECKS = (2, 1, 0)  # the seer's checks in the reference world (a wolf, then two humans)


@pytest.mark.parametrize("me", range(N))
def test_observation_is_the_same_exactly_in_worlds_the_seat_cannot_tell_apart(me):
    # Reference world: BASE_8 with the seer (6) having checked 2 (wolf), 1 and 0 (humans).
    # For every one of the 168 deals (restricted to those where the public history is possible:
    # the game is still going on), with the seer of that deal having made checks of its own and
    # different secret ballots, the seat's observation and legal mask, for every decision kind,
    # are identical to the reference if and only if the seat cannot tell the two worlds apart:
    #   villager: any deal where it is still a villager (who is the seer and who the wolves is
    #             hidden);
    #   wolf:     same own role and the same pair of wolves (the seer is hidden);
    #   seer:     same own role and the same team for each checked seat (which of the unchecked
    #             seats are the wolves is hidden).
    ref = World(BASE_8, checks=SEER_CHECKS)
    same = differ = 0
    for index, deal in enumerate(all_deals()):
        seer = deal.index(S)
        # the other world's seer checked other seats (hidden unless it is `me`)
        checks = SEER_CHECKS if deal[me] == S else ((seer + 1) % N, (seer + 3) % N)
        world = World(deal, checks=checks, sentence=tuple((index * 7 + s) % 5 for s in range(N)))
        if not world.goes_on():
            continue
        hidden_only = indistinguishable(me, BASE_8, deal, SEER_CHECKS)
        for kind in ALL_KINDS:
            (obs_ref, legal_ref), (obs, legal) = ref.view(me, kind), world.view(me, kind)
            # the legal mask depends on public facts and the seat only
            assert np.array_equal(legal, legal_ref)
            if hidden_only:
                assert np.array_equal(obs, obs_ref), (deal, kind)
            else:
                assert not np.array_equal(obs, obs_ref), (deal, kind)
        same += hidden_only
        differ += not hidden_only
    # Both directions were tested, on these counts. Live deals: 168 minus the 18 whose two wolves
    # are both among the dead 3, 4, 7 (3 wolf pairs x 6 seer seats) = 150. Seat 0 (or 1) stays a
    # villager in C(7,2) x 5 = 105 deals, minus the 3 x 5 dead-wolf ones: 90. Dead villager 3
    # (or 4, 7): 105 minus the 1 x 5 deals with both wolves among the two other dead seats: 100.
    # A wolf: the same pair of wolves, the seer on any of the other 6 seats: 6. The seer: 2 a wolf,
    # 1 and 0 humans, so the other wolf on 3, 4, 5 or 7: 4.
    assert same == {0: 90, 1: 90, 3: 100, 4: 100, 7: 100, 2: 6, 5: 6, 6: 4}[me]
    assert same + differ == 150


def test_observation_ignores_secret_ballots_and_other_seats_knowledge():
    # Villager 0, sentence vote. Changing the secret sentence ballots, the seer's private checks and
    # the wolves' knowledge rows changes nothing in its observation.
    a = World(BASE_8, checks=(2,), sentence=(0,) * N)
    b = World(BASE_8, checks=(5, 0, 1), sentence=(3, 1, 4, 1, 5, 9, 2, 6))
    b.st.known[2, :N] = W  # a wolf's row, however odd, is not villager 0's business
    assert np.array_equal(a.view(0, SENTENCE_VOTE)[0], b.view(0, SENTENCE_VOTE)[0])


def test_observation_changes_with_what_the_seat_can_know():
    # Villager 0 in the suspect vote, reference world vs one public or private change at a time.
    def obs_of(world, me=0, kind=SUSPECT_VOTE):
        return world.view(me, kind)[0]

    base = World(BASE_8, checks=SEER_CHECKS)
    ref = obs_of(base)
    # its own role: seat 0 the seer instead of a villager (swap with seat 6)
    swapped = (S, V, W, V, V, W, V, V)
    assert obs_of(World(swapped, checks=SEER_CHECKS))[OBS.my_role] == S != ref[OBS.my_role]
    # a public vote: one more open vote on seat 5
    changed = World(BASE_8, checks=SEER_CHECKS)
    changed.votes[5] += 1
    assert obs_of(changed)[OBS.votes + 5] == ref[OBS.votes + 5] + 1
    # a public claim: seat 2 claims the seer and names seat 6
    changed = World(BASE_8, checks=SEER_CHECKS)
    publish_claim(changed.st, 2, S, 6, True)
    assert obs_of(changed)[OBS.named_wolf + 6] == 1 and obs_of(changed)[OBS.claimed + 2] == S
    # a public death: seat 1 dead
    changed = World(BASE_8, checks=SEER_CHECKS)
    changed.alive[1] = 0
    assert obs_of(changed)[OBS.alive + 1] == 0
    # a seer's check result (for the seer 6): checking 5 (a wolf) vs not checking it
    checked = World(BASE_8, checks=SEER_CHECKS + (5,))
    assert obs_of(checked, 6)[OBS.known + 5] == W
    assert obs_of(base, 6)[OBS.known + 5] == UNKNOWN
    # same check, but seat 5 a villager and seat 4 a wolf: the result differs
    other = World((V, V, W, V, W, V, S, V), checks=SEER_CHECKS + (5,))
    assert obs_of(other, 6)[OBS.known + 5] == NOT_WOLF


def test_builtin_strategies_decide_the_same_in_indistinguishable_worlds():
    # The built-in strategies, given the observation of each world the seat cannot tell apart and an
    # rng in the same state, take the same action; for every seat, kind and such world.
    ref = World(BASE_8, checks=SEER_CHECKS)
    params = np.array([1.0] + [0.0] * 7)
    memory = np.zeros(0)  # the built-in strategies use no memory
    for me in range(N):
        for deal in all_deals():
            checks = SEER_CHECKS if deal[me] == S else ((deal.index(S) + 2) % N,)
            world = World(deal, checks=checks)
            if not world.goes_on() or not indistinguishable(me, BASE_8, deal, SEER_CHECKS):
                continue
            for kind in ALL_KINDS:
                for play in (random_play, seer_led):
                    obs_r, legal_r = ref.view(me, kind)
                    obs_w, legal_w = world.view(me, kind)
                    a = play(kind, obs_r, legal_r, params, memory, np.random.default_rng(me))
                    b = play(kind, obs_w, legal_w, params, memory, np.random.default_rng(me))
                    assert a == b


# === 3. end to end through the kernel ===========================================================

# The recording strategy writes what it was given into a buffer the test owns. Its parameters are
# read-only (like its observation and legal mask) and its memory is too small for a game's records
# (MEMORY_PER_SEAT words), so params[2] holds the buffer's address (kernel_support's
# _address_as_pointer turns it back into a pointer, numba.carray into an array).
# Layout: [0] number of records, then records of REC entries from offset HEADER: action, kind, the
# OBS.size observation entries, the legal mask padded to MAX_ACTIONS with -1.
HEADER = 8
LEGAL_MAX = MAX_ACTIONS
REC = 2 + OBS.size + LEGAL_MAX
MAX_RECORDS = 64
ROW = HEADER + REC * MAX_RECORDS
PRIME = 1_000_000_007


@inlined
def _pick(legal, h):
    """The (h mod count)-th legal action."""
    count = 0
    for a in range(legal.size):
        if legal[a]:
            count += 1
    k = h % count
    for a in range(legal.size):
        if legal[a]:
            if k == 0:
                return a
            k -= 1
    return -1


@strategy
def probe(kind, obs, legal, params, memory, rng):
    """Deterministic in (kind, obs, legal): a hash of ALL of them picks among the legal actions
    (so any hidden information leaking into the observation would change its play), never uses
    the rng, and records what it was given. params[1] is a salt that varies the game."""
    h = (kind + 1) * 7919 + int(params[1])
    for i in range(obs.size):
        h = (h * 131 + obs[i] + 3) % PRIME
    for i in range(legal.size):
        h = (h * 131 + (2 if legal[i] else 1)) % PRIME
    action = _pick(legal, h)
    record = carray(_address_as_pointer(int(params[2])), ROW, np.float64)
    r = int(record[0])
    if r < MAX_RECORDS:
        base = HEADER + r * REC
        record[base] = action
        record[base + 1] = kind
        for i in range(obs.size):
            record[base + 2 + i] = obs[i]
        for i in range(LEGAL_MAX):
            record[base + 2 + obs.size + i] = (1.0 if legal[i] else 0.0) if i < legal.size else -1.0
    record[0] = r + 1
    return action


@strategy
def public_only(kind, obs, legal, params, memory, rng):
    """Deterministic in the PUBLIC part of the observation (and the legal mask): ignores its own
    role and its private knowledge. Used by every other seat, so that two worlds differing only
    in hidden roles produce the same public game. Claims now and then. params[1] is a salt."""
    n = obs[OBS.players]
    h = (kind + 7) * 7919 + int(params[1])
    for v in (obs[OBS.day], obs[OBS.victim], obs[OBS.suspect_a], obs[OBS.suspect_b]):
        h = (h * 131 + v + 3) % PRIME
    for j in range(n):
        h = (h * 131 + obs[OBS.alive + j] + 3) % PRIME
        h = (h * 131 + obs[OBS.named_wolf + j] + 3) % PRIME
        h = (h * 131 + obs[OBS.claimed + j] + 3) % PRIME
        h = (h * 131 + obs[OBS.votes + j] + 3) % PRIME
    for i in range(legal.size):
        h = (h * 131 + (2 if legal[i] else 1)) % PRIME
    if kind == CLAIM and h % 4 != 0:
        return legal.size - 1  # pass
    return _pick(legal, h)


def deck_for(deal, seed):
    """The deck that the kernel, drawing from default_rng(seed), deals out as exactly `deal`.

    The deal copies the deck and shuffles it with the rng's first draws: seat i receives
    deck[perm[i]], where perm is what shuffling 0..n-1 with the same draws gives.
    """
    n = len(deal)
    perm = np.empty(n, np.int64)
    shuffle_into(perm, np.arange(n, dtype=np.int64), n, np.random.default_rng(seed))
    deck = np.empty(n, np.int64)
    deck[perm] = deal
    return deck


def play_dealt(lineup, deal, seed, trace_rows=4000):
    """Play one game with `lineup`, dealt as `deal`, on default_rng(seed): the driver's state for
    the run with the deck replaced by deck_for(deal, seed) (the setup deals the config's deck, in
    role order). Returns (trace rows, tallies)."""
    n = len(deal)
    trace = np.zeros((trace_rows, TRACE_WIDTH), np.int64)
    st = driver.new_state(GAME, params_for(n), lineup, trace)
    assert sorted(st.deck[:n].tolist()) == sorted(deal)  # the same cards, in another order
    st.deck[:n] = deck_for(deal, seed)
    rows = GAME.kernel(st, 1, np.random.default_rng(seed))
    assert rows < trace_rows
    trace = trace[:rows]
    dealt = [int(r[4]) for r in trace if r[1] == TR.deal]
    assert dealt == list(deal), "deck_for reproduces the kernel's deal"
    return trace, driver.read_tallies(GAME, st)


def _test_slot(name, function, seed, log_address=0, flags=0, memory=0):
    """A strategy slot for these tests: params[1] is the salt (the seed), params[2] a log's
    address."""
    declared = tuple(StrategyParam(p, 0.0) for p in ("unused", "salt", "log"))
    info = StrategyInfo(name, function, f"test strategy {name}", params=declared, flags=flags,
                        memory=memory)
    return driver.Slot(name, info, (("unused", 0.0), ("salt", float(seed)),
                                    ("log", float(log_address))))


def play_recorded(deal, watched, seed=1, others=public_only, talk=True):
    """Play one game dealt as `deal`: seat `watched` plays `probe`, every other seat `others`.
    The strategies never draw from the rng, so `seed` varies the game through their salt
    (params[1]); the rng only deals (and deck_for fixes the deal).
    Returns (records, trace rows). A record is (action, kind, obs, legal)."""
    n = len(deal)
    flags = FLAG_TALKS if talk else 0
    recording = np.zeros(ROW, np.float64)
    slots = [_test_slot("others", others, seed, flags=flags),
             # the log's address is below 2**53: exact in a float64
             _test_slot("probe", probe, seed, recording.ctypes.data, flags=flags)]
    table = np.zeros((n, len(GAME.roles)), np.int64)
    table[watched, :] = 1
    trace, tallies = play_dealt(driver.Lineup(slots, table), deal, seed)
    assert tallies["games"][0] == 1
    row = recording
    count = int(row[0])
    assert count <= MAX_RECORDS
    records = []
    for r in range(count):
        base = HEADER + r * REC
        obs = row[base + 2:base + 2 + OBS.size].astype(np.int64)
        legal = row[base + 2 + OBS.size:base + REC].astype(np.int64)
        # the strategy is handed a mask of exactly 2n + 1 actions (seats, seats again, then pass)
        assert legal.size == LEGAL_MAX and set(legal[2 * n + 1:].tolist()) == {-1}
        records.append((int(row[base]), int(row[base + 1]), obs, legal[:2 * n + 1]))
    return records, trace


def expected_views(deal, watched, trace):
    """What seat `watched` may know at each of its decisions, rebuilt from the game's trace (the
    moderator's log): the public record (deaths, claims, open votes, suspects), its own role,
    and its private knowledge (wolves know the wolves; the seer its own check results).
    Yields (kind, expected obs, expected legal, the action the trace shows: n for a claim that
    passed) for every decision the seat's strategy is asked: a decision with a single legal
    action is taken by the engine without asking (checked here against the trace's action)."""
    n = len(deal)
    wolves = sum(1 for r in deal if r == W)
    dealt = [sum(1 for r in deal if r == role) for role in range(N_ROLES)]
    alive = [1] * n
    named = [0] * n
    cleared = [0] * n
    claimed = [-1] * n
    said = np.full((n, n), -1)
    votes = [0] * n
    voted = [-1] * n
    ballot = [-1] * n
    opened = {}
    hanged = -1
    known = [UNKNOWN] * n
    known[watched] = deal[watched]
    if deal[watched] == W:
        for s in range(n):
            if deal[s] == W:
                known[s] = W
    day = 0
    victim = -1
    suspects = (-1, -1)
    voting_started = False

    def obs(kind, at_night):
        o = np.full(OBS.size, -1, np.int64)
        head = [kind, watched, deal[watched], n, -1, day, -1 if at_night else victim,
                suspects[0] if kind == SENTENCE_VOTE else -1,
                suspects[1] if kind == SENTENCE_VOTE else -1, wolves]
        o[:OBS.dealt] = head
        o[OBS.dealt:OBS.dealt + N_ROLES] = dealt
        o[OBS.hanged] = hanged
        for piece, values in ((OBS.alive, alive), (OBS.known, known), (OBS.named_wolf, named),
                              (OBS.named_clear, cleared), (OBS.claimed, claimed),
                              (OBS.votes, votes), (OBS.voted, voted), (OBS.ballot, ballot)):
            o[piece:piece + n] = values
        for c in range(n):
            o[OBS.said + c * MAX_PLAYERS:OBS.said + c * MAX_PLAYERS + n] = said[c]
        o[OBS.charmed] = o[OBS.potions] = o[OBS.potions + 1] = 0  # nothing private of others
        return o

    def living_except(exclude):
        return np.array([1 if alive[s] and s != exclude else 0 for s in range(n)] + [0] * (n + 1))

    def asked(kind, at_night, legal, action):
        """The decision, if the strategy is asked it: not when its one legal action is forced."""
        assert legal[action], (kind, action)
        if legal.sum() == 1:
            return []
        return [(kind, obs(kind, at_night), legal, action)]

    rows = [tuple(int(x) for x in r) for r in trace]
    i = 0
    while i < len(rows):
        _step, code, actor, target, value, extra = rows[i]
        if code == TR.night:
            day = value
            votes = [0] * n  # a new day's open vote has no votes yet
            voted = [-1] * n
        elif code == TR.seer_check:
            if actor == watched:
                yield from asked(SEER_CHECK, True, living_except(watched), target)
                known[target] = W if value == WOLF else NOT_WOLF
        elif code == TR.wolf_kill:
            if actor == watched:
                yield from asked(WOLF_KILL, True, living_except(-1), target)
            victim = target
        elif code == TR.death:
            alive[actor] = 0
        elif code == TR.day:
            voting_started = False
            suspects = (-1, -1)
            # Discussion: every living seat in voting order (clockwise from the victim's right)
            # is asked in turn; claims already made are public for the later ones.
            order = [(victim + k) % n for k in range(1, n + 1) if alive[(victim + k) % n]]
            for seat in order:
                made = i + 1 < len(rows) and rows[i + 1][1] == TR.claim and rows[i + 1][2] == seat
                if seat == watched:
                    legal = living_except(watched)
                    legal[n:2 * n] = legal[:n]
                    legal[2 * n] = 1
                    if made:
                        claim = rows[i + 1][3] + (0 if rows[i + 1][4] else n)
                    yield from asked(CLAIM, False, legal, claim if made else 2 * n)
                if made:
                    i += 1
                    _, _, _, named_seat, is_wolf, _ = rows[i]
                    named[named_seat] += 1 if is_wolf else 0
                    cleared[named_seat] += 0 if is_wolf else 1
                    said[seat][named_seat] = 1 if is_wolf else 0
                    claimed[seat] = S
        elif code == TR.suspect_vote:
            voting_started = True
            if actor == watched:
                yield from asked(SUSPECT_VOTE, False, living_except(watched), target)
            votes[target] += 1
            voted[actor] = target
        elif code == TR.suspects:
            suspects = (actor, target)
        elif code == TR.sentence_vote:
            if actor == watched:
                legal = np.zeros(2 * n + 1, np.int64)
                legal[list(suspects)] = 1
                yield from asked(SENTENCE_VOTE, False, legal, target)
            opened[actor] = target
        elif code == TR.hanged:  # the ballots were opened together, then the hanging
            hanged = actor
            ballot = [opened.get(s, -1) for s in range(n)]
            opened = {}
        i += 1


DEALS_8 = [BASE_8, (S, W, V, V, V, V, W, V), (V, V, V, W, S, V, V, W)]


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("deal", DEALS_8)
def test_kernel_hands_each_seat_exactly_what_it_may_know(deal, seed):
    # For every seat of the table in turn, a real game in which that seat plays `probe` (the
    # others `public_only`): every (kind, observation, legal mask) the kernel handed the seat equals
    # the seat's knowledge rebuilt from the trace, decision by decision, and the action the trace
    # shows is the one the probe took. Nothing more reached the seat.
    for watched in range(N):
        records, trace = play_recorded(deal, watched, seed)
        expected = list(expected_views(deal, watched, trace))
        assert len(records) == len(expected), watched
        for (action, kind, obs, legal), (e_kind, e_obs, e_legal, e_action) in zip(records, expected):
            assert kind == e_kind == obs[OBS.kind]
            assert np.array_equal(obs, e_obs), (watched, kind, obs - e_obs)
            assert np.array_equal(legal, e_legal)
            assert action == e_action


def public_rows(trace):
    """The public part of a trace: who acted on whom in the open, and the outcomes. Drops the deal,
    the seer's private checks, the pack's spokesman (who the wolves are) and the roles of the dead."""
    out = []
    for step, code, actor, target, value, extra in trace.tolist():
        if code in (TR.deal, TR.seer_check):
            continue
        if code == TR.wolf_kill:
            actor = -1
        if code == TR.death:
            value = -1
        out.append((step, code, actor, target, value, extra))
    return out


def same_records(a, b):
    return len(a) == len(b) and all(
        x[0] == y[0] and x[1] == y[1] and np.array_equal(x[2], y[2]) and np.array_equal(x[3], y[3])
        for x, y in zip(a, b))


def swapped(deal, s, t):
    out = list(deal)
    out[s], out[t] = out[t], out[s]
    return tuple(out)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_villager_and_wolf_play_the_same_when_the_seer_is_someone_else(seed):
    # BASE_8: wolves 2, 5; seer 6. Re-deal with the seer's card swapped with villager 3's (seer at
    # 3, villager at 6): hidden from every villager and every wolf. Watched seat: villager 0, then
    # villager 7, then wolf 2, then wolf 5. The whole public game is the same, and every
    # observation the watched seat received (so every decision it took) is identical.
    other = swapped(BASE_8, 3, 6)
    for watched in (0, 7, 2, 5):
        rec_a, trace_a = play_recorded(BASE_8, watched, seed)
        rec_b, trace_b = play_recorded(other, watched, seed)
        assert public_rows(trace_a) == public_rows(trace_b)
        assert same_records(rec_a, rec_b)
        # the worlds really differ in secret: different seats did the seer's checks
        checks_a = {int(r[2]) for r in trace_a if r[1] == TR.seer_check}
        checks_b = {int(r[2]) for r in trace_b if r[1] == TR.seer_check}
        assert checks_a <= {6} and checks_b <= {3} and checks_a | checks_b


def _seen_or_dead(trace, seer):
    """Seats the seer checked or that died in this game."""
    out = set()
    for r in trace.tolist():
        if (r[1] == TR.seer_check and r[2] == seer) or r[1] == TR.death:
            out.add(r[3] if r[1] == TR.seer_check else r[2])
    return out


def test_seer_plays_the_same_when_unchecked_players_swap_wolf_and_villager():
    # The seer (6) learns only the teams of the seats it checks. Play a game, then re-deal it with a
    # wolf and a villager swapped among the seats the seer never checked and that never died: the
    # seer cannot tell the two deals apart, and its every observation and decision is identical.
    # (The public-only players ignore who speaks for the pack, so the public game is the same.)
    found = 0
    for seed in range(1, 40):
        rec_a, trace_a = play_recorded(BASE_8, 6, seed)
        untouched = set(range(N)) - _seen_or_dead(trace_a, 6) - {6}
        wolves = [s for s in untouched if BASE_8[s] == W]
        humans = [s for s in untouched if BASE_8[s] == V]
        if not wolves or not humans:
            continue
        other = swapped(BASE_8, wolves[0], humans[0])
        rec_b, trace_b = play_recorded(other, 6, seed)
        assert public_rows(trace_a) == public_rows(trace_b)
        assert same_records(rec_a, rec_b)
        found += 1
    assert found >= 3  # the situation arose in several games


def test_seer_observation_changes_once_it_checks_a_swapped_seat():
    # The converse: swap a wolf with a villager where the seer (6) checks one of the two while both
    # are alive. Up to and including the decision to check, the seer's records are identical; its
    # next observation differs (it has learnt a different team for that seat).
    found = 0
    for seed in range(1, 60):
        rec_a, trace_a = play_recorded(BASE_8, 6, seed)
        rows = trace_a.tolist()
        checks = [(i, r[3]) for i, r in enumerate(rows) if r[1] == TR.seer_check]
        if not checks:
            continue
        at, target = checks[0]  # the first night's check
        dead_before = {r[2] for r in rows[:at] if r[1] == TR.death}
        partners = [s for s in range(N) if s not in dead_before and s not in (6, target)
                    and ROLE_TEAM[BASE_8[s]] != ROLE_TEAM[BASE_8[target]]]
        check_index = next(k for k, rec in enumerate(rec_a) if rec[1] == SEER_CHECK)
        if not partners or len(rec_a) <= check_index + 1:
            continue
        other = swapped(BASE_8, target, partners[0])
        rec_b, _ = play_recorded(other, 6, seed)
        if len(rec_b) <= check_index + 1:  # the night's kill ended that world's game
            continue
        assert same_records(rec_a[:check_index + 1], rec_b[:check_index + 1])
        next_a, next_b = rec_a[check_index + 1][2], rec_b[check_index + 1][2]
        assert next_a[OBS.known + target] != next_b[OBS.known + target]
        found += 1
    assert found >= 3


def test_own_role_changes_the_first_observation():
    # Positive control end to end: seat 0 a villager vs seat 0 the seer (swap with 6): the very
    # first observation it gets differs (its role; and as the seer it is asked to check at night).
    rec_a, _ = play_recorded(BASE_8, 0)
    rec_b, _ = play_recorded(swapped(BASE_8, 0, 6), 0)
    assert rec_a[0][2][OBS.my_role] == V and rec_b[0][2][OBS.my_role] == S
    assert rec_b[0][1] == SEER_CHECK and rec_a[0][1] != SEER_CHECK


def test_random_strategy_end_to_end_with_the_real_rng():
    # The built-in `random` strategy at every seat, and a re-deal that swaps the seer's card with a
    # villager's (6 <-> 3). The rng draws are the same in both games (the deal is the same
    # permutation of a different deck, and each living seat draws once per decision), so until one
    # of the two swapped seats dies the public games are identical, decision for decision.
    for seed in range(1, 30):
        traces = []
        for deal in (BASE_8, swapped(BASE_8, 3, 6)):
            cfg = config.load("werewolf/base-random.toml", players=N)
            trace, _ = play_dealt(cfg.lineup, deal, seed)
            traces.append(public_rows(trace))
        a, b = traces
        cut = next((k for k, r in enumerate(a) if r[1] == TR.death and r[2] in (3, 6)), len(a))
        assert a[:cut + 1] == b[:cut + 1], seed


def test_votes_piece_holds_only_todays_votes():
    # Declared meaning: votes received so far TODAY. Before the suspect vote of a day (the night's
    # seer check and pack decision, the discussion) nobody has voted today: all zero.
    for seed in range(1, 6):
        for watched in range(N):
            records, _ = play_recorded(BASE_8, watched, seed)
            for _action, kind, obs, _legal in records:
                if kind in (SEER_CHECK, WOLF_KILL, CLAIM):
                    assert not obs[OBS.votes:OBS.votes + N].any(), (seed, watched, kind)


# === the seat's memory ==========================================================================

MEMORY_WORDS = 3
LOG_ENTRY = 2 + MEMORY_WORDS  # seat, day, then the memory words as the strategy found them
LOG_MAX = 4000


@strategy
def remembers(kind, obs, legal, params, memory, rng):
    """Plays uniformly; logs its seat, the day and its memory as it finds it, then writes into its
    memory: [0] its decisions so far this game, [1] 1 + its seat, [2] 1 + the day."""
    log = carray(_address_as_pointer(int(params[2])), 1 + LOG_ENTRY * LOG_MAX, np.float64)
    r = int(log[0])
    if r < LOG_MAX:
        base = 1 + r * LOG_ENTRY
        log[base] = obs[OBS.me]
        log[base + 1] = obs[OBS.day]
        for i in range(MEMORY_WORDS):
            log[base + 2 + i] = memory[i]
    log[0] = r + 1
    memory[0] += 1.0
    memory[1] = obs[OBS.me] + 1
    memory[2] = obs[OBS.day] + 1
    return uniform_legal(legal, rng)


@pytest.mark.parametrize("players", [8, 23])
def test_memory_is_the_seats_own_and_fresh_every_game(players):
    # The one writable argument a strategy gets must not be a channel: every seat plays
    # `remembers` (one slot, so any sharing between seats would show), over several games of one
    # call. At each decision a seat's memory holds exactly what that seat wrote at its own
    # previous decision of the same game: zeros at its first decision of every game, then its own
    # count, its own seat and the day of that decision; never another seat's marks, nothing
    # carried over from the previous game.
    games = 6
    log = np.zeros(1 + LOG_ENTRY * LOG_MAX, np.float64)
    slot = _test_slot("remembers", remembers, 0, log.ctypes.data, flags=FLAG_TALKS,
                      memory=MEMORY_WORDS)
    lineup = driver.Lineup([slot], np.zeros((players, len(GAME.roles)), np.int64))
    tallies, _ = driver.play(GAME, params_for(players), lineup, games,
                             np.random.default_rng(players))
    assert tallies["games"][0] == games
    count = int(log[0])
    assert 0 < count <= LOG_MAX
    entries = log[1:1 + count * LOG_ENTRY].reshape(count, LOG_ENTRY).astype(np.int64).tolist()
    # Split the log into games: no game of these tables ends before night 2 (night 1 and day 1
    # kill at most one wolf and two players), and every game's first decision is the pack's on
    # night 1, so a game starts exactly where the day goes down.
    split = [0] + [k for k in range(1, count) if entries[k][1] < entries[k - 1][1]] + [count]
    assert len(split) - 1 == games
    for first, last in zip(split, split[1:]):
        previous = {}  # seat -> (its decisions so far in this game, the day of the last one)
        for seat, day, *memory in entries[first:last]:
            if seat not in previous:
                assert memory == [0] * MEMORY_WORDS, (seat, memory)
                previous[seat] = (1, day)
                continue
            made, last_day = previous[seat]
            assert memory == [made, seat + 1, last_day + 1], (seat, memory, made, last_day)
            previous[seat] = (made + 1, day)
