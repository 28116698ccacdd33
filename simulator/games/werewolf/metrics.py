"""What a werewolf run counts beyond the standard tallies (simulator.games.base.standard_tallies):
nothing yet. The game's own measures are its `events` counters and `end_counts`, named in
declaration.py."""

TALLIES = ()
