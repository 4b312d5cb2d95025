"""Playing rounds rather than judging them: the table simulator of the demo floor, load tests and
benchmarks (:mod:`autoplay`), and settlers that replay a shoe round after round without the round
document (:mod:`baccarat`, :mod:`blackjack`). Pure Python like the engines they drive; production
code never imports it."""
