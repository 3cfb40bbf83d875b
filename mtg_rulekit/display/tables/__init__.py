"""The tables: the game's board, players, stack and events, and the rulings coverage table.

- `rows`: the game's tables as plain data and HTML, standard library only (every view's tables,
  the page's sandbox included);
- `dataframes`: the same tables as pandas DataFrames, for a notebook;
- `coverage`: the rulings coverage table (R01-R19), for the start-here notebook and the site's
  index.
"""
