"""What a Vita Mors Conspiro run counts beyond the standard tallies (team, seat, role and strategy
wins; turns; end conditions, which also say who initiated the ritual; the events, which count the
spells by the item flipped and what happened at the table).

The spells by kind and what followed them: `spells_cast` counts each flipped item (its entries are
the `spell_*` events), and two rates per kind say how many of those spells an exile cast and how
many were cast in games the exiles went on to win. The altar sizes at the end and the yes votes
that started the ritual are histograms.
"""

from simulator.games.base import Tally

from .declaration import MAX_ALTAR, MAX_PLAYERS

TALLIES = (
    Tally("spells_cast", "event", "count",
          "spells cast, by the item flipped (the spell_* events; other events 0)"),
    Tally("spell_exile_casters", "event", "count", "of those, cast by an exile",
          per="spells_cast"),
    Tally("spell_exile_wins", "event", "count", "of those, cast in a game the exiles won",
          per="spells_cast"),
    Tally("life_cards_hist", "none", "histogram", "Life Altar cards at the end of the game",
          bins=MAX_ALTAR + 1),
    Tally("death_cards_hist", "none", "histogram", "Death Altar cards at the end of the game",
          bins=MAX_ALTAR + 1),
    Tally("ritual_yes_hist", "none", "histogram", "yes votes of the ritual vote that started the "
                                                  "ritual", bins=MAX_PLAYERS + 1),
)
