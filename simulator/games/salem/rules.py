"""The rules of Salem 1692 as small compiled functions; the kernel only composes them.

Seats are numbered clockwise in turn order. A player's *left* is the next seat clockwise
(seat + 1: the Conspiracy takes from there), their *right* the previous one (Martha Corey copies
the nearest living player there). Each function is tested on hand-built positions in
tests/test_salem_rules.py; docs/rules/salem.md maps every rule to its function and test.
Randomness only through the engine's draws (uniform_index).
"""

from simulator.games.engine import compiled, inlined, shuffle, uniform_index

from .declaration import (
    ANN_HELD, ANN_PUTNAM, CARD, CARD_COLOUR, CHAR, COLOUR, END, HAND_KINDS, HIDDEN, LOG_LEN,
    LOG_WIDTH, MAX_PLAYERS, MAX_TRYALS, N_CARDS, N_FRONT, OBS, PHASE, PIETY, RED_VALUE, TRYAL,
    ALIBI_WITNESS, N_CHARACTERS, UNKNOWN, WITCH,
)
from .state import (
    accusations, add_front, alive, discard, face_down, front, hand_size, parris_left,
    phips_left, set_front, team_shown, tituba_left,
)


# --- seats and abilities ------------------------------------------------------------------------
@inlined
def living_count(st):
    count = 0
    for s in range(st.players):
        count += alive(st)[s]
    return count


@inlined
def next_living(st, seat):
    """The nearest living player clockwise after `seat` (its left), or -1."""
    n = st.players
    for step in range(1, n):
        s = (seat + step) % n
        if alive(st)[s]:
            return s
    return -1


@inlined
def right_living(st, seat):
    """The nearest living player counter-clockwise from `seat` (its right), or -1."""
    n = st.players
    for step in range(1, n):
        s = (seat - step) % n
        if alive(st)[s]:
            return s
    return -1


@compiled
def has_ability(st, seat, character):
    """Does `seat` have the character's ability? Its own, or, for Martha Corey, that of the
    nearest living player to her right."""
    own = st.character[seat]
    if own == character:
        return True
    if own == CHAR.martha_corey:
        right = right_living(st, seat)
        return right >= 0 and st.character[right] == character
    return False


@compiled
def ann_putnam_earns(st, seat, held):
    """Does the tryal `seat` has just revealed by its accusation (the reveal and any death it
    caused resolved) earn the 2 cards of Ann Putnam's ability? `held`: whether `seat` held the
    ability as it revealed, read before the reveal (a death may change Martha Corey's right).
    rules.ann_putnam_held = at_reveal: only if it held it then. at_draw: if it holds it when it
    draws: now with rules.ann_putnam = at_once, else every reveal counts and the end of the turn
    reads the ability (ann_putnam_draws)."""
    if st.ann_putnam_held == ANN_HELD.at_reveal:
        return held
    if st.ann_putnam == ANN_PUTNAM.at_once:
        return has_ability(st, seat, CHAR.ann_putnam)
    return True


@compiled
def ann_putnam_draws(st, seat):
    """The cards `seat` draws at the end of its turn for the reveals that earned Ann Putnam's
    draws (`st.ann_pending`): 2 each; with rules.ann_putnam_held = at_draw, none unless it holds
    her ability now."""
    if st.ann_putnam_held == ANN_HELD.at_draw and not has_ability(st, seat, CHAR.ann_putnam):
        return 0
    return 2 * st.ann_pending[seat]


@inlined
def team_of(st, seat):
    return WITCH if st.ever_witch[seat] else 0


@compiled
def join_witches(st, seat):
    """The seat held a Witch tryal: it is on the witch team for the rest of the game (its engine
    role moves to its character's witch role)."""
    if st.ever_witch[seat] == 0:
        st.ever_witch[seat] = 1
        st.role[seat] = st.character[seat] + N_CHARACTERS
    st.known_team[seat, seat] = WITCH


# --- the public event log -----------------------------------------------------------------------
@inlined
def log_event(st, code, actor, target, value):
    """Append a public event to the observation's ring (LOG codes)."""
    at = OBS.log + (st.obs[OBS.log_count] % LOG_LEN) * LOG_WIDTH
    st.obs[at] = code
    st.obs[at + 1] = actor
    st.obs[at + 2] = target
    st.obs[at + 3] = value
    st.obs[OBS.log_count] += 1


# --- cards in hand, in front, in the discard pile -------------------------------------------------
@inlined
def add_hand(st, seat, kind, delta):
    st.hand[seat, kind] += delta
    hand_size(st)[seat] += delta


