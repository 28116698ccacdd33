"""Scripted strategies for 生死逆謀 Vita Mors Conspiro.

Each strategy is compiled by `strategies.common.strategy` with the platform's one signature
(kind, obs, legal, params, memory, rng) -> action; it reads the observation through the named
offsets in `OBS`, never the game state, and keeps what it learns across the game in its seat's
`memory`. Its helpers are `@compiled`, not `@inlined`: they call one another from many places, and
inlining them all into every caller at the Numba level made the first compile five times longer
(312 s of CPU against 62 s) for no gain at run time; LLVM still inlines the small ones.

* ``random``      - uniform over the legal actions; blind (it is shown no observation) and silent.
* ``conspirator`` - plays its faction the way people do. An exile believes the ranks it knows and
  the claims of players it does not suspect, votes each card where it extends a pattern (three of
  a rank on the Life Altar, two pairs of different ranks on the Death Altar), holds back a card
  that fits nowhere (removes a scroll) with probability `patience`, verifies a claim that would
  complete a pattern with Death's Gaze and looks at a suspect's faction with Secret Peek
  (probability `vigilance`; with no Gaze left it looks at the claimant's faction), swaps two
  altar cards into a pattern or a pair with Brink of Life and Death,
  always tells the truth, and votes for the ritual when its beliefs show a pattern (one that rests
  on claims it has not verified only with probability `faith`). It remembers who voted against a clear placement and who was caught lying, and
  stops believing a player whose suspicion reaches `doubt`. A jester knows the jesters and what
  the scrolls hide: it always plays its card (the clock runs toward the card limit), announces a
  rank that plants a false pattern or hides a real one (probability `bluff`), votes with the table
  except to keep a real card out of a pattern, sets Veil and Swap as traps under Death's Gaze
  (and Prolong Life or Requiem too, unless it leaves a Gaze real: half the time in expert mode),
  springs a Veil or a Swap on a card that would complete a pattern, covers its fellow jesters'
  lies, votes for a ritual whose pattern it has verified (the jesters initiate it if they are
  most of the yes votes), and one jester (the first in turn order from the sacrificer) votes for
  a ritual it knows to be doomed: with a believing exile that makes a tie, which the exiles
  initiate.

  The exiles also read the public tells (`sacrifices`, `read_rituals`): every turn is an offer or
  a removal, so the table knows how many cards each seat offered and how many scrolls it removed.
  Jesters run the clock and exiles hold back cards that fit nowhere, so an offer adds `play_tell`
  to a seat's suspicion and a removal takes `remove_trust` off it; a yes vote for a ritual that
  did not start, in which the exile saw no pattern, adds `backing_tell`. An exile starts a ritual
  on a pattern that rests only on the word of seats below `ritual_doubt` (and looks at the faction
  of a seat at or above it), on any other believed pattern with probability `faith`, and on any
  believed pattern at the last vote (the card limit reached: no ritual means the jesters win). A
  jester may remove a scroll instead of offering (`disguise`), to look like an exile.

  Two ways of playing from outside that family, off by default (at 0 they draw nothing from the
  rng, so the default play is the same, draw for draw): an exile may spend its feather on a
  Secret Peek at its chief suspect with no claim to check (`scout`), and a jester may spend its own
  on a Secret Peek it knows to be real, to look at an exile and call it a jester (`frame`).
"""

from simulator.games.base import FLAG_TALKS, Layout, StrategyInfo, StrategyParam
from simulator.games.vitamors.declaration import (
    ALTAR, DECISION, EFFECT, EXILE, FACTION_SILENT, JESTER, MAX_ALTAR, MAX_PLAYERS, MAX_SCROLLS,
    N_TILES, OBS, OFFER, PROPOSAL, RITUAL_VOTE, SCROLL, SILENT,
)

from .common import RANDOM, compiled, random_double, strategy, uniform_index, uniform_legal

COMPLETE = 100.0   # the value of a pattern that makes the ritual succeed
NONE = -2          # "no card appended" for the altar values

# memory layout (float64 words)
MEMORY = Layout((
    ("judged", 1, "judgements already read"),
    ("preference", 1, "my clear preference at the last judgement, + 1 (0: none)"),
    ("preference_at", 1, "the judgement count it was for"),
    ("news", 1, "news + 1 when suspicion and beliefs were last derived (0: never)"),
    ("dissent", MAX_PLAYERS, "per seat: votes against a clear placement"),
    ("suspicion", MAX_PLAYERS, "per seat: suspicion (derived)"),
    ("belief", 2 * MAX_ALTAR, "per altar slot: the rank I believe, -1"),
    ("rituals", 1, "ritual votes already read"),
    ("backed", MAX_PLAYERS, "per seat: yes votes for rituals I saw no pattern in"),
    ("offered", MAX_PLAYERS, "per seat: cards offered so far (derived)"),
    ("removed", MAX_PLAYERS, "per seat: scrolls removed so far (derived)"),
    ("own_peek", 1, "1 from a proposal made for a Secret Peek of my own accord (`scout`, "
                    "`frame`) until its scroll (a jester) or its target (an exile) is named"),
))
M = MEMORY.offsets("Memory")

(P_DOUBT, P_PATIENCE, P_VIGILANCE, P_BLUFF, P_FAITH, P_PLAY_TELL, P_REMOVE_TRUST,
 P_BACKING_TELL, P_RITUAL_DOUBT, P_DISGUISE, P_SCOUT, P_FRAME) = range(12)

