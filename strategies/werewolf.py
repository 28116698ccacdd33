"""Scripted strategies for The Werewolves in Village.

Each strategy is compiled by `strategies.common.strategy` with the platform's one signature
(kind, obs, legal, params, memory, rng) -> action; it reads the observation through the named
offsets in `OBS`, never the game state.

* ``random``   - uniform over the legal actions; the pack kills non-wolves; never claims.
* ``seer-led`` - the seer names the wolves it finds and the town follows (the exact-model tests).
* ``people``   - every role as people play it. Each seat keeps in its memory a suspicion score per
  player, built from the public record only (seer and medium claims weighed by the claimants'
  credibility: a claimant the wolves attacked (killed or not: the attacked seat is public) is
  believed, one who contradicts what the seat knows or another believed claimant is a liar, one
  whose statement a shown card or the uncontested medium proved true is believed whatever its
  timing, and with a paranoid dealt a seer claim first made from day 3 is contested, not a lie;
  the open suspect votes; the last sentence ballots, i.e.
  who voted to hang whom, judged by what is now believed of the two suspects; deaths; revealed
  cards) and its own row of `known`. The town derives it once a day, at its suspect vote (after
  the day's claims), and reads that day's suspect votes at its sentence vote, so a decision costs
  O(players) and allocates nothing. The seer and the medium reveal what they learn or stay hidden
  (`reveal`); the town votes on its suspicion (`trust` weighs claims, `follow` the votes already
  cast, `grudge` how players voted); the bodyguard protects the claimed seer, then the medium,
  else the least suspected; the witch revives on night 1 (`save`) and later a claimed information
  role or herself, and poisons a player once a believed claim names him; the hunter shoots, the
  owl man and the death god name, the most suspected; the piper charms the least suspected; the
  paranoid becomes the believed seer if there is one; cupid links at random (night 1 tells him
  nothing); the mayor's voters rally behind the first candidate named that they do not suspect
  (else the least suspected), the successor is the least suspected; a charmed seat suspects the
  uncharmed of being the piper (`hunt`), strongly when he would win tonight. The wolf camp
  derives the same score from the public record alone (what the town is likely to think): the
  pack kills the claimed seer, then the medium, then the players the town trusts; wolves vote
  with the town's suspicion on a non-wolf and against a fellow wolf only as cover when he is lost
  anyway (`cover`); the pack's speaker, or the madman, may counter-claim the seer (`counter`).
  Three ways of play from outside that family are off by default (probability 0, and then no
  draw is made, so the games are those of the family): the pack's speaker may play the seer
  unprompted (`fake_claim`), a wolf may vote out a fellow wolf the town merely leans to hang
  (`bus`), and a human may vote with the crowd, for the most voted player (`mob`).
  Every choice among equals is drawn at random, never by seat number.
"""

from simulator.games.base import FLAG_TALKS, Layout, StrategyInfo, StrategyParam
from simulator.games.werewolf.declaration import (
    DECISION, HUMAN_SIDE, MAX_PLAYERS, N_ROLES, NO, NOT_WOLF, OBS, ROLE, UNKNOWN, WOLF_SIDE, YES,
)

from .common import (
    compiled, inlined, random_double, strategy, uniform_index, uniform_legal, uniform_where,
    uniform_where_not,
)


@inlined
def play_at_random(kind, obs, legal, rng):
    """`random`'s choice, inlined into every strategy that falls back on it."""
    if kind == DECISION.wolf_kill:
        target = uniform_where_not(legal, obs, OBS.known, ROLE.werewolf, rng)
        if target >= 0:
            return target
    if kind == DECISION.claim or kind == DECISION.medium_claim:
        return legal.size - 1  # pass
    return uniform_legal(legal, rng)


@strategy
def random_play(kind, obs, legal, params, memory, rng):
    """Uniform over legal actions; the pack kills uniformly among players it knows are not wolves.
    Never claims anything (it is not asked: no FLAG_TALKS)."""
    return play_at_random(kind, obs, legal, rng)


@strategy
def seer_led(kind, obs, legal, params, memory, rng):
    """The seer checks a random unchecked living player and publicly names every wolf found;
    humans vote for a publicly named wolf (with probability `trust`), otherwise at random.
    Werewolves play `random`."""
    if obs[OBS.my_role] == ROLE.werewolf or kind == DECISION.wolf_kill:
        return play_at_random(kind, obs, legal, rng)
    if kind == DECISION.seer_check:
        target = uniform_where(legal, obs, OBS.known, UNKNOWN, rng)
        return target if target >= 0 else uniform_legal(legal, rng)
    if kind == DECISION.claim:
        if obs[OBS.my_role] == ROLE.seer:
            for seat in range(obs[OBS.players]):
                if (legal[seat] and obs[OBS.known + seat] == ROLE.werewolf
                        and obs[OBS.named_wolf + seat] == 0):
                    return seat
        return legal.size - 1  # pass
    if kind != DECISION.suspect_vote and kind != DECISION.sentence_vote:
        return play_at_random(kind, obs, legal, rng)
    # suspect and sentence votes
    trust = params[0]
    if trust >= 1.0 or random_double(rng) < trust:
        target = uniform_where(legal, obs, OBS.named_wolf, 1, rng)
        if target >= 0:
            return target
    return uniform_legal(legal, rng)



# === people: the table as people play it ========================================================
# Every seat keeps, in its memory, a suspicion score per player built from what it may know: the
# public record (claims, open suspect votes, the last sentence ballots, deaths, revealed cards) and
# its own row of `known`. The town derives it once a day (at its suspect vote, after the day's
# claims), so a decision costs O(players). The wolf camp derives the same score from the public
# record only: what the town is likely to think, which it uses to blend in.