@inlined
def discard_card(st, kind, count):
    """Cards to the discard pile (an Alibi played as a Witness goes as the Alibi it is)."""
    if kind == ALIBI_WITNESS:
        kind = CARD.alibi
    discard(st)[kind] += count


@compiled
def discard_hand(st, seat):
    """The whole hand to the discard pile; returns the cards discarded."""
    total = 0
    for k in range(N_CARDS):
        c = st.hand[seat, k]
        if c > 0:
            discard(st)[k] += c
            st.hand[seat, k] = 0
            total += c
    hand_size(st)[seat] = 0
    return total


@inlined
def is_red(kind):
    return kind == ALIBI_WITNESS or (kind < N_CARDS and CARD_COLOUR[kind] == COLOUR.red)


@inlined
def is_blue(kind):
    return kind < N_CARDS and CARD_COLOUR[kind] == COLOUR.blue


@inlined
def red_value(st, seat, kind):
    """Accusations a red card in front of `seat` is worth: Evidence is 1 on Cotton Mather."""
    if kind == CARD.evidence and has_ability(st, seat, CHAR.cotton_mather):
        return 1
    return RED_VALUE[kind]


@compiled
def recount(st, seat):
    """Accusations in front of `seat`, from its red cards (public)."""
    total = 0
    for kind in (CARD.accusation, CARD.evidence, CARD.witness, ALIBI_WITNESS):
        total += front(st, seat, kind) * red_value(st, seat, kind)
    accusations(st)[seat] = total
    return total


@compiled
def recount_all(st):
    """Every seat's accusations (Martha Corey's borrowed Cotton Mather follows her right)."""
    for s in range(st.players):
        recount(st, s)


@compiled
def discard_front(st, seat, reds_only):
    """The cards in front of `seat` to the discard pile: its red cards, or all of them."""
    for kind in range(N_FRONT):
        c = front(st, seat, kind)
        if c > 0 and (not reds_only or is_red(kind)):
            discard_card(st, kind, c)
            set_front(st, seat, kind, 0)
    recount(st, seat)


@compiled
def threshold_of(st, seat, placer):
    """Accusations in front of `seat` that cause a trial when `placer` places the last one: 7,
    George Burroughs 8; Piety read as a double threshold doubles it; Thomas Danforth's
    accusations need 1 fewer."""
    needed = st.accusations  # rules.accusations: the accusations that cause a trial
    if has_ability(st, seat, CHAR.george_burroughs):
        needed += 1
    if st.piety == PIETY.double_threshold and front(st, seat, CARD.piety) > 0:
        needed *= 2
    if placer >= 0 and has_ability(st, placer, CHAR.thomas_danforth):
        needed -= 1
    return max(needed, 1)


@compiled
def red_allowed(st, placer, target):
    """May `placer` play a red card from hand on `target`? Not on itself, not on a dead player,
    not on Piety's holder (unless Piety is read as a double threshold)."""
    if target == placer or not alive(st)[target]:
        return False
    return st.piety == PIETY.double_threshold or front(st, target, CARD.piety) == 0


@compiled
def alibi_removal(accusation_cards, evidence_cards, evidence_value):
    """Alibi: the red cards worth at most 3 accusations it removes, as many accusations as
    possible, Accusation cards first. Returns (Accusation cards, Evidence cards)."""
    best_value, best_a, best_e = 0, 0, 0
    for a in range(min(accusation_cards, 3), -1, -1):
        for e in range(min(evidence_cards, 3) + 1):
            value = a + e * evidence_value
            if value <= 3 and value > best_value:
                best_value, best_a, best_e = value, a, e
    return best_a, best_e


@compiled
def apply_alibi(st, target):
    """Alibi on `target`: removes up to 3 accusations. Returns the accusations removed."""
    before = accusations(st)[target]
    value = 1 if has_ability(st, target, CHAR.cotton_mather) else 3
    a, e = alibi_removal(front(st, target, CARD.accusation), front(st, target, CARD.evidence),
                         value)
    add_front(st, target, CARD.accusation, -a)
    add_front(st, target, CARD.evidence, -e)
    discard(st)[CARD.accusation] += a
    discard(st)[CARD.evidence] += e
    return before - recount(st, target)


@compiled
def move_front(st, source, dest):
    """Scapegoat: every red, green and blue card in front of `source` moves to `dest`. Returns
    the cards moved."""
    moved = 0
    for kind in range(N_FRONT):
        c = front(st, source, kind)
        if c > 0:
            add_front(st, dest, kind, c)
            set_front(st, source, kind, 0)
            moved += c
    recount(st, source)
    recount(st, dest)
    return moved