# In expert mode an exile holds back a card that fits nowhere with half the chance `patience`
# gives (its schemes and the arcane tiles make a held-back card cost more: the exiles' best
# responses there held back half as often). Once a parameter of its own (`expert_patience`, 0.5);
# a strategy has at most 12, and the ones for play from outside the family needed the room.
EXPERT_PATIENCE = 0.5
# The chance a jester sets a rule-changing scheme (Prolong Life, Requiem) under Secret Peek
# instead of Death's Gaze, leaving a Gaze real. Once a parameter (`open_gaze`); the jesters' best
# responses over it gained nothing beyond its interval (+0.4 points at most), so it is fixed.
OPEN_GAZE = 0.5


# --- what a seat believes -------------------------------------------------------------------------
@compiled
def credible(obs, memory, seat, doubt):
    """Do I believe what `seat` says? Myself and known exiles yes, known jesters no, the others
    while their suspicion is below `doubt`."""
    if seat < 0:
        return False
    if seat == obs[OBS.me]:
        return True
    known = obs[OBS.known_faction + seat]
    if known == EXILE:
        return True
    if known == JESTER:
        return False
    return memory[M.suspicion + seat] < doubt


@compiled
def read_votes(obs, memory):
    """After a judgement: every seat that voted against my clear preference is a little more
    suspect (remembered for the rest of the game)."""
    judged = obs[OBS.judged]
    if memory[M.judged] < judged:
        memory[M.judged] = judged
        pref = memory[M.preference] - 1.0
        if pref >= 0.0 and memory[M.preference_at] == judged - 1:
            for s in range(obs[OBS.players]):
                vote = obs[OBS.votes + s]
                if vote >= 0 and vote != pref:
                    memory[M.dissent + s] += 1.0
        memory[M.preference] = 0.0


@compiled
def read_rituals(obs, memory):
    """After a ritual vote that did not start the ritual: every seat that voted yes while I saw
    no pattern is remembered (a jester backs a doomed pattern the table was told of; an exile
    backs what it believes, and I would have believed it too)."""
    held = obs[OBS.rituals]
    if memory[M.rituals] < held:
        memory[M.rituals] = held
        me = obs[OBS.me]
        if obs[OBS.ritual_votes + me] == RITUAL_VOTE.no:
            for s in range(obs[OBS.players]):
                if s != me and obs[OBS.ritual_votes + s] == RITUAL_VOTE.yes:
                    memory[M.backed + s] += 1.0


@compiled
def sacrifices(obs, offered, removed):
    """Every seat's cards offered and scrolls removed so far, into `offered` and `removed` (both
    are public). A seat's turns are every n-th from the first player's; each turn is an offer or
    a removal, and the cards it offered are the altar cards (and the one in the sacrifice area)
    it is named with. While the sacrificer decides its offer, its turn is not counted yet. One
    pass over the altars serves every seat."""
    n = obs[OBS.players]
    for s in range(n):
        offered[s] = 0.0
        removed[s] = 0.0
    first = obs[OBS.first_player]
    turn = obs[OBS.turn]
    if first < 0 or turn <= 0:
        return
    if obs[OBS.sac_by] >= 0:
        offered[obs[OBS.sac_by]] += 1.0
    for altar in range(2):
        for i in range(obs[OBS.altar_size + altar]):
            by = obs[OBS.altar_by + altar * MAX_ALTAR + i]
            if by >= 0:
                offered[by] += 1.0
    kind = obs[OBS.kind]
    deciding = kind == DECISION.offer or kind == DECISION.remove_scroll
    for s in range(n):
        # turns 1..turn are played by seats first, first + 1, ... (mod n): the seat plays turn
        # t = r + 1 + k n for k = 0, 1, ..., where r is its distance from the first player
        r = (s - first) % n
        turns = 0 if r + 1 > turn else (turn - r - 1) // n + 1
        if deciding and s == obs[OBS.sacrificer]:
            turns -= 1
        removed[s] = max(turns - offered[s], 0.0)


@compiled
def evidence_of_card(obs, sus, known, claim, claimer, report, reporter):
    """Suspicion from what was said about one card: a claim I know to be false marks a liar; a
    claim and a report that disagree cast doubt on both."""
    if known >= 0:
        if claim >= 0 and claim != known:
            sus[claimer] += 10.0
        if report >= 0 and report != known:
            sus[reporter] += 10.0
    elif claim >= 0 and report >= 0 and claim != report:
        sus[claimer] += 1.0
        sus[reporter] += 1.0


