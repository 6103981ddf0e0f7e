"""Cutting a turn into sentences, and the lines that are the speaker's own."""

from __future__ import annotations

import re

from beliefgraph.language.values import SPELLED

# -- sentences -----------------------------------------------------------------------------

#: a fenced code block (``` or ~~~), to its closing fence or the end of the message
_FENCE = re.compile(r"(`{3,}|~{3,}).*?(?:\1|\Z)", re.DOTALL)
#: a line indented as code: four spaces or a tab
_INDENTED = re.compile(r"^(?: {4}|\t)")
_BULLET = re.compile(r"^\s*(?:[-*\u2022]|\d+[.)])\s+")
_SENTENCE_END = re.compile(
    # not after an abbreviation ("e.g. this one", "etc. that sort")
    r"(?<!\be\.g\.)(?<!\bi\.e\.)(?<!\betc\.)(?<!\bvs\.)(?<!\bapprox\.)"
    r"(?<=[.!?])\s+(?=[\"'(\[/A-Z0-9\x00]|(?:also|and|but|so|ok|okay|i|we|my|our|pls|please|oh|"
    r"btw|then|plus|anyway|still|can|could|would|will|what|how|just|no|yeah|yes|nah|eh|"
    r"honestly|fyi|thx|thanks|let'?s|from|when|it'?s|that|this|don'?t|im|"
    # an instruction or a course in chat's lower case: "ok good. keep it short", "fine.
    # going w the cruz"
    r"keep|put|use|give|write|stop|never|always|going|doing|sticking|skipping|keeping|"
    r"dropping|booking|ordering|tell|call|avoid)\b)"
    # a question ends where its mark is, whatever follows: "what if we drove? like 14 hours."
    r"|(?<=\?)\s+(?=[a-z])"
)
#: the ``/remember`` command, at the start of a line, after a greeting ("Hi! /remember …") or
#: after a sentence; elsewhere ("How do I use /remember?") it is only mentioned
REMEMBER = re.compile(
    r"(?:^[ \t]*(?:(?:hi|hello|hey|ok|okay|please|also|and|so|oh|thanks|thank you)\b[ \t,.!:;-]*)*"
    r"|(?<=[.!?])[ \t]+)/remember\b[:\s]*",
    re.IGNORECASE | re.MULTILINE,
)
#: words in quotation marks or inline code: mentioned, not said by the speaker (an
#: apostrophe is no quote)
_QUOTED = re.compile(
    r"`[^`\n]*`|\"[^\"\n]*\"|\u201c[^\u201d\n]*\u201d|\u2018[^\u2019\n]*\u2019|(?<![\w'])'[^'\n]*'(?![\w'])"
)
_HIDDEN = re.compile(r"\x00(\d+)\x00")
#: a quoted line, as in a reply to an email: someone else's words
_QUOTE_LINE = re.compile(r"^\s*>")
#: a line's first colon and what stands before it, unless that colon is a URL's
_COLON = re.compile(r"^(?P<intro>[^:]{1,120}?):(?!//)")
#: what, said before a colon, makes the rest someone else's words or material to work on:
#: "Here is the email from Bob:", "My boss wrote:", "Translate to German:". A bare noun is a
#: topic, not material: "Commit messages: always use the imperative." is the user's rule.
_MATERIAL = re.compile(
    r"\b(?:the|this|that|these|those|a|an|his|her|their|its|my|our|your|\w+'s)\s+(?:\w+\s+)?"
    r"(?:e-?mails?|mails?|messages?|texts?|letters?|posts?|comments?|tweets?|transcripts?|"
    r"logs?|outputs?|errors?|quotes?|excerpts?|paragraphs?|passages?|articles?|documents?|"
    r"drafts?|snippets?|threads?|memos?|announcements?)\b"
    r"|\b(?:said|says|wrote|writes|asked|asks|replied|replies|told|tells|texted|emailed|posted|"
    r"txted|messaged|forwarding|forwarded)\b"
    r"|^(?:(?:please|can you|could you|would you|ok|okay|now|also|and)\s+)*"
    r"(?:translate|summari[sz]e|proofread|rewrite|rephrase|paraphrase|reword|fix|correct|check|"
    r"review|edit|reformat|explain|analy[sz]e|shorten|improve|polish|reply to|respond to)\b",
    re.IGNORECASE,
)


