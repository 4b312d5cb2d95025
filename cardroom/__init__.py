"""The card room: score sheets of scored (non-banked) games, tournaments, rake and entry fees."""
