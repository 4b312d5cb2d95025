"""Card-room services: each one transaction that locks, checks, writes, posts and audits."""