@compiled
def derive(obs, memory, params, naive):
    """Suspicion of every seat and the rank I believe for every altar card, derived once per
    public event (cached under `news`). An exile believes known ranks, then credible reports, then
    credible claims; a jester (`naive`) derives what the table believes: reports, then claims."""
    news = obs[OBS.news] + 1.0
    if memory[M.news] == news:
        return
    memory[M.news] = news
    n = obs[OBS.players]
    me = obs[OBS.me]
    doubt = params[P_DOUBT]
    sus = memory[M.suspicion:M.suspicion + MAX_PLAYERS]
    for s in range(n):
        sus[s] = memory[M.dissent + s]
    if not naive:
        # the public tells: jesters run the clock (they offer their cards) and back rituals the
        # table was told of; exiles hold back cards that fit nowhere (they remove scrolls)
        offered = memory[M.offered:M.offered + MAX_PLAYERS]
        removed = memory[M.removed:M.removed + MAX_PLAYERS]
        sacrifices(obs, offered, removed)
        for s in range(n):
            sus[s] += params[P_PLAY_TELL] * offered[s] - params[P_REMOVE_TRUST] * removed[s] \
                + params[P_BACKING_TELL] * memory[M.backed + s]
        for altar in range(2):
            for i in range(obs[OBS.altar_size + altar]):
                at = altar * MAX_ALTAR + i
                evidence_of_card(obs, sus, obs[OBS.altar_known + at], obs[OBS.altar_claim + at],
                                 obs[OBS.altar_claimer + at], obs[OBS.altar_report + at],
                                 obs[OBS.altar_reporter + at])
        if obs[OBS.sac_by] >= 0:
            evidence_of_card(obs, sus, obs[OBS.sac_known], obs[OBS.sac_claim],
                             obs[OBS.sac_claimer], obs[OBS.sac_report], obs[OBS.sac_reporter])
        for t in range(n):
            said = obs[OBS.faction_claim + t]
            by = obs[OBS.faction_claimer + t]
            if said >= 0 and by != me and obs[OBS.known_faction + by] != JESTER \
                    and sus[by] < doubt:
                sus[t] += 3.0 if said == JESTER else -1.0
        for s in range(n):
            known = obs[OBS.known_faction + s]
            if s == me or known == EXILE:
                sus[s] = -100.0
            elif known == JESTER:
                sus[s] = 100.0
    believe_altars(obs, memory, doubt, naive)


@compiled
def believed(obs, memory, doubt, naive, known, claim, claimer, report, reporter):
    """The rank I take a card to have, -1 when I cannot tell."""
    if naive:
        return report if report >= 0 else claim
    if known >= 0:
        return known
    if report >= 0 and credible(obs, memory, reporter, doubt):
        return report
    if claim >= 0 and credible(obs, memory, claimer, doubt):
        return claim
    return -1


@compiled
def believe_altars(obs, memory, doubt, naive):
    """The rank I take each altar card to have (`believed`), into memory[M.belief + ...]."""
    for altar in range(2):
        for i in range(obs[OBS.altar_size + altar]):
            at = altar * MAX_ALTAR + i
            memory[M.belief + at] = believed(obs, memory, doubt, naive, obs[OBS.altar_known + at],
                                          obs[OBS.altar_claim + at], obs[OBS.altar_claimer + at],
                                          obs[OBS.altar_report + at],
                                          obs[OBS.altar_reporter + at])


@compiled
def sacrifice_belief(obs, memory, doubt, naive):
    return believed(obs, memory, doubt, naive, -1 if naive else obs[OBS.sac_known],
                    obs[OBS.sac_claim], obs[OBS.sac_claimer], obs[OBS.sac_report],
                    obs[OBS.sac_reporter])


# --- how close the altars are to a pattern --------------------------------------------------------
@compiled
def life_value(memory, count, extra):
    """The Life Altar's believed ranks (plus `extra` appended unless NONE): COMPLETE with three
    consecutive cards of a rank, else 1 for a single known card at the end, 4 for two alike."""
    total = count + (0 if extra == NONE else 1)
    run = 0
    last = -1.0
    for i in range(total):
        rank = memory[M.belief + i] if i < count else extra
        if rank >= 0 and rank == last:
            run += 1
        else:
            run = 1 if rank >= 0 else 0
        last = rank
        if run >= 3:
            return COMPLETE
    return 1.0 if run == 1 else (4.0 if run == 2 else 0.0)


@compiled
def death_value(memory, count, extra):
    """The Death Altar's believed ranks (plus `extra`): COMPLETE with two pairs of different
    ranks, else 3 for one pair and 1 for a single known card at the end waiting for its pair."""
    total = count + (0 if extra == NONE else 1)
    first = -1.0
    last = -1.0
    single = False
    for i in range(total):
        rank = memory[M.belief + MAX_ALTAR + i] if i < count else extra
        if rank >= 0 and rank == last and single:
            if first < 0:
                first = rank
            elif rank != first:
                return COMPLETE
            single = False
        else:
            single = rank >= 0
        last = rank
    return (3.0 if first >= 0 else 0.0) + (1.0 if single else 0.0)


@compiled
def gains(obs, memory, rank):
    """How much placing a card of `rank` on the Life / the Death Altar changes its value."""
    life = obs[OBS.altar_size + ALTAR.life]
    death = obs[OBS.altar_size + ALTAR.death]
    gain_life = life_value(memory, life, rank) - life_value(memory, life, NONE)
    gain_death = death_value(memory, death, rank) - death_value(memory, death, NONE)
    return gain_life, gain_death


@compiled
def preferred(gain_life, gain_death):
    """The altar a card should go to (a tie: the Death Altar, which has more room)."""
    return ALTAR.life if gain_life > gain_death else ALTAR.death


@compiled
def pattern_shown(obs, memory):
    """Do the believed ranks show a pattern (the ritual would succeed)?"""
    return (life_value(memory, obs[OBS.altar_size + ALTAR.life], NONE) >= COMPLETE
            or death_value(memory, obs[OBS.altar_size + ALTAR.death], NONE) >= COMPLETE)


@compiled
def true_pattern(obs, memory):
    """With the ranks a jester knows put in place of the table's beliefs: still a pattern?"""
    for altar in range(2):
        for i in range(obs[OBS.altar_size + altar]):
            at = altar * MAX_ALTAR + i
            if obs[OBS.altar_known + at] >= 0:
                memory[M.belief + at] = obs[OBS.altar_known + at]
    shown = pattern_shown(obs, memory)
    memory[M.news] = 0.0  # the beliefs were overwritten: derive them again next time
    return shown


