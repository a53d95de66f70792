"""The HTTP side of browser play (`card_envs.web`): the standard library's ThreadingHTTPServer, no
framework (four routes and JSON need none).

    GET  /play/<token>                 the page (its style and the game's card notes inline)
    GET  /api/<token>/view?since=V     the seat's view; with ``since`` equal to the current version
                                       it waits (up to ``wait`` seconds) for the next move first
    POST /api/<token>/move             {"action": int, "version": int} -> the new view, or a refusal
    GET  /api/<token>/help?topic=T     {"text": ...}: the rules, a card's text, the topics

A refusal is ``{"error": "..."}`` with a 4xx status and changes nothing: 400 malformed JSON or
fields, 404 an unknown link, 409 a stale move, a move out of turn or after the end, 411/413 a
missing or oversized body, 422 an illegal action.
"""

from __future__ import annotations

import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from card_envs.web.page import page_html
from card_envs.web.session import Refused, WebGame

MAX_BODY = 4096  # bytes: a move is a few dozen


class PlayServer(ThreadingHTTPServer):
    """A server for one `WebGame`; ``links()`` are the players' addresses."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, session: WebGame, host: str = "127.0.0.1", port: int = 8000, wait: float = 10.0,
                 quiet: bool = True):
        super().__init__((host, port), Handler)
        self.session, self.wait, self.quiet = session, wait, quiet
        self.page = page_html(session.game, f"{session.env_id}")

    @property
    def address(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{'127.0.0.1' if host in ('0.0.0.0', '') else host}:{port}"

    def links(self) -> dict[int, str]:
        return {seat: f"{self.address}/play/{token}" for seat, token in sorted(self.session.humans.items())}

    def start_background(self) -> threading.Thread:
        """Serve in a daemon thread (tests, notebooks); `stop` ends it."""
        self.session.start()
        thread = threading.Thread(target=self.serve_forever, daemon=True, name="card_envs.web")
        thread.start()
        return thread

    def handle_error(self, request, client_address) -> None:
        """A page reloaded or closed while its request was open is no error worth a traceback."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)

    def stop(self) -> None:
        self.session.close()
        self.shutdown()
        self.server_close()


class Handler(BaseHTTPRequestHandler):
    server: PlayServer
    # HTTP/1.0: one request per connection, so no connection outlives `stop` (a page kept alive on
    # a stopped server would go on playing a game no longer saved); on localhost it costs nothing.
    protocol_version = "HTTP/1.0"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (the base class's name)
        if not self.server.quiet:
            super().log_message(format, *args)

    def _send(self, status: int, body: bytes, kind: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        try:
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):  # the page was reloaded or closed meanwhile
            pass

    def _json(self, status: int, data: Any) -> None:
        self._send(status, json.dumps(data, separators=(",", ":")).encode(), "application/json; charset=utf-8")

    def _route(self) -> tuple[str, str, dict[str, list[str]]]:
        """(kind, token, query) of the path: kind is "page", "view", "move", "help" or ""."""
        url = urlsplit(self.path)
        parts = [p for p in url.path.split("/") if p]
        query = parse_qs(url.query)
        if len(parts) == 2 and parts[0] == "play":
            return "page", parts[1], query
        if len(parts) == 3 and parts[0] == "api" and parts[2] in ("view", "move", "help"):
            return parts[2], parts[1], query
        return "", "", query

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        kind, token, query = self._route()
        session = self.server.session
        try:
            if kind == "page":
                session.seat(token)
                self._send(200, self.server.page.encode(), "text/html; charset=utf-8")
            elif kind == "view":
                since = query.get("since", [""])[0]
                session.seat(token)
                if since.lstrip("-").isdigit() and int(since) == session.version:
                    session.wait_for_change(int(since), self.server.wait)
                self._json(200, session.view(token))
            elif kind == "help":
                self._json(200, {"text": session.help(token, query.get("topic", [""])[0])})
            elif kind == "move":
                raise Refused(405, "a move is sent with POST")
            else:
                raise Refused(404, f"no such page: {urlsplit(self.path).path}; open the /play/<token> link the "
                                   "server printed for your seat")
        except Refused as refusal:
            self._json(refusal.status, {"error": refusal.message})

    def do_POST(self) -> None:  # noqa: N802
        kind, token, _ = self._route()
        try:
            if kind != "move":
                raise Refused(404, "only moves are posted: POST /api/<token>/move")
            self.server.session.seat(token)
            self._json(200, self.server.session.move(token, self._body()))
        except Refused as refusal:
            self._json(refusal.status, {"error": refusal.message})

    def _body(self) -> Any:
        length = self.headers.get("Content-Length")
        if length is None or not length.isdigit():
            raise Refused(411, "a move needs a Content-Length header")
        if int(length) > MAX_BODY:
            raise Refused(413, f"a move is at most {MAX_BODY} bytes, got {length}")
        raw = self.rfile.read(int(length))
        try:
            return json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise Refused(400, f'malformed JSON ({error}); a move is {{"action": <int>, "version": <int>}}') from None