#: where a forwarded message or a pasted email begins: what follows is someone else's
_FORWARDED = re.compile(
    r"^\s*(?:-{2,}\s*(?:forwarded|original) message\s*-{2,}|begin forwarded message\s*:|"
    r"(?:from|sent|to|cc|subject|date)\s*:\s*\S.*(?:@|\d{4}|<))",
    re.IGNORECASE,
)
#: a line that opens a quotation ('"Hi Tom, ...'), and a closing mark: a message pasted in
#: quotation marks over several lines is someone else's
_OPENS_QUOTE = re.compile('^\\s*["\u201c]')
_CLOSES_QUOTE = re.compile('["\u201d]')
#: a mail's header line ("From: Facilities Team", "Subject: Office move")
_HEADER = re.compile(r"^\s*(?:from|sent|to|cc|subject|date)\s*:\s*\S", re.IGNORECASE)
#: a line that only separates ("-----", "_____")
_SEPARATOR = re.compile(r"^\s*(?:-{3,}|_{3,}|={3,})\s*$")
#: the time a chat stamps on a line, in brackets, before the name ("[10:02] ravi: …"); a time
#: without them heads a plan ("9:00 gym: …")
_STAMP = r"(?:\[\d{1,2}:\d{2}(?::\d{2})?\s*(?:[ap]\.?m\.?)?\]\s*)?"
#: a line of a pasted chat: a speaker's name, a colon, what they said ("Bob: we decided …"),
#: or the name in brackets ("[Bob] we decided …", "<Bob> …").
#: Labels the user writes themselves ("Decision: …", "Rule: …", "Note: …") are not names.
_SPEAKER = re.compile(
    r"^" + _STAMP + r"(?:(?P<name>[A-Z][\w.'-]*(?: [A-Z][\w.'-]*)?)\s*:\s+\S|"
    r"[\[<](?P<bracketed>[A-Z][\w.'-]*(?: [A-Z][\w.'-]*)?)[\]>]\s*\S)"
)
#: a chat's line with the name in lower case ("priya: ok so ..."): a pasted chat when the
#: message has three or more, by two names or more
_CHAT_LINE = re.compile(r"^" + _STAMP + r"(?P<name>[a-z][\w.'-]{1,20})\s*:\s+\S")
#: days and months however written: "monday: gym" is a plan, not a chat
CALENDAR_NAMES = frozenset(SPELLED) | {"may"}
_LABELS = frozenset(
    {
        *("decision", "rule", "policy", "note", "notes", "update", "reminder", "todo"),
        *("correction", "fyi", "ps", "also", "edit", "question", "answer", "summary"),
        *("context", "tldr", "important", "warning", "tip", "idea", "plan", "goal", "status"),
    }
)


def sentences(content: str) -> list[str]:
    """The sentences of a message in the speaker's own words (see :func:`own_lines`), split
    at their stops, never inside quotation marks.

    >>> sentences('Here is the email from Bob:\\nWe decided to cancel.\\nThanks, Bob')
    ['Here is the email from Bob:']
    """
    return [s for line in own_lines(content) for s in split_clauses(line)]


def said_and_remembered(content: str) -> tuple[list[str], list[str]]:
    """A user's sentences (:func:`sentences`) before their first ``/remember`` command, and
    what each command asks to remember: all up to the next command, or the end. A quoted or
    pasted ``/remember`` is no command (commands are read from :func:`own_lines`).

    >>> said_and_remembered("We use tabs. /remember the wifi is tulip-42")
    (['We use tabs.'], ['the wifi is tulip-42'])
    """
    content = "\n".join(own_lines(content))
    commands = list(REMEMBER.finditer(content)) if "/remember" in content.lower() else []
    said = content[: commands[0].start()] if commands else content
    starts = [c.start() for c in commands] + [len(content)]
    remembered = [content[c.end() : starts[i + 1]] for i, c in enumerate(commands)]
    return [s for line in said.splitlines() for s in split_clauses(line)], remembered