# memory layout (float64 words)
MEMORY = Layout((
    ("day", 1, "the day whose suspicion was last derived"),
    ("ballots", 1, "the day on which the last sentence ballots were read"),
    ("votes", 1, "the day whose suspect votes were read"),
    ("fake", 1, "wolf camp: 1 once it chose to counter-claim the seer, 2 to play the seer "
                "unprompted (`fake_claim`), -1 not to counter-claim, 0 undecided"),
    ("bluff", 1, "a werewolf: 1 once the pack's speaker chose to fake-claim the seer "
                 "unprompted, -1 not to (or not its call), 0 undecided"),
    ("reveal", 1, "seer / medium: 1 once it chose to reveal what it learns, -1 to hide, "
                  "0 undecided"),
    ("mark", 1, "death god: the seat it marked + 1 (0: none)"),
    ("mark_day", 1, "the night of that mark"),
    ("charms", 1, "a charmed seat: how many it has seen charmed by day (-1: the piper is "
                  "dead) ..."),
    ("charms_day", 1, "... and the day it first saw that many"),
    ("evidence", MAX_PLAYERS, "per seat: evidence from votes and ballots, kept all game"),
    ("suspicion", MAX_PLAYERS, "per seat: suspicion from the public record (derived daily)"),
    ("attacked", MAX_PLAYERS, "per seat: 1 once the wolves attacked it (so: not a wolf)"),
    ("first_claim", MAX_PLAYERS, "per seat: when it first claimed (day, then discussion order)"),
    ("score", MAX_PLAYERS, "per seat: the current decision's scores (scratch)"),
))
M = MEMORY.offsets("Memory")

(P_REVEAL, P_TRUST, P_FOLLOW, P_GRUDGE, P_COUNTER, P_COVER, P_SAVE, P_HUNT, P_PACK_FOLLOW,
 P_FAKE_CLAIM, P_BUS, P_MOB) = range(12)

SURE = 100.0     # a seat's own knowledge: a certainty
ACCUSE = 3.0     # one believed claim "s is a werewolf"
CLEAR = 2.0      # one believed claim "s is not a werewolf"
CONFLICT = 4.0   # a claimant contested by another claimant of the same role (one is lying)
DOUBT = 1.5      # ... contested beside a believed claimant (the paranoid may be the seer too)
LIAR = 10.0      # a claimant caught lying
DOOMED = 1.0     # suspicion lead at which a suspect is taken to be lost
NEG = -1e18      # not a candidate
ALARM = 1.5 * SURE  # a seat the piper may be, when he would win tonight: above a known wolf


@inlined
def knowledge(obs, s, private):
    """What a seat's own knowledge says of seat s: +SURE a werewolf or the madman, -SURE a human,
    half that for the weaker readings (a check's "not a werewolf", the paranoid's signal). A
    revealed card is public; `private` adds the seat's own row of `known`."""
    shown = obs[OBS.revealed + s]
    if shown >= 0:
        return SURE if (shown == ROLE.werewolf or shown == ROLE.madman) else -SURE
    if not private:
        return 0.0
    k = obs[OBS.known + s]
    if k == UNKNOWN:
        return 0.0
    if k == ROLE.werewolf or k == ROLE.madman:
        return SURE
    if k == WOLF_SIDE:
        return SURE / 2
    if k == NOT_WOLF or k == HUMAN_SIDE:
        return -SURE / 2
    return -SURE  # a human role it knows (its own, a fellow mason, the witness)


@inlined
def suspicion(obs, memory, s, private):
    return memory[M.suspicion + s] + knowledge(obs, s, private)


@inlined
def evidence(obs, memory, s, private):
    """Suspicion of s scaled to [-1, 1]: one believed accusation makes a wolf."""
    e = suspicion(obs, memory, s, private) * (1.0 / ACCUSE)
    return 1.0 if e > 1.0 else (-1.0 if e < -1.0 else e)


@inlined
def may_be_piper(obs, s):
    """Can seat s be the piper, for a charmed seat? Uncharmed, not me, no other role known of it
    or shown (a check's "not a werewolf" does not tell)."""
    if s == obs[OBS.me] or (obs[OBS.charmed] >> s) & 1:
        return False
    shown = obs[OBS.revealed + s]
    if shown >= 0:
        return shown == ROLE.piper
    k = obs[OBS.known + s]
    return not (0 <= k < N_ROLES and k != ROLE.piper)


@compiled
def piper_pool(obs, memory, night):
    """What a charmed seat knows of the piper (the charmed see one another and know he is among
    the uncharmed; nobody else knows anything of the charms): how many living seats he may be.
    0 for a seat that is not charmed, and once the charmed stopped growing overnight (the piper
    charms every night he lives, last in the night: he is dead). By night the count is only read
    (tonight's charms are still to come)."""
    bits = obs[OBS.charmed]
    if not (bits >> obs[OBS.me]) & 1 or memory[M.charms] < 0:
        return 0
    charmed = 0
    pool = 0
    for s in range(obs[OBS.players]):
        charmed += (bits >> s) & 1
        if obs[OBS.alive + s] and may_be_piper(obs, s):
            pool += 1
    day = obs[OBS.day]
    if not night:
        if charmed != memory[M.charms]:
            memory[M.charms] = charmed
            memory[M.charms_day] = day
        elif day > memory[M.charms_day]:
            memory[M.charms] = -1.0
            return 0
    return pool


@inlined
def piper_weight(obs, memory, params, night):
    """How much a charmed seat suspects each seat the piper may be: ALARM when only this decision
    can still stop him, else one believed accusation shared among four candidates, less among
    more (`hunt` scales it). At a vote that is when he wins tonight (at most two other uncharmed
    players alive); the pack's attack kills at daybreak, after tonight's charms, so by night the
    alarm comes a night earlier (he would win within two nights: at most four others)."""
    if params[P_HUNT] == 0.0 or obs[OBS.charmed] == 0:
        return 0.0
    pool = piper_pool(obs, memory, night)
    if pool == 0:
        return 0.0
    last = 5 if night else 3
    return params[P_HUNT] * (ALARM if pool <= last else ACCUSE * 4.0 / pool)


