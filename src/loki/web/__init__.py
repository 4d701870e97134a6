"""The browser table (``loki web``): people play against any bots, every bot decision explained.

Modules: :mod:`~loki.web.app` (the Starlette app: pages, JSON API, WebSocket) and :mod:`~loki.web.session` (the
step-wise game driver); the page itself is in ``static/``.
"""