@compiled
def verified_pattern(obs, memory):
    """Do the altars show a pattern with only what I have verified: the ranks I know and what
    known exiles (myself included) said? (The beliefs are overwritten: derived again next time.)"""
    for altar in range(2):
        for i in range(obs[OBS.altar_size + altar]):
            at = altar * MAX_ALTAR + i
            rank = obs[OBS.altar_known + at]
            if rank < 0:
                reporter = obs[OBS.altar_reporter + at]
                claimer = obs[OBS.altar_claimer + at]
                if reporter >= 0 and obs[OBS.known_faction + reporter] == EXILE:
                    rank = obs[OBS.altar_report + at]
                elif claimer >= 0 and obs[OBS.known_faction + claimer] == EXILE:
                    rank = obs[OBS.altar_claim + at]
            memory[M.belief + at] = rank
    shown = pattern_shown(obs, memory)
    memory[M.news] = 0.0
    return shown


@compiled
def trusted_pattern(obs, memory, level):
    """Do the altars show a pattern when only what seats below suspicion `level` said counts
    (and the ranks I know)? (The beliefs are overwritten: derived again next time.)"""
    believe_altars(obs, memory, level, False)
    shown = pattern_shown(obs, memory)
    memory[M.news] = 0.0
    return shown


@compiled
def last_ritual_vote(obs):
    """Is this the last ritual vote (the altars hold the card limit: no ritual now, and the
    jesters win)?"""
    return obs[OBS.altar_size] + obs[OBS.altar_size + 1] >= obs[OBS.card_limit]


@compiled
def altars_value(obs, memory):
    return life_value(memory, obs[OBS.altar_size + ALTAR.life], NONE) \
        + death_value(memory, obs[OBS.altar_size + ALTAR.death], NONE)


@compiled
def swap_improves(obs, memory):
    """Would swapping two adjacent altar cards bring the believed altars a pattern or a pair
    (a value gain of 3 or more) they do not show now?"""
    now = altars_value(obs, memory)
    if now >= COMPLETE:
        return False
    for altar in range(2):
        base = M.belief + altar * MAX_ALTAR
        for i in range(obs[OBS.altar_size + altar] - 1):
            memory[base + i], memory[base + i + 1] = memory[base + i + 1], memory[base + i]
            value = altars_value(obs, memory)
            memory[base + i], memory[base + i + 1] = memory[base + i + 1], memory[base + i]
            if value - now >= 3.0:
                return True
    return False


# --- choosing among actions -----------------------------------------------------------------------
@compiled
def scroll_with_effect(obs, legal, effect, rng):
    """A uniformly random legal scroll position whose tile performs `effect` (-1 if none)."""
    count = 0
    for p in range(MAX_SCROLLS):
        if legal[p] and obs[OBS.effects + obs[OBS.scroll_tile + p]] == effect:
            count += 1
    if count == 0:
        return -1
    pick = uniform_index(count, rng)
    for p in range(MAX_SCROLLS):
        if legal[p] and obs[OBS.effects + obs[OBS.scroll_tile + p]] == effect:
            if pick == 0:
                return p
            pick -= 1
    return -1


@compiled
def all_schemes(obs, tile):
    """Are the scythes of every position under `tile` known to have been replaced by schemes?
    (Only when the replaced scythes are set aside face up, rules.replaced_scythes = "shown".)"""
    replaced = obs[OBS.replaced + tile]
    if replaced < 0:
        return False
    positions = 0
    for p in range(MAX_SCROLLS):
        if obs[OBS.scroll_tile + p] == tile:
            positions += 1
    return replaced >= positions


@compiled
def present_with_effect(obs, effect):
    """Is a scroll still on the board under a tile that performs `effect` (and that may still
    hold a scythe: not one whose every scythe was seen set aside)?"""
    for p in range(MAX_SCROLLS):
        tile = obs[OBS.scroll_tile + p]
        if tile >= 0 and obs[OBS.scroll_state + p] == SCROLL.present \
                and obs[OBS.effects + tile] == effect and not all_schemes(obs, tile):
            return True
    return False


@compiled
def known_position(obs, legal, effect, tiles_only, rng):
    """A legal position a jester knows to hold an item performing `effect`, at random among
    them (-1 if none); with `tiles_only`, a scythe's tile only (not a scheme)."""
    limit = N_TILES if tiles_only else 1 << 30
    count = 0
    for p in range(MAX_SCROLLS):
        item = obs[OBS.scroll_known + p]
        if legal[p] and 0 <= item < limit and obs[OBS.effects + item] == effect:
            count += 1
    if count == 0:
        return -1
    pick = uniform_index(count, rng)
    for p in range(MAX_SCROLLS):
        item = obs[OBS.scroll_known + p]
        if legal[p] and 0 <= item < limit and obs[OBS.effects + item] == effect:
            if pick == 0:
                return p
            pick -= 1
    return -1


@compiled
def real_peek_left(obs):
    """Does a jester know of a Secret Peek scythe still on the board?"""
    for p in range(MAX_SCROLLS):
        item = obs[OBS.scroll_known + p]
        if item >= 0 and item < N_TILES and obs[OBS.scroll_state + p] == SCROLL.present \
                and obs[OBS.effects + item] == EFFECT.see_faction:
            return True
    return False