@inlined
def piper_bonus(obs, s, weight):
    """`weight` (a piper_weight) if seat s may be the piper, else 0."""
    return weight if weight > 0.0 and may_be_piper(obs, s) else 0.0


@inlined
def add_hunt(obs, memory, legal, weight):
    """Add `weight` to the scores of the legal seats the piper may be (NEG stays out)."""
    if weight > 0.0:
        for s in range(obs[OBS.players]):
            if legal[s] and memory[M.score + s] > NEG:
                memory[M.score + s] += piper_bonus(obs, s, weight)


@inlined
def lover_of(obs):
    """My lover, or -1 (cupid sees the lovers but is not one)."""
    me = obs[OBS.me]
    a = obs[OBS.lovers]
    b = obs[OBS.lovers + 1]
    return b if a == me else (a if b == me else -1)


@compiled
def pick_best(memory, legal, n, rng):
    """The seat with the highest score in memory[M.score:], among legal seats, ties at random
    (never by seat number); -1 if no seat is a candidate."""
    best = NEG
    count = 0
    first = -1
    for s in range(n):
        if legal[s]:
            v = memory[M.score + s]
            if v > best:
                best = v
                count = 1
                first = s
            elif v == best and v > NEG:
                count += 1
    if count <= 1:
        return first
    pick = uniform_index(count, rng)
    for s in range(n):
        if legal[s] and memory[M.score + s] == best:
            if pick == 0:
                return s
            pick -= 1
    return -1


@inlined
def higher(a, va, b, vb, rng):
    """Of two seats, the one with the higher value; a tie at random."""
    if va > vb:
        return a
    if vb > va:
        return b
    return a if random_double(rng) < 0.5 else b


@compiled
def score_suspicion(obs, memory, legal, sign, private):
    """Scores: sign * suspicion of every legal seat."""
    for s in range(obs[OBS.players]):
        memory[M.score + s] = sign * suspicion(obs, memory, s, private) if legal[s] else NEG


@compiled
def read_mark(obs, memory):
    """The death god's mark of an earlier night that the seat survived: a werewolf or the
    hamster."""
    mark = int(memory[M.mark]) - 1
    if mark >= 0 and obs[OBS.day] > memory[M.mark_day]:
        memory[M.mark] = 0.0
        if obs[OBS.alive + mark]:
            memory[M.evidence + mark] += SURE / 2
            memory[M.suspicion + mark] += SURE / 2


@inlined
def fact(obs, memory, s, medium):
    """What the public record shows of seat s: 1 a werewolf, 0 not, -1 nothing: his card, when
    shown; else 0 once the wolves attacked him (they do not attack their own); else the reading
    of the uncontested medium `medium` (-1: none)."""
    shown = obs[OBS.revealed + s]
    if shown >= 0:
        return 1 if shown == ROLE.werewolf else 0
    if memory[M.attacked + s] > 0:
        return 0
    if medium >= 0:
        return obs[OBS.said + medium * MAX_PLAYERS + s]
    return -1


@inlined
def proof(obs, memory, c, medium):
    """How many of claimant c's statements the public record has shown true, and false."""
    proven = 0
    refuted = 0
    if c == medium:
        return proven, refuted
    row = OBS.said + c * MAX_PLAYERS
    for s in range(obs[OBS.players]):
        x = obs[row + s]
        if x >= 0:
            f = fact(obs, memory, s, medium)
            if f >= 0:
                if f == x:
                    proven += 1
                else:
                    refuted += 1
    return proven, refuted


