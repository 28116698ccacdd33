"""How `fairplay trace template` tells one game: the renderers its TRACE_EVENTS' sentences use.

HOOK: a renderer for each `{field:renderer}` of the declared sentences, a `tell_<event>(row)` for
a sentence that needs logic (row.<field> for its named fields), and `header()` or state kept
from row to row where a game needs them (simulator/games/story.py).
"""

from simulator.games.story import Story, trace_decoder

from .declaration import END_CONDITIONS, ROLES, TEAMS, TRACE_EVENTS


class TemplateStory(Story):
    @staticmethod
    def role(code):
        return ROLES[code].name

    @staticmethod
    def team(code):
        return TEAMS[code]

    @staticmethod
    def end(code):
        return END_CONDITIONS[code].meaning


decode_trace = trace_decoder(TRACE_EVENTS, TemplateStory)