def own_lines(content: str) -> list[str]:
    """The lines of a message the speaker says, list markers cut: what any cue, a
    ``/remember`` included, is read from.

    Code is dropped (fenced blocks, and lines indented four spaces after a line that ends
    with a colon, a list item aside), and so is what the speaker quotes rather than says:
    lines starting with ``>``, and everything after a line that introduces material ("Here
    is the email from Bob:", "Translate to German: …") to the end of the message — or,
    when the material is quoted with ``>``, those lines only.
    """
    out: list[str] = []
    # a NUL would pass for the marks split_clauses hides quotations behind
    lines = _FENCE.sub(" ", content.replace("\x00", "")).splitlines()
    # "priya: ok so we decided ..." is a chat's line when others are written the same way
    names = [m["name"] for raw in lines if (m := _CHAT_LINE.match(raw.strip()))]
    # three lines or more, by two names at least, neither a day or a month ("monday: gym")
    chat = len(names) >= 3 and len(set(names)) >= 2 and not set(names) & CALENDAR_NAMES
    code, introduced, quoting = False, False, False
    for i, raw in enumerate(lines):
        if not raw.strip():
            continue
        indented = bool(_INDENTED.match(raw))
        code = indented and (code or (introduced and not _BULLET.match(raw)))
        introduced = raw.rstrip().endswith(":")
        if quoting:
            # inside a quotation that spans lines: someone else's words, to its closing mark
            quoting = not _CLOSES_QUOTE.search(raw)
            continue
        if code or _QUOTE_LINE.match(raw):
            continue
        if _OPENS_QUOTE.match(raw) and _closes_later(raw, lines[i + 1 :]):
            quoting = True
            continue
        line = _BULLET.sub("", raw).strip()
        if not line:
            continue
        if _FORWARDED.match(line) or (_SEPARATOR.match(line) and _headed(lines[i + 1 :])):
            break  # a forwarded message, to the end: none of it is the speaker's
        speaker = _SPEAKER.match(line) or (_CHAT_LINE.match(line) if chat else None)
        if speaker is not None and (
            speaker.groupdict().get("bracketed") or speaker["name"].lower() not in _LABELS
        ):
            continue  # a line of a pasted chat: that person's words
        intro = _introduction(line)
        out.append(line if intro is None else intro)
        if intro is not None and not _QUOTE_LINE.match(
            next((n for n in lines[i + 1 :] if n.strip()), "")
        ):
            break
    return out


def _closes_later(line: str, rest: list[str]) -> bool:
    """Whether a line that opens a quotation leaves it open, to be closed on a later line
    before a blank one: a quotation that never closes is no quotation."""
    if _CLOSES_QUOTE.search(line.strip()[1:]):
        return False
    for later in rest:
        if not later.strip():
            return False
        if _CLOSES_QUOTE.search(later):
            return True
    return False


def _headed(rest: list[str]) -> bool:
    """Whether the lines after a separator start with a mail's headers: a pasted email."""
    first = next((line for line in rest if line.strip()), "")
    return bool(_HEADER.match(first))


def _introduction(line: str) -> str | None:
    """The line cut after its colon when what stands before the colon introduces material
    ("Here is the email from Bob:"), else ``None``. Only a short lead-in (12 words) counts:
    a long sentence with a colon in it says something itself."""
    colon = _COLON.match(line)
    if colon is None or len(colon["intro"].split()) > 12:
        return None
    return colon["intro"] + ":" if _MATERIAL.search(is_mentioned(colon["intro"])) else None


def split_clauses(line: str) -> list[str]:
    """The sentences of one line, a quotation kept whole whatever stops it holds."""
    quoted: list[str] = []

    def hide(m: re.Match[str]) -> str:
        quoted.append(m.group())
        return f"\x00{len(quoted) - 1}\x00"

    parts = _SENTENCE_END.split(_QUOTED.sub(hide, line))
    return [_HIDDEN.sub(lambda m: quoted[int(m[1])], p).strip() for p in parts if p.strip()]


def is_mentioned(sentence: str) -> str:
    """The sentence with what it quotes blanked out: quoted words carry no cue."""
    return _QUOTED.sub('"…"', sentence)


#: what chat opens a clause with that says nothing: "ok", "yeah", "ugh", "fine," (not
#: "actually", which tells a correction)
_FILLER = re.compile(
    r"^(?:(?:and|but|so|then|also|ok(?:ay)?|yeah|yep|yup|nah|ugh|um+|hmm+|eh|alright|lol|haha)"
    r"\b[\s,.!:;-]*|(?:fine|right)\s*[,.!:;-]+\s*)+",
    re.IGNORECASE,
)


def tidy(text: str) -> str:
    """A statement's text: whitespace collapsed, the fillers it opens with and a dangling
    comma or conjunction cut.

    >>> tidy("ok fine, we'll crate train.")
    "we'll crate train."
    """
    text = re.sub(r"\s+", " ", text).strip()
    text = _FILLER.sub("", text)
    return text.strip(" ,;:-")


_REASON = re.compile(r"\s*,?\s+because\s+(?:of\s+)?", re.IGNORECASE)
_LEADING_REASON = re.compile(r"^because\s+(?P<reason>[^,]+),\s*(?P<claim>.+)$", re.IGNORECASE)


def split_reason(sentence: str) -> tuple[str, str | None]:
    """``(claim, reason)`` when a sentence gives a reason ("because"), else ``(sentence, None)``."""
    leading = _LEADING_REASON.match(sentence)
    if leading:
        return tidy(leading["claim"]), tidy(leading["reason"])
    parts = _REASON.split(sentence, maxsplit=1)
    if len(parts) == 2 and tidy(parts[0]) and tidy(parts[1]):
        return tidy(parts[0]), tidy(parts[1])
    return tidy(sentence), None