@compiled
def derive(obs, memory, params, private):
    """Suspicion from the public record, once a day: the evidence kept so far, the claims
    (weighed by the claimants' credibility), and yesterday's sentence ballots (who voted to hang
    whom, judged by what is now believed of the two suspects)."""
    day = obs[OBS.day]
    if memory[M.day] == day:
        return
    memory[M.day] = day
    n = obs[OBS.players]
    me = obs[OBS.me]
    victim = obs[OBS.victim]
    if victim >= 0:
        # the wolves do not attack their own: the night's attacked seat (the day's reference
        # seat, public whether he died or was protected, revived or the hamster) is no wolf
        if memory[M.attacked + victim] == 0.0 and obs[OBS.alive + victim]:
            memory[M.evidence + victim] -= SURE / 2  # he lives: known to be no wolf
        memory[M.attacked + victim] = 1.0
    read_mark(obs, memory)
    # claims: the claimants are listed in the scratch row, each stamped when first seen (the day,
    # then its place in the day's discussion, which starts right of the reference seat)
    claimants = 0
    seers = 0
    mediums = 0
    seers_hit = 0
    mediums_hit = 0
    medium = -1
    start = victim if victim >= 0 else 0
    for c in range(n):
        memory[M.suspicion + c] = memory[M.evidence + c]
        r = obs[OBS.claimed + c]
        if r >= 0:
            memory[M.score + claimants] = c
            claimants += 1
            if memory[M.first_claim + c] == 0.0:
                place = c - start - 1
                memory[M.first_claim + c] = day * 32.0 + (place + n if place < 0 else place) + 1.0
            hit = 1 if memory[M.attacked + c] > 0 else 0
            if r == ROLE.seer:
                seers += 1
                seers_hit += hit
            else:
                mediums += 1
                mediums_hit += hit
                medium = c
    if mediums != 1 or (private and knowledge(obs, medium, True) >= SURE / 2):
        medium = -1  # readings are facts only from an uncontested medium not known to lie
    # With a paranoid dealt, a seer claim first made from day 3 on may be true beside another
    # seer's: the paranoid who named the seer on night 2 checks from night 3.
    second_seer = obs[OBS.dealt + ROLE.paranoid] > 0
    trust = params[P_TRUST]
    for i in range(claimants):
        c = int(memory[M.score + i])
        if c == me and private:
            continue  # its own claims: it knows better
        r = obs[OBS.claimed + c]
        same = seers if r == ROLE.seer else mediums
        same_hit = seers_hit if r == ROLE.seer else mediums_hit
        attacked = memory[M.attacked + c] > 0
        # Rivals for one role: one the wolves attacked is believed, the others are liars;
        # otherwise none is believed outright, whatever the order of the claims (a wolf may claim
        # first) or the town's verdicts (hanging one proves nothing): each may be the liar.
        liar = (not attacked) and same_hit > 0
        sole = attacked or same == 1
        if liar and second_seer and r == ROLE.seer and memory[M.first_claim + c] > 3 * 32.0:
            liar = False  # perhaps the paranoid became the seer: contested, not a liar
        proven, refuted = proof(obs, memory, c, medium)
        if refuted > 0:
            liar = True
        elif proven > 0:
            liar = False  # a claim shown true outweighs its timing
            sole = True
        if private and (knowledge(obs, c, True) >= SURE / 2 or r == obs[OBS.my_role]):
            liar = True  # a known wolf, or it claims my own role
        contested = 0
        row = OBS.said + c * MAX_PLAYERS
        for s in range(n):
            x = obs[row + s]
            if x < 0:
                continue
            if private:
                k = knowledge(obs, s, True)
                if (x == 1 and k < 0) or (x == 0 and k >= SURE):
                    liar = True
            for j in range(claimants):
                other = int(memory[M.score + j])
                y = obs[OBS.said + other * MAX_PLAYERS + s]
                if other != c and y >= 0 and y != x:
                    contested += 1
        if liar:
            weight = -0.5 * trust
            memory[M.suspicion + c] += LIAR * trust
        else:
            credit = 1.0 if sole else 1.0 / same
            credit /= 1.0 + contested
            weight = trust * credit
            # it may be the liar: one of two unproved rivals surely is (the town would rather
            # hang one of them); beside a believed rival it may be the paranoid become the seer
            doubt = CONFLICT if same_hit == 0 else DOUBT
            memory[M.suspicion + c] += trust * doubt * (1.0 - credit)
        if weight != 0.0:
            for s in range(n):
                x = obs[row + s]
                if x == 1:
                    if 0.0 < weight < trust and obs[OBS.claimed + s] == r:
                        continue  # a contested claimant naming his rival: counted in CONFLICT
                    memory[M.suspicion + s] += ACCUSE * weight
                elif x == 0:
                    memory[M.suspicion + s] -= CLEAR * weight
    # yesterday's sentence ballots: who voted to hang the likelier wolf
    if memory[M.ballots] < day:
        memory[M.ballots] = day
        hanged = obs[OBS.hanged]
        if hanged >= 0:
            other = -1
            for s in range(n):
                b = obs[OBS.ballot + s]
                if b >= 0 and b != hanged:
                    other = b
                    break
            if other >= 0:
                gap = params[P_GRUDGE] * (evidence(obs, memory, other, private)
                                          - evidence(obs, memory, hanged, private))
                for s in range(n):
                    b = obs[OBS.ballot + s]
                    if b >= 0 and s != me:
                        d = gap if b == hanged else -gap
                        memory[M.evidence + s] += d
                        memory[M.suspicion + s] += d


@compiled
def read_votes(obs, memory, params, private):
    """Today's open suspect votes, once: a vote for a likely wolf speaks for the voter, a vote
    for a likely human against him."""
    day = obs[OBS.day]
    if memory[M.votes] == day:
        return
    memory[M.votes] = day
    n = obs[OBS.players]
    me = obs[OBS.me]
    g = 0.5 * params[P_GRUDGE]
    if g == 0.0:
        return
    for s in range(n):  # judged on the suspicion before this reading (in no seat order)
        memory[M.score + s] = -g * evidence(obs, memory, s, private)
    for s in range(n):
        t = obs[OBS.voted + s]
        if t >= 0 and s != me:
            d = memory[M.score + t]
            memory[M.evidence + s] += d
            memory[M.suspicion + s] += d


@inlined
def sentence_prologue(obs, memory, params, private):
    """The start of every sentence vote: today's suspicion and votes read (once a day), and the
    vote forced when my lover is a suspect (the other suspect, never him); -1 otherwise."""
    if memory[M.day] != obs[OBS.day]:
        derive(obs, memory, params, private)
    if memory[M.votes] != obs[OBS.day]:
        read_votes(obs, memory, params, private)
    a = obs[OBS.suspect_a]
    b = obs[OBS.suspect_b]
    lover = lover_of(obs)
    if a == lover or b == lover:
        return b if a == lover else a
    return -1


@compiled
def town_claim(obs, legal, params, memory, rng):
    """The seer (or a paranoid who became one) claims what it found, once it chose to reveal
    (probability `reveal`, decided the first time it has found a living wolf or is accused): each
    day a living wolf it has not named yet, else a cleared player it has not spoken of, the most
    suspected first. Nobody else claims."""
    n = obs[OBS.players]
    me = obs[OBS.me]
    passing = legal.size - 1
    if obs[OBS.my_role] != ROLE.seer:
        return passing
    row = OBS.said + me * MAX_PLAYERS
    found = False
    news = False
    for s in range(n):  # scores: a living wolf not named yet, then the cleared, most suspected
        k = obs[OBS.known + s]
        memory[M.score + s] = NEG
        if legal[s] and obs[row + s] < 0:
            if k == ROLE.werewolf:
                memory[M.score + s] = SURE
                found = True
            elif k == NOT_WOLF and legal[n + s]:
                memory[M.score + s] = memory[M.suspicion + s]
                news = True
    if memory[M.reveal] == 0.0 and (found or obs[OBS.named_wolf + me] > 0):
        memory[M.reveal] = 1.0 if random_double(rng) < params[P_REVEAL] else -1.0
    if memory[M.reveal] <= 0.0 or not (found or news):
        return passing
    s = pick_best(memory, legal, n, rng)
    if s < 0:
        return passing
    return s if obs[OBS.known + s] == ROLE.werewolf else n + s


