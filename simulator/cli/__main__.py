"""`python -m simulator.cli`: the `fairplay` command."""

from simulator.cli import main

main()
