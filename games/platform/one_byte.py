"""HTML one byte a character: every character above U+00FF written as a character reference.

CPython keeps a str one, two or four bytes a character by its widest character (PEP 393's
compact strings): a single ’ made a board game's whole status partial two-byte text, and every
join, slice, hash and scan of it, in the render and in the tree reader (swaps.py), handled
twice the bytes, and each join and slice looked for the widest character again
(find_max_char). The browser reads `&#8217;` as ’, so what a player sees is the same; a
character up to U+00FF (`·`, `×`) is one byte as it is, and stays.

Done in the platform, so a game's Jinja2 partials are one-byte without a word from it:

- the templates' own text, at compile time (`OneByteText`, in games/platform/jinja.py's
  environment);
- every value printed into them (`jinja.as_django_prints`, after escaping);
- safe HTML the platform makes itself: a log line's words (`presenters.LogLine.marked`) and
  a Django template's render on the push's path (`rendering.render_unlocalized`).

Safe HTML a game writes in Python passes through `one_byte` itself (Chudopoly's card faces);
tests/tables/test_one_byte_pushes.py plays every game and fails on a push that is not.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from jinja2.ext import Extension
from jinja2.lexer import TOKEN_DATA, Token, TokenStream


def one_byte(text: str) -> str:
    """`text` with each character above U+00FF as a decimal character reference (`&#8217;`).
    An ASCII str, nearly every value, is returned as it is (`isascii` reads a flag); a
    SafeString's result is a plain str. Only for HTML text and attribute values: inside a
    `<script>` or `<style>` a reference is not read as one."""
    if text.isascii():
        return text
    return text.encode("latin-1", "xmlcharrefreplace").decode("latin-1")


# Where a template's raw text elements open and close: their content is not HTML text.
_RAW_TEXT = re.compile(r"<(/?)(?:script|style)\b", re.IGNORECASE)


class OneByteText(Extension):
    """A template's own text (not its expressions) made one-byte when it is compiled.

    Only the lexer's data tokens are written anew: a string literal inside `{{ }}` or `{% %}`
    is a value, printed through `as_django_prints`, which escapes it and then writes its
    references (writing them here too would escape their `&` again). Text inside a
    `<script>` or `<style>` element is left as it is."""

    def filter_stream(self, stream: TokenStream) -> Iterator[Token]:
        raw = False  # inside a <script> or <style>, from data token to data token
        for token in stream:
            if token.type == TOKEN_DATA and (raw or "<" in token.value
                                             or not token.value.isascii()):
                value, raw = _text_as_references(token.value, raw)
                token = Token(token.lineno, TOKEN_DATA, value)
            yield token


def _text_as_references(text: str, raw: bool) -> tuple[str, bool]:
    """`text` with `one_byte` applied outside raw text elements; `raw` says whether it starts
    inside one, and the second value whether it ends inside one."""
    out: list[str] = []
    done = 0
    for found in _RAW_TEXT.finditer(text):
        piece = text[done:found.start()]
        out.append(piece if raw else one_byte(piece))
        raw = not found.group(1)  # a start tag opens raw text, an end tag closes it
        done = found.start()
    rest = text[done:]
    out.append(rest if raw else one_byte(rest))
    return "".join(out), raw