@compiled
def town_medium_claim(obs, legal, params, memory, rng):
    """The medium announces its reading of the last hanged player once it chose to reveal
    (probability `reveal`, decided at its first reading that tells something: a werewolf, or a
    reading that proves or refutes a seer claimant's word on him); from then on, every reading."""
    n = obs[OBS.players]
    passing = legal.size - 1
    if obs[OBS.my_role] != ROLE.medium:
        return passing
    hanged = obs[OBS.hanged]
    k = obs[OBS.known + hanged]
    if k != ROLE.werewolf and k != NOT_WOLF:
        return passing
    if obs[OBS.said + obs[OBS.me] * MAX_PLAYERS + hanged] >= 0:
        return passing  # said already
    # A werewolf found tells who voted to save him (the ballots are public); a reading that
    # proves or refutes what a seer claimant said of him settles the claim. Until one does, a
    # hidden medium keeps a plain "not a werewolf" (it would only make him a target); once out,
    # he announces every reading.
    tells = k == ROLE.werewolf or memory[M.reveal] > 0.0
    for c in range(n):
        if obs[OBS.claimed + c] == ROLE.seer and obs[OBS.said + c * MAX_PLAYERS + hanged] >= 0:
            tells = True
    if not tells:
        return passing
    if memory[M.reveal] == 0.0:
        memory[M.reveal] = 1.0 if random_double(rng) < params[P_REVEAL] else -1.0
    if memory[M.reveal] <= 0.0:
        return passing
    action = hanged if k == ROLE.werewolf else n + hanged
    return action if legal[action] else passing


@compiled
def town_move(kind, obs, legal, params, memory, rng):
    """A human-camp seat: votes and night powers on its suspicion (public record + its own
    knowledge). (Its votes are in `people`.)"""
    n = obs[OBS.players]
    me = obs[OBS.me]
    if kind == DECISION.claim:
        return town_claim(obs, legal, params, memory, rng)
    if kind == DECISION.medium_claim:
        return town_medium_claim(obs, legal, params, memory, rng)
    if kind == DECISION.seer_check:  # an unchecked player, the most suspected (claimants first)
        for s in range(n):
            if legal[s] and obs[OBS.known + s] == UNKNOWN:
                memory[M.score + s] = memory[M.suspicion + s] + (1.0 if obs[OBS.claimed + s] >= 0
                                                           else 0.0)
            else:
                memory[M.score + s] = NEG
        target = pick_best(memory, legal, n, rng)
        return target if target >= 0 else uniform_legal(legal, rng)
    if kind == DECISION.protect:  # the claimed seer, then the medium, else the least suspected
        for s in range(n):
            if not legal[s]:
                memory[M.score + s] = NEG
                continue
            sus = 0.0 if s == me else suspicion(obs, memory, s, True)
            sus = 5.0 if sus > 5.0 else (-5.0 if sus < -5.0 else sus)
            r = obs[OBS.claimed + s] if memory[M.suspicion + s] < LIAR / 2 else -1  # (not a liar)
            memory[M.score + s] = -sus + (30.0 if r == ROLE.seer else
                                          (20.0 if r == ROLE.medium else 0.0))
        return pick_best(memory, legal, n, rng)
    if kind == DECISION.witch_save:
        victim = obs[OBS.victim]
        if victim == me:
            return YES
        if obs[OBS.day] == 1:
            return YES if random_double(rng) < params[P_SAVE] else NO
        if knowledge(obs, victim, True) >= SURE / 2:
            return NO
        if obs[OBS.claimed + victim] >= 0 and memory[M.suspicion + victim] < LIAR / 2:
            return YES
        return YES if knowledge(obs, victim, True) < 0 else NO
    if kind == DECISION.witch_poison or kind == DECISION.shoot:
        # the most suspected, if the suspicion is strong enough (poison: one believed claim)
        score_suspicion(obs, memory, legal, 1.0, True)
        target = pick_best(memory, legal, n, rng)
        need = ACCUSE if kind == DECISION.witch_poison else 0.0
        if target >= 0 and memory[M.score + target] > need * 0.999:
            return target
        return legal.size - 1
    if kind == DECISION.owl_accuse or kind == DECISION.death_mark:
        if kind == DECISION.death_mark:
            read_mark(obs, memory)
        score_suspicion(obs, memory, legal, 1.0, True)
        target = pick_best(memory, legal, n, rng)
        if kind == DECISION.death_mark:
            memory[M.mark] = target + 1.0
            memory[M.mark_day] = obs[OBS.day]
        return target
    if kind == DECISION.peek:  # peek until it has seen the wolves
        for s in range(n):
            if s != me and obs[OBS.known + s] == ROLE.werewolf:
                return NO
        return YES
    if kind == DECISION.paranoid_pick:  # become the claimed seer if believed, else a trusted one
        for s in range(n):
            if legal[s]:
                bonus = 30.0 if (obs[OBS.claimed + s] == ROLE.seer
                                 and memory[M.suspicion + s] < LIAR / 2) else 0.0
                memory[M.score + s] = bonus - suspicion(obs, memory, s, True)
            else:
                memory[M.score + s] = NEG
        return pick_best(memory, legal, n, rng)
    if kind == DECISION.mayor_vote:
        # An open election: the town's votes gather on one candidate instead of scattering
        # against the pack's bloc. Each voter rallies behind the first candidate named today
        # whom it does not suspect (the votes go round clockwise from the seat after the
        # night's victim); with none, it names the least suspected. (Rallying behind the
        # current leader would let a bloc that happens to vote early lead, and win.)
        score_suspicion(obs, memory, legal, -1.0, True)
        start = obs[OBS.victim]
        start = 0 if start < 0 else start
        for step in range(1, n + 1):
            s = start + step
            s = s - n if s >= n else s
            c = obs[OBS.voted + s]
            if c >= 0 and legal[c] and memory[M.score + c] >= 0.0:
                return c
        return pick_best(memory, legal, n, rng)
    if kind == DECISION.charm or kind == DECISION.successor:
        score_suspicion(obs, memory, legal, -1.0, True)  # the least suspected
        return pick_best(memory, legal, n, rng)
    return uniform_legal(legal, rng)  # link (night 1: nothing to go on) and anything new


