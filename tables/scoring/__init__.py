"""Score sheets of the card-room games: scored, not banked (pure Python, like the engines)."""
