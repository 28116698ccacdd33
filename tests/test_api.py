"""The Python API a designer uses from a notebook."""

from simulator import api


def test_load_run_summarise_trace():
    cfg = api.load("werewolf", players=12, overrides=["roles.werewolf=3"])
    assert cfg.players == 12 and cfg.params.wolves == 3
    result = api.run(cfg, games=3_000, seed=1, workers=1)
    summary = api.summarize(result)
    records = summary.records()
    teams = [r for r in records if r["group"] == "team"]
    assert [r["name"] for r in teams] == ["human", "wolf"]
    assert sum(r["wins"] for r in teams) == 3_000
    for record in records:
        assert record["low"] <= record["rate"] <= record["high"]
    assert "Verdict" in summary.table() and summary.verdict
    lines = api.trace(cfg, seed=3)
    assert lines[0].startswith("Deal") and "wins" in lines[-1]