@inlined
def pack_mate(obs, s):
    return obs[OBS.known + s] == ROLE.werewolf


@inlined
def public_of(obs, memory, s):
    return suspicion(obs, memory, s, False)


@compiled
def pack_speaker(obs, n, exclude):
    """The pack's voice: its first living werewolf clockwise from the day's reference seat (seat
    0 at night), `exclude` left out; -1 if none. Every wolf finds the same one, and no seat is
    favoured, the reference being the night's victim."""
    start = obs[OBS.victim]
    start = 0 if start < 0 else start
    for step in range(1, n + 1):
        s = start + step
        s = s - n if s >= n else s
        if s != exclude and obs[OBS.alive + s] and pack_mate(obs, s):
            return s
    return -1


@compiled
def fake_seer_claim(obs, legal, memory, rng):
    """A werewolf playing the seer unprompted (`fake_claim`) says one thing a day, as a seer who
    revealed himself would: a seer claimant (a rival) is a werewolf; else a fellow wolf under
    accusation is not (the most suspected first); else, while it has named fewer werewolves than
    were dealt, the player the town trusts most is one; else a fellow wolf it has not spoken of
    is not; else it passes. It never speaks of a player twice."""
    n = obs[OBS.players]
    me = obs[OBS.me]
    row = OBS.said + me * MAX_PLAYERS
    named = 0
    for s in range(n):
        if obs[row + s] == 1:
            named += 1
    accuse = named < obs[OBS.wolves]
    for s in range(n):
        memory[M.score + s] = NEG
        if not legal[s] or obs[row + s] >= 0:
            continue
        sus = public_of(obs, memory, s)
        sus = 5.0 if sus > 5.0 else (-5.0 if sus < -5.0 else sus)
        if pack_mate(obs, s):
            if legal[n + s] and (obs[OBS.named_wolf + s] > 0 or not accuse):
                memory[M.score + s] = (2 * SURE if obs[OBS.named_wolf + s] > 0 else 0.0) + sus
        elif obs[OBS.claimed + s] == ROLE.seer:
            memory[M.score + s] = 3 * SURE
        elif accuse:
            memory[M.score + s] = -sus
    target = pick_best(memory, legal, n, rng)
    if target < 0:
        return legal.size - 1
    return n + target if pack_mate(obs, target) else target  # a fellow wolf: "not a werewolf"


@compiled
def wolf_claim(obs, legal, params, memory, rng):
    """The wolf camp may counter-claim the seer (probability `counter`, decided once by the pack's
    speaker, or the madman alone, when someone else has claimed the seer): it names the seer
    claimant a werewolf, then on later days clears a fellow wolf under suspicion, else accuses the
    most trusted player it has not spoken of. Before anyone claimed the seer, the pack's speaker
    may play the seer unprompted (probability `fake_claim`, decided once; `fake_seer_claim`)."""
    n = obs[OBS.players]
    me = obs[OBS.me]
    passing = legal.size - 1
    wolf = obs[OBS.my_role] == ROLE.werewolf
    if memory[M.fake] == 0.0:
        decides = not wolf or pack_speaker(obs, n, -1) == me
        rival = False
        for s in range(n):
            if wolf and s != me and pack_mate(obs, s):
                if obs[OBS.claimed + s] == ROLE.seer:
                    decides = False  # a fellow wolf already plays the seer
            elif s != me and obs[OBS.claimed + s] == ROLE.seer:
                rival = True
        if decides and rival:
            memory[M.fake] = 1.0 if random_double(rng) < params[P_COUNTER] else -1.0
        elif wolf and memory[M.bluff] == 0.0 and params[P_FAKE_CLAIM] > 0.0:
            # Nobody claimed the seer yet: the pack decides once, by the speaker of the day its
            # wolves are first asked, whether one of them plays the seer unprompted.
            memory[M.bluff] = -1.0
            if decides and not rival and random_double(rng) < params[P_FAKE_CLAIM]:
                memory[M.bluff] = 1.0
                memory[M.fake] = 2.0
    if memory[M.fake] <= 0.0:
        return passing
    if memory[M.fake] > 1.0:
        return fake_seer_claim(obs, legal, memory, rng)
    row = OBS.said + me * MAX_PLAYERS
    for s in range(n):  # scores: the seer claimants, a fellow wolf under suspicion, the trusted
        memory[M.score + s] = NEG
        if legal[s] and obs[row + s] < 0:
            if pack_mate(obs, s):
                if obs[OBS.named_wolf + s] > 0 and legal[n + s]:
                    memory[M.score + s] = SURE
            elif obs[OBS.claimed + s] == ROLE.seer:
                memory[M.score + s] = 2 * SURE
            else:
                memory[M.score + s] = -public_of(obs, memory, s)
    target = pick_best(memory, legal, n, rng)
    if target < 0:
        return passing
    return n + target if pack_mate(obs, target) else target  # a fellow wolf: "not a werewolf"