@compiled
def move_hand(st, source, dest):
    """Robbery: `source`'s whole hand goes to `dest`. Returns the cards moved."""
    moved = 0
    for k in range(N_CARDS):
        c = st.hand[source, k]
        if c > 0:
            st.hand[dest, k] += c
            st.hand[source, k] = 0
            moved += c
    hand_size(st)[dest] += moved
    hand_size(st)[source] = 0
    return moved


@inlined
def immune_to_theft(st, seat):
    """Robbery and Arson have no effect on Sarah Good."""
    return has_ability(st, seat, CHAR.sarah_good)


@compiled
def matchmaker_partner(st, seat):
    """The player linked to `seat` by the two Matchmakers, or -1 (none, or both in front of the
    same player)."""
    if front(st, seat, CARD.matchmaker) == 0:
        return -1
    for s in range(st.players):
        if s != seat and front(st, s, CARD.matchmaker) > 0:
            return s
    return -1


@compiled
def black_cat_holder(st):
    """The living player with the Black Cat in front of them, or -1."""
    for s in range(st.players):
        if alive(st)[s] and front(st, s, CARD.black_cat) > 0:
            return s
    return -1


# --- tryal rows -------------------------------------------------------------------------------------
@compiled
def publish_row(st, seat):
    """The public view of `seat`'s row (revealed kinds, face-down cards) and its face-down count
    (dead players' face-down tryals are out of the game)."""
    down = 0
    for slot in range(MAX_TRYALS):
        code = UNKNOWN
        if slot < st.row_len[seat]:
            tid = st.row[seat, slot]
            if st.tryal_up[tid]:
                code = st.tryal_kind[tid]
            else:
                code = HIDDEN
                down += 1
        st.obs[OBS.row + seat * MAX_TRYALS + slot] = code
    face_down(st)[seat] = down if alive(st)[seat] else 0


@compiled
def learn_tryal(st, viewer, seat, tid):
    """`viewer` sees the face-down tryal `tid` in front of `seat` (it knows it from now on)."""
    bit = 1 << viewer
    if st.tryal_known[tid] & bit:
        return
    st.tryal_known[tid] |= bit
    if st.tryal_kind[tid] == TRYAL.witch:
        st.known_witch[viewer, seat] += 1
        st.known_team[viewer, seat] = WITCH


@compiled
def forget_witch(st, seat, tid):
    """The face-down tryal `tid` leaves `seat` (moved, revealed or out of the game): whoever knew
    it was a Witch there no longer counts it there."""
    if st.tryal_kind[tid] == TRYAL.witch:
        known = st.tryal_known[tid]
        for v in range(st.players):
            if known & (1 << v):
                st.known_witch[v, seat] -= 1


@compiled
def give_tryal(st, seat, tid):
    """Put tryal `tid` at the end of `seat`'s row (its holder sees it)."""
    st.row[seat, st.row_len[seat]] = tid
    st.row_len[seat] += 1
    if st.tryal_kind[tid] == TRYAL.witch:
        known = st.tryal_known[tid]
        for v in range(st.players):
            if known & (1 << v):  # who knew the Witch knows where it went
                st.known_witch[v, seat] += 1
                st.known_team[v, seat] = WITCH
    learn_tryal(st, seat, seat, tid)
    if st.tryal_kind[tid] == TRYAL.witch:
        join_witches(st, seat)


@compiled
def take_tryal(st, seat, slot):
    """Remove the tryal at `slot` from `seat`'s row (the others close up); returns its id."""
    tid = st.row[seat, slot]
    forget_witch(st, seat, tid)
    for i in range(slot, st.row_len[seat] - 1):
        st.row[seat, i] = st.row[seat, i + 1]
    st.row_len[seat] -= 1
    st.row[seat, st.row_len[seat]] = -1
    return tid


@compiled
def remove_tryal(st, seat, tid):
    """Take tryal `tid` out of `seat`'s row."""
    for slot in range(st.row_len[seat]):
        if st.row[seat, slot] == tid:
            take_tryal(st, seat, slot)
            return


@compiled
def pick_face_down(st, seat, rng):
    """One of `seat`'s face-down tryals picked blind (uniformly): its id."""
    slot = face_down_slot(st, seat, uniform_index(face_down(st)[seat], rng))
    return st.row[seat, slot]


@compiled
def face_down_slot(st, seat, pick):
    """The slot of `seat`'s pick-th face-down tryal (0-based), or -1."""
    for slot in range(st.row_len[seat]):
        if not st.tryal_up[st.row[seat, slot]]:
            if pick == 0:
                return slot
            pick -= 1
    return -1


