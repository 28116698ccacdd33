"""`fairplay serve`: the designer's workbench in the browser.

A setup editor generated from each game's declared keys (`setups`), runs that are ordinary
`fairplay run`s in processes of their own, watched live (`runs`, `play`), and the web app that
shows them (`app`, with its templates). docs/serve.md explains it to its users.

May import: api, reports, studies, statistics, run, setup. Must not import: cli (a run or a
search of the workbench goes through the same functions the command line calls).
"""