@compiled
def wolf_move(kind, obs, legal, params, memory, rng):
    """A werewolf (or the madman, who knows no wolf): the pack kills the claimed information
    roles first, then the players the town trusts; it votes with the town's suspicion on a
    non-wolf, and against a fellow wolf only as cover when he is lost anyway."""
    n = obs[OBS.players]
    me = obs[OBS.me]
    madman = obs[OBS.my_role] == ROLE.madman
    if kind == DECISION.sentence_vote:
        spared = sentence_prologue(obs, memory, params, False)
        if spared >= 0:
            return spared
        a = obs[OBS.suspect_a]
        b = obs[OBS.suspect_b]
        va = public_of(obs, memory, a)
        vb = public_of(obs, memory, b)
        hunt = piper_weight(obs, memory, params, False)  # (a fellow wolf is never a candidate)
        ha = piper_bonus(obs, a, hunt)
        hb = piper_bonus(obs, b, hunt)
        if madman:  # he cannot tell the wolves: he saves the likelier wolf (hangs the piper)
            return higher(a, ha - va, b, hb - vb, rng)
        mate_a = pack_mate(obs, a)
        if mate_a == pack_mate(obs, b):  # two humans, or two wolves: with the town
            return higher(a, va + ha, b, vb + hb, rng)
        wolf, human, lead = (a, b, va - vb) if mate_a else (b, a, vb - va)
        if lead >= DOOMED and random_double(rng) < params[P_COVER]:
            return wolf  # a lost fellow wolf: vote with the town, as cover
        bus = params[P_BUS]
        if lead > 0.0 and bus > 0.0 and wolf != me and random_double(rng) < bus:
            return wolf  # the town leans to hang him: vote him out, to be trusted (bussing)
        return human
    if kind == DECISION.suspect_vote:
        if memory[M.day] != obs[OBS.day]:
            derive(obs, memory, params, False)
        follow = params[P_PACK_FOLLOW]
        top = -1
        top_score = NEG
        tops = 0
        for s in range(n):
            if not legal[s]:
                memory[M.score + s] = NEG
                continue
            v = public_of(obs, memory, s) + follow * obs[OBS.votes + s]
            if v > top_score:
                top = s
                top_score = v
                tops = 1
            elif v == top_score:  # a tie for the top: each of them equally likely
                tops += 1
                if uniform_index(tops, rng) == 0:
                    top = s
            if madman:  # he cannot tell the wolves: he backs the players the town doubts least
                v = -public_of(obs, memory, s) + follow * obs[OBS.votes + s]
            memory[M.score + s] = NEG if pack_mate(obs, s) else v
        add_hunt(obs, memory, legal, piper_weight(obs, memory, params, False))
        lover = lover_of(obs)
        if lover >= 0 and legal[lover] and memory[M.score + lover] > NEG:
            memory[M.score + lover] -= SURE
        target = pick_best(memory, legal, n, rng)
        if target < 0:
            return uniform_legal(legal, rng)
        if top >= 0 and pack_mate(obs, top) and top_score - memory[M.score + target] >= DOOMED \
                and random_double(rng) < params[P_COVER]:
            return top  # a lost fellow wolf: vote with the town, as cover
        bus = params[P_BUS]
        if bus > 0.0 and top >= 0 and pack_mate(obs, top) and top_score > memory[M.score + target] \
                and random_double(rng) < bus:
            return top  # the town's bandwagon is on him: join it, to be trusted (bussing)
        return target
    if kind == DECISION.wolf_kill:
        fake = False
        for s in range(n):
            if pack_mate(obs, s) and obs[OBS.claimed + s] == ROLE.seer:
                fake = True
        for s in range(n):
            if not legal[s] or pack_mate(obs, s):
                memory[M.score + s] = NEG
                continue
            sus = public_of(obs, memory, s)
            sus = 5.0 if sus > 5.0 else (-5.0 if sus < -5.0 else sus)
            r = obs[OBS.claimed + s]
            bonus = (0.0 if fake else 100.0) if r == ROLE.seer else \
                (50.0 if r == ROLE.medium else 0.0)
            memory[M.score + s] = bonus - sus
        add_hunt(obs, memory, legal, piper_weight(obs, memory, params, True))
        target = pick_best(memory, legal, n, rng)
        return target if target >= 0 else uniform_legal(legal, rng)
    if kind == DECISION.claim:
        return wolf_claim(obs, legal, params, memory, rng)
    if kind == DECISION.medium_claim:
        return legal.size - 1
    if kind == DECISION.mayor_vote or kind == DECISION.successor:
        # the pack's candidate (all wolves agree on him; a successor: any fellow wolf), else the
        # player the town trusts most
        if kind == DECISION.mayor_vote:
            mate = pack_speaker(obs, n, me)
            if mate >= 0 and legal[mate]:
                return mate
        score_suspicion(obs, memory, legal, -1.0, False)
        for s in range(n):
            if legal[s] and pack_mate(obs, s):
                memory[M.score + s] = SURE
        return pick_best(memory, legal, n, rng)
    return town_move(kind, obs, legal, params, memory, rng)  # a power of a role it became