@compiled
def reveal_tryal(st, seat, slot):
    """Turn `seat`'s tryal at `slot` face up (public). A revealed Constable tryal ends the
    constable's power. Returns the kind."""
    tid = st.row[seat, slot]
    forget_witch(st, seat, tid)
    st.tryal_up[tid] = 1
    st.tryal_known[tid] = 0
    kind = st.tryal_kind[tid]
    st.obs[OBS.revealed + seat * 3 + kind] += 1
    if kind == TRYAL.constable:
        st.obs[OBS.constable_gone] = 1
    if kind == TRYAL.witch:  # public from now on
        for v in range(st.players):
            st.known_team[v, seat] = WITCH
    publish_row(st, seat)
    return kind


@inlined
def reveal_kills(st, seat, kind):
    """A revealed Witch, or the reveal of a player's last tryal, kills that player."""
    return kind == TRYAL.witch or face_down(st)[seat] == 0


@compiled
def constable_seat(st):
    """The living holder of a face-down Constable tryal, or -1 (the constable's power ends when
    the Constable tryal is revealed)."""
    for s in range(st.players):
        if alive(st)[s]:
            for slot in range(st.row_len[s]):
                tid = st.row[s, slot]
                if st.tryal_kind[tid] == TRYAL.constable and not st.tryal_up[tid]:
                    return s
    return -1


@compiled
def holds_face_down(st, seat, kind):
    """Face-down tryals of `kind` in front of `seat`."""
    count = 0
    for slot in range(st.row_len[seat]):
        tid = st.row[seat, slot]
        if st.tryal_kind[tid] == kind and not st.tryal_up[tid]:
            count += 1
    return count


# --- what players know of the teams ------------------------------------------------------------
@compiled
def witches_wake(st):
    """Night: the living witches open their eyes together, so each of them learns who is on the
    witch team now and who is not."""
    n = st.players
    for w in range(n):
        if alive(st)[w] and st.ever_witch[w]:
            for s in range(n):
                if alive(st)[s]:
                    st.known_team[w, s] = WITCH if st.ever_witch[s] else 0


@compiled
def town_knowledge_goes_stale(st):
    """After a Conspiracy anyone may have joined the witches: what players knew of others being
    on the town goes stale (what a dead player announced stays; the witch team never shrinks)."""
    n = st.players
    for v in range(n):
        for s in range(n):
            if s != v and st.known_team[v, s] == 0 and team_shown(st)[s] < 0:
                st.known_team[v, s] = UNKNOWN


# --- death --------------------------------------------------------------------------------------------
@compiled
def bury(st, seat):
    """A player dies: out of the game, hand and cards in front to the discard pile, remaining
    tryals revealed and the team announced (or, when the dead are silent, the tryals leave the
    game face down and nothing is announced). Returns the team announced (-1: silent)."""
    alive(st)[seat] = 0
    discard_hand(st, seat)
    discard_front(st, seat, False)
    if st.dead_silent:
        for slot in range(st.row_len[seat]):
            tid = st.row[seat, slot]
            if not st.tryal_up[tid]:
                forget_witch(st, seat, tid)
                st.tryal_known[tid] = 0
        publish_row(st, seat)
        return -1
    for slot in range(st.row_len[seat]):
        if not st.tryal_up[st.row[seat, slot]]:
            reveal_tryal(st, seat, slot)
    team = team_of(st, seat)
    team_shown(st)[seat] = team
    for v in range(st.players):
        st.known_team[v, seat] = team
    return team


# --- the deck -------------------------------------------------------------------------------------------
@compiled
def night_at_bottom(st, rng):
    """A new draw deck: the discard pile and what is left of the deck, shuffled, and Night at
    its bottom. The discard pile is empty afterwards."""
    count = 0
    for i in range(st.pile_size):
        if st.pile[i] != CARD.night:
            st.scratch[count] = st.pile[i]
            count += 1
    for k in range(N_CARDS):
        for _ in range(discard(st)[k]):
            st.scratch[count] = k
            count += 1
        discard(st)[k] = 0
    shuffle(st.scratch, count, rng)
    st.pile[0] = CARD.night
    for i in range(count):
        st.pile[i + 1] = st.scratch[i]
    st.pile_size = count + 1
    st.obs[OBS.deck_size] = st.pile_size


@inlined
def pop_card(st):
    """The top card of the draw deck (it always holds Night at its bottom)."""
    st.pile_size -= 1
    st.obs[OBS.deck_size] = st.pile_size
    return st.pile[st.pile_size]