@compiled
def present_known_scheme(obs, effect):
    for p in range(MAX_SCROLLS):
        item = obs[OBS.scroll_known + p]
        if item >= 0 and obs[OBS.scroll_state + p] == SCROLL.present \
                and obs[OBS.effects + item] == effect:
            return True
    return False


@compiled
def unreported(obs, s):
    """Has nobody said publicly what `s`'s faction is?"""
    return obs[OBS.faction_claim + s] < 0


@compiled
def most_suspect(obs, memory, legal, rng, fresh):
    """The legal seat whose faction I do not know with the highest suspicion (ties at random);
    -1 if there is none. `fresh`: only seats nobody has reported on."""
    best = -1e18
    count = 0
    for s in range(obs[OBS.players]):
        if legal[s] and obs[OBS.known_faction + s] < 0 and (not fresh or unreported(obs, s)):
            value = memory[M.suspicion + s]
            if value > best:
                best = value
                count = 1
            elif value == best:
                count += 1
    if count == 0:
        return -1
    pick = uniform_index(count, rng)
    for s in range(obs[OBS.players]):
        if legal[s] and obs[OBS.known_faction + s] < 0 and (not fresh or unreported(obs, s)) \
                and memory[M.suspicion + s] == best:
            if pick == 0:
                return s
            pick -= 1
    return -1


@compiled
def best_swap(obs, memory, legal, sign, rng):
    """brink_swap: the pair whose swap makes the believed altars worth the most (sign 1) or the
    least (sign -1); ties at random."""
    best = -1e18
    count = 0
    for phase in range(2):
        pick = uniform_index(count, rng) if phase == 1 else 0
        for a in range(legal.size):
            if not legal[a]:
                continue
            altar = a // MAX_ALTAR
            i = a % MAX_ALTAR
            base = M.belief + altar * MAX_ALTAR
            memory[base + i], memory[base + i + 1] = memory[base + i + 1], memory[base + i]
            value = sign * (life_value(memory, obs[OBS.altar_size + ALTAR.life], NONE)
                            + death_value(memory, obs[OBS.altar_size + ALTAR.death], NONE))
            memory[base + i], memory[base + i + 1] = memory[base + i + 1], memory[base + i]
            if phase == 0:
                if value > best:
                    best = value
                    count = 1
                elif value == best:
                    count += 1
            elif value == best:
                if pick == 0:
                    return a
                pick -= 1
    return uniform_legal(legal, rng)


@compiled
def rank_by_gain(obs, memory, exclude, highest, rng):
    """The rank (other than `exclude`) whose placement the table would value most (`highest`) or
    least, with its value (the better of the two altars); ties at random."""
    best = -1e18 if highest else 1e18
    count = 0
    for phase in range(2):
        pick = uniform_index(count, rng) if phase == 1 else 0
        for r in range(obs[OBS.ranks]):
            if r == exclude:
                continue
            gain_life, gain_death = gains(obs, memory, r)
            value = max(gain_life, gain_death)
            if phase == 0:
                if (value > best) if highest else (value < best):
                    best = value
                    count = 1
                elif value == best:
                    count += 1
            elif value == best:
                if pick == 0:
                    return r, best
                pick -= 1
    return exclude, best