@strategy
def people(kind, obs, legal, params, memory, rng):
    """The town and the wolves as people play them (see `town_move` and `wolf_move`)."""
    role = obs[OBS.my_role]
    if kind == DECISION.claim or kind == DECISION.medium_claim:  # (asked of everyone, daily)
        if role != ROLE.seer and role != ROLE.medium and role != ROLE.werewolf \
                and role != ROLE.madman:
            return legal.size - 1
    if role == ROLE.werewolf or role == ROLE.madman:
        return wolf_move(kind, obs, legal, params, memory, rng)
    if kind == DECISION.suspect_vote:  # (the votes are here, not in town_move: a call less)
        n = obs[OBS.players]
        if memory[M.day] != obs[OBS.day]:
            derive(obs, memory, params, True)
        follow = params[P_FOLLOW]
        for s in range(n):
            memory[M.score + s] = suspicion(obs, memory, s, True) + follow * obs[OBS.votes + s] \
                if legal[s] else NEG
        add_hunt(obs, memory, legal, piper_weight(obs, memory, params, False))
        lover = lover_of(obs)
        if lover >= 0 and legal[lover]:
            memory[M.score + lover] -= SURE  # never against my lover (we die together)
        mob = params[P_MOB]
        if mob > 0.0:  # with the crowd: the most voted so far, my order breaking a tie among
            # them; never my lover, nor a player my own knowledge clears
            most = 0
            for s in range(n):
                if legal[s] and s != lover and knowledge(obs, s, True) >= 0.0 \
                        and obs[OBS.votes + s] > most:
                    most = obs[OBS.votes + s]
            if most > 0 and random_double(rng) < mob:
                for s in range(n):
                    if s == lover or knowledge(obs, s, True) < 0.0 or obs[OBS.votes + s] < most:
                        memory[M.score + s] = NEG
        return pick_best(memory, legal, n, rng)
    if kind == DECISION.sentence_vote:
        spared = sentence_prologue(obs, memory, params, True)
        if spared >= 0:
            return spared
        a = obs[OBS.suspect_a]
        b = obs[OBS.suspect_b]
        mob = params[P_MOB]
        if mob > 0.0 and obs[OBS.votes + a] != obs[OBS.votes + b]:
            crowd = a if obs[OBS.votes + a] > obs[OBS.votes + b] else b
            if knowledge(obs, crowd, True) >= 0.0 and random_double(rng) < mob:
                return crowd  # with the crowd (unless my own knowledge clears him: me, say)
        # its own judgment only (following the suspect votes here too measured worse: the wolves
        # steer those)
        hunt = piper_weight(obs, memory, params, False)
        return higher(a, suspicion(obs, memory, a, True) + piper_bonus(obs, a, hunt),
                      b, suspicion(obs, memory, b, True) + piper_bonus(obs, b, hunt), rng)
    return town_move(kind, obs, legal, params, memory, rng)


def builtin():
    return {
        "random": StrategyInfo(
            "random", random_play,
            "uniform over legal actions; wolves kill uniformly among non-wolves; never claims"),
        "seer-led": StrategyInfo(
            "seer-led", seer_led,
            "the seer checks unchecked players and names the wolves it finds; humans vote for a "
            "named wolf (probability `trust`), otherwise at random; wolves play random",
            params=(StrategyParam("trust", 1.0, 0.0, 1.0,
                                  "probability of following a public claim when voting"),),
            flags=FLAG_TALKS, talks_as=(ROLE.seer,)),
        "people": StrategyInfo(
            "people", people,
            "people-like play: the seer and the medium reveal what they learn (or hide); the town "
            "keeps a suspicion score per player from claims, open votes, the sentence ballots, "
            "deaths and its own knowledge, and votes and uses its powers on it (electing a "
            "mayor, it rallies behind the first candidate named it does not suspect); the pack "
            "kills "
            "the claimed seer and medium first, votes with the town on a non-wolf, covers a lost "
            "fellow wolf, and may counter-claim the seer; the charmed hunt the piper among the "
            "uncharmed; off by default, a wolf may play the seer unprompted (`fake_claim`) or "
            "vote out a fellow wolf the town leans to hang (`bus`), and the town may vote with "
            "the crowd (`mob`)",
            params=(
                StrategyParam("reveal", 1.0, 0.0, 1.0,
                              "chance the seer (once it found a wolf or is accused) and the "
                              "medium reveal what they learn in a game; else they stay hidden"),
                StrategyParam("trust", 1.0, 0.0, 1.0,
                              "weight the town gives to public claims (0: ignores them)"),
                StrategyParam("follow", 0.5, 0.0, 2.0,
                              "weight of the suspect votes already cast today (bandwagon)"),
                StrategyParam("grudge", 1.0, 0.0, 2.0,
                              "weight of how a player voted (suspect votes, sentence ballots) "
                              "in the suspicion of him"),
                StrategyParam("counter", 0.95, 0.0, 1.0,
                              "chance the wolf camp counter-claims the seer once someone claimed "
                              "it"),
                StrategyParam("cover", 0.97, 0.0, 1.0,
                              "chance a wolf votes against a fellow wolf the town has doomed"),
                StrategyParam("save", 1.0, 0.0, 1.0,
                              "chance the witch revives the wolves' victim on night 1"),
                StrategyParam("hunt", 1.0, 0.0, 2.0,
                              "weight a charmed player gives to the piper being among the "
                              "uncharmed, at its votes and the pack's attack (0: ignores it)"),
                StrategyParam("pack_follow", 0.25, 0.0, 2.0,
                              "the wolf camp's weight of the suspect votes already cast today: "
                              "how readily it joins the town's bandwagon"),
                StrategyParam("fake_claim", 0.0, 0.0, 1.0,
                              "chance the pack's speaker plays the seer unprompted in a game, "
                              "before anyone claimed it: each day it names a player the town "
                              "trusts a werewolf (no more than were dealt) or clears a fellow "
                              "wolf, as a seer who revealed himself would (0: never)"),
                StrategyParam("bus", 0.0, 0.0, 1.0,
                              "chance a wolf votes against a fellow wolf the town leans to hang "
                              "(the town's top suspect, or the likelier of the two suspects), "
                              "not only one it has doomed: bussing, to be trusted (0: never)"),
                StrategyParam("mob", 0.0, 0.0, 1.0,
                              "chance a human votes with the crowd instead of its own suspicion: "
                              "at the suspect vote for the player with the most votes so far "
                              "today, at the sentence vote for the suspect who had more; never "
                              "against a player its own knowledge clears (0: never)"),
            ),
            # (claims come from the seer, the medium and the wolf camp only)
            flags=FLAG_TALKS, talks_as=(ROLE.seer, ROLE.medium, ROLE.werewolf, ROLE.madman),
            memory=MEMORY.size),
    }