@inlined
def void_when_two_left(st, kind):
    """With two players left, blue cards, Scapegoat and Robbery are discarded when drawn."""
    return st.obs[OBS.two_left] == 1 and (is_blue(kind) or kind == CARD.scapegoat
                                          or kind == CARD.robbery)


@compiled
def two_left_purge(st):
    """Two players left: every blue card in a hand or in front of a player is discarded, and
    Scapegoat and Robbery in hands too (they count as blue cards from now on). Returns the
    cards discarded."""
    st.obs[OBS.two_left] = 1
    total = 0
    for s in range(st.players):
        for k in range(HAND_KINDS):
            if void_when_two_left(st, k) and st.hand[s, k] > 0:
                c = st.hand[s, k]
                add_hand(st, s, k, -c)
                discard(st)[k] += c
                total += c
        for k in range(N_FRONT):
            if is_blue(k) and front(st, s, k) > 0:
                c = front(st, s, k)
                discard(st)[k] += c
                set_front(st, s, k, 0)
                total += c
    recount_all(st)
    return total


@compiled
def arrange_top(st, depth, picks, n_picks):
    """Tituba's arrangement: the top `depth` cards of the deck get `picks` (card kinds, the
    first on top) first, then the rest of those cards in their order."""
    size = st.pile_size
    taken = st.scratch2
    for i in range(depth):
        taken[i] = 0
    order = st.scratch
    for p in range(n_picks):  # take each pick's first free copy among the top cards
        order[p] = picks[p]
        for i in range(depth):
            if taken[i] == 0 and st.pile[size - 1 - i] == picks[p]:
                taken[i] = 1
                break
    count = n_picks
    for i in range(depth):
        if taken[i] == 0:
            order[count] = st.pile[size - 1 - i]
            count += 1
    for i in range(depth):
        st.pile[size - 1 - i] = order[i]


# --- victory ----------------------------------------------------------------------------------------
@compiled
def witch_tryals_hidden(st):
    """Face-down Witch tryals in front of living players."""
    count = 0
    for s in range(st.players):
        if alive(st)[s]:
            count += holds_face_down(st, s, TRYAL.witch)
    return count


@compiled
def victory(st):
    """The end condition, or -1 while the game goes on. The town wins when every Witch tryal is
    revealed (with silent dead: none is left face down in front of a living player); the witches
    when every living player is on the witch team. Both at once: the town. How the witches won
    follows the deaths being resolved (st.phase)."""
    if witch_tryals_hidden(st) == 0:
        return END.witch_tryals_revealed
    for s in range(st.players):
        if alive(st)[s] and not st.ever_witch[s]:
            return -1
    if st.phase == PHASE.night:
        return END.witches_by_night
    if st.phase == PHASE.conversion:
        return END.witches_by_conversion
    return END.witches_by_day


# --- setup helpers ----------------------------------------------------------------------------
@compiled
def reset_public(st):
    """The public record at the start of a game (before the deal)."""
    n = st.players
    for s in range(MAX_PLAYERS):
        live = 1 if s < n else 0
        alive(st)[s] = live
        hand_size(st)[s] = 0
        accusations(st)[s] = 0
        face_down(st)[s] = 0
        team_shown(st)[s] = UNKNOWN
        parris_left(st)[s] = 0
        tituba_left(st)[s] = 0
        phips_left(st)[s] = 0
        st.obs[OBS.needed + s] = 0
        st.obs[OBS.character + s] = UNKNOWN
        for k in range(N_FRONT):
            set_front(st, s, k, 0)
        for k in range(3):
            st.obs[OBS.revealed + s * 3 + k] = 0
        for slot in range(MAX_TRYALS):
            st.obs[OBS.row + s * MAX_TRYALS + slot] = UNKNOWN
    for k in range(N_CARDS):
        discard(st)[k] = 0
    for name in (OBS.turn, OBS.nights, OBS.two_left, OBS.conspiracies, OBS.constable_gone,
                 OBS.log_count, OBS.deck_size):
        st.obs[name] = 0
    st.obs[OBS.current] = UNKNOWN


@compiled
def set_character(st, seat, character):
    """A seat's character (public), with the once- and twice-per-game uses it brings."""
    st.character[seat] = character
    st.obs[OBS.character + seat] = character
    st.role[seat] = character + (N_CHARACTERS if st.ever_witch[seat] else 0)
    parris_left(st)[seat] = 2
    tituba_left(st)[seat] = 1
    phips_left(st)[seat] = 1
