"""Talking to the outside world: ACPC game definitions, protocol client and dealer, ACPC logs, PHH."""