# --- the exile ------------------------------------------------------------------------------------
@compiled
def exile_move(kind, obs, legal, params, memory, rng):
    me = obs[OBS.me]
    doubt = params[P_DOUBT]
    if kind == DECISION.judgement or kind == DECISION.veil_altar:
        rank = sacrifice_belief(obs, memory, doubt, False)
        if kind == DECISION.veil_altar:  # a card it could not verify: placed as unknown
            rank = obs[OBS.sac_known]
        gain_life, gain_death = gains(obs, memory, rank)
        choice = preferred(gain_life, gain_death)
        if kind == DECISION.judgement and rank >= 0 and abs(gain_life - gain_death) >= 1.0:
            memory[M.preference] = choice + 1.0
            memory[M.preference_at] = obs[OBS.judged]
        return choice
    if kind == DECISION.ritual:
        # a pattern I believe: start it if it stands on the word of seats I hardly suspect, or
        # when this is the last chance (no ritual now and the jesters win); otherwise only with
        # probability `faith`
        if not pattern_shown(obs, memory):
            return RITUAL_VOTE.no
        if last_ritual_vote(obs) or trusted_pattern(obs, memory, params[P_RITUAL_DOUBT]):
            return RITUAL_VOTE.yes
        return RITUAL_VOTE.yes if random_double(rng) < params[P_FAITH] else RITUAL_VOTE.no
    if kind == DECISION.offer:
        total = obs[OBS.altar_size] + obs[OBS.altar_size + 1]
        gain_life, gain_death = gains(obs, memory, obs[OBS.hand])
        patience = params[P_PATIENCE] * (EXPERT_PATIENCE if obs[OBS.mode] == 1 else 1.0)
        if total == 0 or max(gain_life, gain_death) >= 2.0 or random_double(rng) >= patience:
            return OFFER.play
        return OFFER.remove
    if kind == DECISION.remove_scroll:  # keep the scrolls that verify a claim or swap cards
        for level in range(2):
            count = 0
            for p in range(MAX_SCROLLS):
                if legal[p] and worth_keeping(obs, p) <= level:
                    count += 1
            if count > 0:
                pick = uniform_index(count, rng)
                for p in range(MAX_SCROLLS):
                    if legal[p] and worth_keeping(obs, p) <= level:
                        if pick == 0:
                            return p
                        pick -= 1
        return uniform_legal(legal, rng)
    if kind == DECISION.announce or kind == DECISION.report_rank:
        return obs[OBS.sac_known] if obs[OBS.sac_known] >= 0 else SILENT
    if kind == DECISION.report_faction:  # the truth about the seat it looked at
        peeked = obs[OBS.peeked]
        return obs[OBS.known_faction + peeked] if peeked >= 0 else FACTION_SILENT
    if kind == DECISION.propose or kind == DECISION.spell_scroll:
        intent = exile_intent(obs, memory, params)
        if kind == DECISION.propose:
            memory[M.own_peek] = 0.0
            if intent == 0:
                # `scout`: with no reason to cast, look at the chief suspect's faction all the same
                scout = params[P_SCOUT]
                if scout > 0.0 and worth_scouting(obs) and random_double(rng) < scout:
                    memory[M.own_peek] = 1.0
                    return PROPOSAL.propose
                return PROPOSAL.decline
            if random_double(rng) >= params[P_VIGILANCE]:
                return PROPOSAL.decline
            return PROPOSAL.propose
        if intent == 0 and memory[M.own_peek] == 1.0:
            intent = 2  # Secret Peek, on the chief suspect (peek_target)
        else:
            memory[M.own_peek] = 0.0
        effect = EFFECT.see_sacrifice if intent == 1 else (
            EFFECT.see_faction if intent == 2 else EFFECT.swap_adjacent)
        position = scroll_with_effect(obs, legal, effect, rng)
        return position if position >= 0 else uniform_legal(legal, rng)
    if kind == DECISION.spell_caster:
        return me
    if kind == DECISION.peek_target:  # the claimant of a card that would complete a pattern
        if memory[M.own_peek] == 1.0:  # `scout`: the chief suspect nobody has reported on
            memory[M.own_peek] = 0.0
            target = most_suspect(obs, memory, legal, rng, True)
            if target >= 0:
                return target
        claimant = doubtful_claimant(obs, memory, doubt)
        if claimant >= 0 and legal[claimant]:
            return claimant
        target = most_suspect(obs, memory, legal, rng, False)
        return target if target >= 0 else uniform_legal(legal, rng)
    if kind == DECISION.brink_swap:
        return best_swap(obs, memory, legal, 1.0, rng)
    return uniform_legal(legal, rng)


@compiled
def worth_scouting(obs):
    """Is there a Secret Peek left and another seat whose faction I do not know and nobody has
    reported on?"""
    if not present_with_effect(obs, EFFECT.see_faction):
        return False
    for s in range(obs[OBS.players]):
        if obs[OBS.known_faction + s] < 0 and unreported(obs, s):
            return True
    return False


@compiled
def worth_keeping(obs, position):
    """1 for a scroll under a tile that verifies a claim or swaps altar cards, else 0."""
    effect = obs[OBS.effects + obs[OBS.scroll_tile + position]]
    return 1 if effect == EFFECT.see_sacrifice or effect == EFFECT.swap_adjacent else 0


@compiled
def doubtful_claimant(obs, memory, doubt):
    """The seat whose claim about the card in the sacrifice area would complete a pattern, when I
    have not seen the card and do not know the claimant's faction; else -1."""
    claimant = obs[OBS.sac_claimer]
    if claimant < 0 or obs[OBS.sac_known] >= 0 or obs[OBS.known_faction + claimant] >= 0:
        return -1
    rank = sacrifice_belief(obs, memory, doubt, False)
    if rank < 0:
        return -1
    gain_life, gain_death = gains(obs, memory, rank)
    return claimant if max(gain_life, gain_death) >= COMPLETE / 2 else -1


@compiled
def exile_intent(obs, memory, params):
    """Why an exile would cast a spell now: 1 to verify a claim that would complete a pattern
    (Death's Gaze; with no Gaze left, Secret Peek on the claimant), 2 to look at a suspect's
    faction (Secret Peek), 3 to swap two altar cards into a pattern or a pair (Brink of Life and
    Death), 0 no reason."""
    doubt = params[P_DOUBT]
    if present_with_effect(obs, EFFECT.swap_adjacent) and swap_improves(obs, memory):
        return 3
    if obs[OBS.sac_known] < 0:
        rank = sacrifice_belief(obs, memory, doubt, False)
        if rank >= 0:
            gain_life, gain_death = gains(obs, memory, rank)
            if max(gain_life, gain_death) >= COMPLETE / 2:
                if present_with_effect(obs, EFFECT.see_sacrifice):
                    return 1
                if doubtful_claimant(obs, memory, doubt) >= 0 \
                        and present_with_effect(obs, EFFECT.see_faction):
                    return 2
    if present_with_effect(obs, EFFECT.see_faction):
        # a seat whose word would no longer count toward a ritual is worth a look
        suspect = min(doubt, params[P_RITUAL_DOUBT])
        for s in range(obs[OBS.players]):
            if obs[OBS.known_faction + s] < 0 and memory[M.suspicion + s] >= suspect \
                    and memory[M.suspicion + s] < 50.0:
                return 2
    return 0


