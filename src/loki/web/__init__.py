"""The browser table (``loki web``): people play against any bots, every bot decision explained.

Modules: :mod:`~loki.web.app` (the Starlette app: pages, JSON API, WebSocket), :mod:`~loki.web.session` (the
step-wise game driver) and :mod:`~loki.web.server` (how the app is served: uvicorn's settings, what a client can
hold and for how long); the page itself is in ``static/``.
"""