# --- the jester -----------------------------------------------------------------------------------
@compiled
def backer(obs):
    """The one jester who backs a doomed ritual: the first in turn order from the sacrificer.
    (Two jesters alone would start it and initiate it themselves, and a failed ritual the jesters
    initiate wins for the exiles; one jester with at least one believing exile makes a tie, which
    the exiles initiate.) Every jester knows the jesters, so they agree without a word."""
    n = obs[OBS.players]
    start = max(obs[OBS.sacrificer], 0)
    for k in range(n):
        seat = (start + k) % n
        if obs[OBS.known_faction + seat] == JESTER:
            return seat
    return -1


@compiled
def jester_move(kind, obs, legal, params, memory, rng):
    me = obs[OBS.me]
    bluff = params[P_BLUFF]
    if kind == DECISION.place_scheme:
        # A scheme that acts on the card in the sacrifice area (Veil, Swap) is a trap under the
        # tile that verifies claims. One that changes a rule for the game (Prolong Life, Requiem)
        # acts wherever it is flipped: with probability OPEN_GAZE it goes under Secret Peek,
        # leaving a Death's Gaze real (a table that sees Gazes come true keeps casting them).
        effect = obs[OBS.effects + obs[OBS.placing]]
        rule_scheme = effect == EFFECT.card_limit or effect == EFFECT.ritual_votes
        position = -1
        if rule_scheme and random_double(rng) < OPEN_GAZE:
            position = scroll_with_effect(obs, legal, EFFECT.see_faction, rng)
        if position < 0:
            position = scroll_with_effect(obs, legal, EFFECT.see_sacrifice, rng)
        return position if position >= 0 else uniform_legal(legal, rng)
    if kind == DECISION.offer:
        # a jester runs the clock, but now and then holds back as an exile would (`disguise`):
        # the exiles trust a seat that removes scrolls
        if legal[OFFER.remove] and random_double(rng) < params[P_DISGUISE]:
            return OFFER.remove
        return OFFER.play if legal[OFFER.play] else OFFER.remove
    if kind == DECISION.remove_scroll:  # take away a real Death's Gaze
        count = 0
        for p in range(MAX_SCROLLS):
            item = obs[OBS.scroll_known + p]
            if legal[p] and item >= 0 and item < 3 and \
                    obs[OBS.effects + item] == EFFECT.see_sacrifice:
                count += 1
        if count > 0:
            pick = uniform_index(count, rng)
            for p in range(MAX_SCROLLS):
                item = obs[OBS.scroll_known + p]
                if legal[p] and item >= 0 and item < 3 and \
                        obs[OBS.effects + item] == EFFECT.see_sacrifice:
                    if pick == 0:
                        return p
                    pick -= 1
        return uniform_legal(legal, rng)
    public = sacrifice_belief(obs, memory, 0.0, True)
    truth = obs[OBS.sac_known]
    if kind == DECISION.announce:
        fake, value = rank_by_gain(obs, memory, truth, True, rng)
        if value >= 2.0 and random_double(rng) < bluff:
            return fake  # plant a false pattern
        gain_life, gain_death = gains(obs, memory, truth)
        if max(gain_life, gain_death) >= 2.0 and random_double(rng) < bluff:
            junk, _ = rank_by_gain(obs, memory, truth, False, rng)
            return junk  # hide a real one
        return truth
    if kind == DECISION.judgement or kind == DECISION.veil_altar:
        gain_life, gain_death = gains(obs, memory, public)
        table = preferred(gain_life, gain_death)
        if truth >= 0 and truth != public:
            return table  # a planted card: let it go where the table wants it
        if truth >= 0:
            real_life, real_death = gains(obs, memory, truth)
            if max(real_life, real_death) >= 2.0:
                return ALTAR.death if real_life > real_death else ALTAR.life
        if kind == DECISION.veil_altar:
            return 1 - table
        return table
    if kind == DECISION.ritual:
        if verified_pattern(obs, memory):
            # a pattern of ranks I know or exiles said (exiles never lie about their cards): if
            # the jesters are most of the yes votes they initiate it and win at once; if not, the
            # exiles would have started it anyway
            return RITUAL_VOTE.yes
        derive(obs, memory, params, True)  # the table's beliefs again
        if pattern_shown(obs, memory) and not true_pattern(obs, memory) \
                and backer(obs) == me:
            return RITUAL_VOTE.yes  # support a doomed ritual
        return RITUAL_VOTE.no
    if kind == DECISION.propose or kind == DECISION.spell_scroll:
        danger = False
        if public >= 0 and (truth < 0 or truth == public):
            gain_life, gain_death = gains(obs, memory, public)
            danger = max(gain_life, gain_death) >= COMPLETE / 2
        if kind == DECISION.propose:
            memory[M.own_peek] = 0.0
            if danger and (present_known_scheme(obs, EFFECT.veil)
                           or present_known_scheme(obs, EFFECT.exchange_sacrifice)) \
                    and random_double(rng) < bluff:
                return PROPOSAL.propose
            # `frame`: look at an exile with a real Secret Peek, to call it a jester
            frame = params[P_FRAME]
            if frame > 0.0 and real_peek_left(obs) and random_double(rng) < frame:
                memory[M.own_peek] = 1.0
                return PROPOSAL.propose
            return PROPOSAL.decline
        position = -1
        if memory[M.own_peek] == 1.0:
            position = known_position(obs, legal, EFFECT.see_faction, True, rng)
        memory[M.own_peek] = 0.0
        if position < 0:
            position = known_position(obs, legal, EFFECT.veil, False, rng)
        if position < 0:
            position = known_position(obs, legal, EFFECT.exchange_sacrifice, False, rng)
        return position if position >= 0 else uniform_legal(legal, rng)
    if kind == DECISION.spell_caster:
        return me
    if kind == DECISION.report_rank:
        sacrificer = obs[OBS.sac_by]
        claim = obs[OBS.sac_claim]
        if claim >= 0 and obs[OBS.known_faction + sacrificer] == JESTER:
            return claim  # cover a fellow jester
        gain_life, gain_death = gains(obs, memory, truth)
        if max(gain_life, gain_death) >= 2.0 and random_double(rng) < bluff:
            junk, _ = rank_by_gain(obs, memory, truth, False, rng)
            return junk
        return truth
    if kind == DECISION.report_faction:  # cover a jester, frame an exile
        peeked = obs[OBS.peeked]
        if peeked < 0:
            return FACTION_SILENT
        if obs[OBS.known_faction + peeked] == JESTER:
            return EXILE
        return JESTER if random_double(rng) < bluff else EXILE
    if kind == DECISION.peek_target:  # look at an exile, to frame it
        count = 0
        for s in range(obs[OBS.players]):
            if legal[s] and obs[OBS.known_faction + s] == EXILE:
                count += 1
        if count > 0:
            pick = uniform_index(count, rng)
            for s in range(obs[OBS.players]):
                if legal[s] and obs[OBS.known_faction + s] == EXILE:
                    if pick == 0:
                        return s
                    pick -= 1
        return uniform_legal(legal, rng)
    if kind == DECISION.brink_swap:
        return best_swap(obs, memory, legal, -1.0, rng)
    return uniform_legal(legal, rng)


@strategy
def conspirator(kind, obs, legal, params, memory, rng):
    """An exile or a jester as people play them (see the module's description)."""
    jester = obs[OBS.my_role] == JESTER
    read_votes(obs, memory)
    read_rituals(obs, memory)
    derive(obs, memory, params, jester)
    if jester:
        return jester_move(kind, obs, legal, params, memory, rng)
    return exile_move(kind, obs, legal, params, memory, rng)


def builtin():
    return {
        "random": RANDOM,
        "conspirator": StrategyInfo(
            "conspirator", conspirator,
            "exiles steer cards into patterns, verify claims with spells, suspect dissenters, "
            "liars and the public tells (seats that offer every card and never hold back, lone "
            "backers of a ritual), trust seats that removed scrolls, and vote for the ritual they "
            "believe in (or at the last vote); jesters lie to plant false patterns, trap Death's "
            "Gaze with schemes, start a ritual they have verified, back doomed rituals, and may "
            "hold back in disguise; off by default, exiles may peek at their chief suspect "
            "with no claim to check (`scout`) and jesters may look at an exile to call it a "
            "jester (`frame`)",
            params=(
                StrategyParam("doubt", 9.5, 0.0, 100.0,
                              "suspicion at which an exile stops believing a player (a claim "
                              "it knows to be false counts 10: a liar is never believed; a "
                              "dissent or a disputed claim 1)"),
                StrategyParam("patience", 1.0, 0.0, 1.0,
                              "chance an exile holds back a card that fits nowhere (in expert "
                              "mode half of it: its schemes and the arcane tiles make a "
                              "held-back card cost more, and the exiles' best responses there "
                              "held back half as often)"),
                StrategyParam("vigilance", 1.0, 0.0, 1.0,
                              "chance an exile casts a spell it has a reason for"),
                StrategyParam("bluff", 0.98, 0.0, 1.0, "chance a jester lies when a lie helps"),
                StrategyParam("faith", 1.0, 0.0, 1.0,
                              "chance an exile backs a ritual whose pattern rests on claims it "
                              "has not verified (else only its own knowledge and known exiles' "
                              "word count)"),
                StrategyParam("play_tell", 2.0, 0.0, 10.0,
                              "an exile's suspicion of a seat per card it offered (jesters run "
                              "the clock; exiles hold back cards that fit nowhere)"),
                StrategyParam("remove_trust", 10.0, 0.0, 20.0,
                              "suspicion an exile takes off a seat per scroll it removed instead "
                              "of offering"),
                StrategyParam("backing_tell", 1.0, 0.0, 20.0,
                              "an exile's suspicion of a seat per yes vote for a ritual in which "
                              "the exile saw no pattern and that did not start"),
                StrategyParam("ritual_doubt", 9.5, -20.0, 100.0,
                              "suspicion at which what a seat said no longer counts toward a "
                              "ritual an exile starts (below `doubt`: a stricter test than for "
                              "placing cards)"),
                StrategyParam("disguise", 0.0, 0.0, 1.0,
                              "chance a jester removes a scroll instead of offering its card, as "
                              "an exile holding back would"),
                # play from outside the family (docs/strategies.md, "### vitamors"): off (0)
                StrategyParam("scout", 0.0, 0.0, 1.0,
                              "chance an exile with its feather and no other reason to cast a "
                              "spell casts Secret Peek after a card is played, on its chief "
                              "suspect nobody has reported on (the seat that offered the most "
                              "cards, dissented, was caught lying): looking at the likeliest "
                              "jester before any claim needs checking (0: off)"),
                StrategyParam("frame", 0.0, 0.0, 1.0,
                              "chance a jester with its feather and no trap to spring casts a "
                              "Secret Peek it knows to be real after a card is played, on an "
                              "exile, whom it then says is a jester (with probability `bluff`): "
                              "bluffing about alignment (0: off)"),
            ),
            flags=FLAG_TALKS, memory=MEMORY.size),
    }
