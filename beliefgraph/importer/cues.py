"""The cues that make a sentence a statement worth keeping, and whose it is."""

from __future__ import annotations

import re

from beliefgraph.importer.sentences import is_mentioned, split_reason
from beliefgraph.models import Kind
from beliefgraph.text import CORRECTION_OPENING

# -- cues ----------------------------------------------------------------------------------


def _any(*patterns: str) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in patterns), re.IGNORECASE)


_NEG = r"(?:haven'?t|have not|hasn'?t|has not|didn'?t|did not|not yet|not)"
_PLAN_VERBS = r"(?:be|want|try|switch|use|go|make|do|add|move|change|drop)"
#: hedges that are open questions on their own: the speaker says they are still deciding
DELIBERATION = _any(
    rf"\b{_NEG}\s+(?:\w+\s+)?(?:decided|made up my mind|chosen|settled|committed|determined)\b",
    r"\b(?:can'?t|cannot|can not|couldn'?t) (?:decide|choose|make up my mind)\b",
    r"\b(?:thinking|thought) (?:about|of)\b",
    r"\b(?:considering|wondering|toying with|on the fence|undecided|torn (?:between|on|about))\b",
    r"\btrying to (?:decide|choose|pick|figure out)\b",
    r"\b(?:still )?(?:deciding|debating|choosing) (?:between|whether|on|if|which)\b",
    r"\b(?:haven'?t|have not|not yet) (?:figured|worked) out\b",
    rf"\b(?:i|we) (?:may|might|could) (?:\w+ )?{_PLAN_VERBS}\b",
    r"\b(?:no idea|don'?t know|do not know) (?:yet|if|whether)\b",
    r"\bnot (?:\S+ )?sure (?:yet|about|whether|if|which|how|what|when|where)\b",
    r"\b(?:unsure|idk|dunno) (?:yet|about|whether|if|which|how|what)\b",
    r"\bthinking maybe\b",
    r"\b(?:going|went|go) back and forth\b",
    r"\b(?:leaning (?:towards?|to)?|sleep on it|mulling (?:over|it)|weighing (?:up )?)\b",
    r"\bnothing(?:'s| is)? decided\b",
    r"\b(?:let me|lemme|need to|gotta|have to) think (?:about|it over)\b",
    r"\bstill (?:figuring|working) (?:it |that |this )?out\b",
)
#: words that soften whatever they stand with. On their own they carry nothing ("Maybe.",
#: "I think you're right."); with a decision, rule, preference or correction, or with a plan
#: of the speaker's (below), they make it an open question: "I think we'll use Postgres" is
#: not a decision
SOFTENER = _any(
    r"\b(?:maybe|perhaps|possibly|probably|likely|someday|some day|one day|eventually)\b",
    r"\b(?:tentatively|provisionally)\b",
    r"\bi (?:don'?t |do not )?(?:think|guess|suppose|reckon|believe)\b",
    r"\bnot (?:\S+ )?(?:sure|certain|convinced)\b",
    rf"\b(?:may|might|could) {_PLAN_VERBS}\b",
)
#: the speaker's own plan, which a softener turns into a hedge ("maybe we should use Postgres")
PLAN = _any(
    r"\blet'?s\b",
    r"\b(?:i|we)(?:'ll| will| should| shall| could| might| may| need| want|'re going to|"
    r" are going to|'m going to| am going to)\b",
)
#: every hedge, for checking a text someone else classified (see :class:`LLMExtractor`)
HEDGE = _any(DELIBERATION.pattern, SOFTENER.pattern)
#: what a sentence may open with before it says anything: "Actually, …", "Ok so …"
_LEAD = (
    r"^(?:(?:actually|ok(?:ay)?|so|and|but|also|well|oh|hi|hey|hello|sorry|thanks|thank you|"
    r"yes|yeah|yep|yup|nah|"
    r"now|hmm+|um+|alright|right|great|cool|nice|awesome|perfect|fyi|btw|tbh|fwiw|imo)\b"
    r"[\s,.!:;-]*)*"
)
#: a plain statement about the speaker's own things: a subject that is theirs or definite
#: ("my dentist", "our fiscal year", "the standup", "we", "I"), then what it is or does
_FACT = re.compile(
    _LEAD + r"(?:my|our|the|we|i)\b[\w' -]{0,60}?\b(?:is|are|s|live|lives|use|uses|end|ends|"
    r"start|starts|run|runs|cost|costs|open|opens|close|closes|has|have|sit|sits|meet|meets)\s+\S",
    re.IGNORECASE,
)
#: a value worth remembering: a number, a name written with a capital inside the sentence,
#: a code ("tulip-42"), an acronym
_VALUE = re.compile(r"\d|(?<![.!?]\s)\b[A-Z][a-z]+|\b[a-z]+-\w+\b|\b[A-Z]{2,}\b")
#: the word after "When you quiz me," that makes the rest an instruction, not a report: a verb,
#: so not a subject ("When you arrived, I was asleep")
_NOT_A_SUBJECT = r"(?!(?:i|we|he|she|it|they|you|the|my|our|his|her|their|this|that|there)\b)[a-z]+"
#: questions that deliberate about a choice (a request such as "can you …?" is not one)
OPEN_QUESTION = _any(
    _LEAD + r"(?:should|shall) (?:we|i)\b.*\?$",
    _LEAD + r"(?:would it be better|is it worth|do we (?:want|need)|which (?:one|should))\b.*\?$",
)
#: a sentence that opens as a question; with a "?" it asks, and asserts nothing
QUESTION = re.compile(
    _LEAD + r"(?:please\s+)?(?:what|when|where|who|whom|whose|why|how|which|"
    r"(?:can|could|would|will|won'?t|do|does|did|don'?t|doesn'?t|didn'?t|is|are|was|were|"
    r"isn'?t|aren'?t|has|have|should|shall|may|might|am)\s+(?:you|i|we|it|they|he|she|there|"
    r"this|that|these|those|the|a|an|my|your|our|any\w*|some\w*))\b",
    re.IGNORECASE,
)
#: a question that supposes: "if we moved ..., would ...?", "what if ...?", "say we ..."
_SUPPOSING = re.compile(_LEAD + r"(?:what if|if|suppose|supposing|say)\b", re.IGNORECASE)
#: a sentence that asks the assistant for something now, with a question mark or without
REQUEST = re.compile(
    _LEAD + r"(?:please\s+)?(?:(?:can|could|would|will|won'?t) you|would you mind|"
    r"i (?:was )?wonder(?:ing)? if you)\b",
    re.IGNORECASE,
)
CORRECTION = _any(
    _LEAD + rf"{CORRECTION_OPENING}",
    r"\bno longer\b",
    # (not "I'm switching to ...": a course taken now, a decision)
    r"(?<!\bi'm )(?<!\bwe're )(?<!\bi am )(?<!\bwe are )"
    r"\b(?:changed|switched|moved|changing|switching)\b(?:\s+\w+){0,3}\s+(?:to|from)\b",
    # (not "don't give me hostels anymore": a rule for the assistant)
    r"^(?!\W*(?:please\s+)?(?:don'?t|do not|never)\b).*(?:\bnot\b|n'?t\b).{1,60}\bany ?more\b",
    r"\b(?:i|we)(?:'ve| have)? (?:stopped|quit|dropped|ditched|got rid of|moved off|"
    r"migrated off|switched away from)\b",
    # (not after a decision: "I've decided to focus on X instead of Y" is a decision)
    r"^(?!.*\b(?:decided|chosen|chose|opted|settled on|gonna|going to|always|usually)\b)"
    r".*\binstead of\b",
    r"\bis now\b",
    # the old value named beside the new one: "it's Dr. Okafor now, not Dr. Lind", "remote
    # Mondays and Fridays now, it used to be just Fridays"
    r"\bnow,?\s+not\b",
    r"\bnow\b.{0,40}\bused to be\b|\bused to be\b.{0,40}\bnow\b",
    # "it's actually 18.2": a value put right, not "it's actually great"
    r"\b(?:it'?s|it is|they'?re|they are) actually (?=\S*\d)",
    r"\bi (?:know i )?(?:said|told you)\b.{1,60}\b(?:earlier|before)\b",
    # a date or plan moved by someone: "the move got pushed to June", "the trip got cancelled"
    r"\b(?:got|was|were|has been|have been) (?:pushed|moved|bumped|postponed|rescheduled|"
    r"brought forward)(?: back)? (?:to|till|until|from)\b",
    r"\b(?:got|has been|have been) (?:cancell?ed|scrapped)\b",
    _LEAD + r"scratch the\b",
    # "I had it wrong": what was said before is put right
    r"\bi had (?:it|that|this|them|those|the \w+) wrong\b",
    r"\bactually\b.{0,40}\bnow\b",
    # "it's the 23rd, not the 22nd"
    r"\b(?:it'?s|it is) (?:the )?\d+\w*,? not (?:the )?\d+",
    r"\bactually (?:the |on |at )?\d+\w*,? not (?:the |on |at )?\d+",
    # "wait no, it's 55/45 now", "its 9:45 now": a value put right
    r"^\W*(?:wait,? no|no,? wait)\b",
    r"\b(?:is|are) (?:moving|changing|switching) to\b",
)
#: a correction's opening with nothing after it ("Scratch that."), or with an instruction
#: about the work at hand ("Actually, make it three bullets.", "Actually, shorter please."):
#: it corrects a request, and says nothing that lasts unless more follows (see
#: :func:`_corrects_request`)
_CORRECTS_REQUEST = re.compile(
    _LEAD + rf"{CORRECTION_OPENING}[\s,.!:;-]*(?:$|(?:please\s+)?(?:make|change|turn|keep|do|"
    r"redo|try|put|write|rewrite|format|add|remove|drop|cut|shorten|lengthen|expand|fix|undo)"
    r"\s+(?:it|that|this|them|those|these|one)\b|(?:[\w'-]+\s+){0,3}please\W*$)",
    re.IGNORECASE,
)
#: a question mark that ends a sentence, closing quotes and brackets after it
_QUESTION_MARK = re.compile(r"\?[\s\"')\u201d\u2019]*$")
#: a question's last clause after a comma: "…, right?", "…, what about you?"
_TAIL = re.compile(r",\s*(?P<tail>[^,]{1,40}?)\s*\?[\s\"')\u201d\u2019]*$")
#: a tail that asks to confirm what comes before it: "right?", "do we?", "isn't it?"
_CONFIRMING = re.compile(
    r"^(?:right|correct|true|yes|no|yeah|eh|or not|am i right|is that (?:right|correct|true|so)|"
    r"(?:(?:do|does|did|is|are|was|were|have|has|had|would|could|should)(?:n'?t)?|will|won'?t|"
    r"can|can'?t)(?: not)? (?:i|we|you|they|he|she|it|that|there))$",
    re.IGNORECASE,
)
#: "never" that opens an idiom or a report of the past, not a rule or a habit: "Never
#: mind.", "never heard of it", "I never thought of that"
_NEVER = r"never(?!\s*mind\b| again\b| heard\b| seen\b| thought\b| knew\b| been\b| had\b)"
POLICY = _any(
    rf"^(?:please\s+)?(?:always|{_NEVER}|must|do not ever|don'?t ever)\b",
    r"\b(?:you|we|everyone|everybody|all \w+|nobody|no one) (?:must|must not|mustn'?t|shall|"
    r"should always|should never|have to|need to always|may never)\b",
    r"\b(?:every|each|any|all)(?: \w+){1,3} (?:must|must not|mustn'?t|shall|should always|"
    r"should never|has to|have to|may never|needs? to be)\b",
    r"^(?:rule|policy)\s*:",
    r"\b(?:new |house |a )?(?:rules?|policy)(?: for (?:you|us|the \w+|my \w+))?"
    r"(?: as of \w+| going forward| from now on)?\s*:\s*\S",
    # "always"/"never" opening a clause: "For him always use …", "and never use …"
    rf"(?:[,;:]\s*|\b(?:and|but|so|please|pls|also|for \w+|in general,?)\s+)(?:always|{_NEVER})\s+"
    r"(?!mind\b)\w+",
    r"\bin general,?\s+(?:please\s+)?(?:keep|use|write|give|make|reply|answer|avoid)\b",
    # a standing instruction: "From now on, answer in bullet points.", "… and pls, from now
    # on give me SQL in code blocks"
    _LEAD + r"(?:from now on|going forward|moving forward|from here on(?: out)?|henceforth|"
    r"in (?:the )?future|for future reference)\b",
    # ... or closing the clause: "kana only from now on", "for any recipe stuff going forward"
    r"\b(?:from now on|going forward|from here on(?: out)?)\s*[.!]*$",
    # "please stop giving me romaji": until lifted (not "stop worrying")
    r"\bplease\s+stop\s+\w+ing\b",
    r"(?:^|[,;:.]\s*)stop\s+(?:giving|sending|suggesting|recommending|using|adding|including|"
    r"calling|asking|telling|showing|writing|making|offering|booking|scheduling)\b",
    # "When you quiz me, give me the question first", "In all my meeting summaries, put ...":
    # a condition on the assistant's work, then what to do (not "When you arrived, I ...")
    r"^when(?:ever)? you (?!\w+ed\b)\w+[^,]{0,40},\s*(?:please\s+)?" + _NOT_A_SUBJECT,
    r"\bin (?:all|every|each) (?:of )?(?:my|our|your|the) [\w ]{1,30},\s*(?:please\s+)?"
    + _NOT_A_SUBJECT,
    r"(?:[,;]|\b(?:and|please|pls))\s*(?:please\s+|pls\s+)?(?:from now on|going forward)[\s,]+"
    r"(?:please\s+)?[a-z]+",
    r"\bmake sure (?:to|you|that you) (?:always|never)\b",
    # a prohibition for the assistant holds until it is lifted: "please don't suggest ORMs"
    r"(?:" + _LEAD + r"|[,;:]\s*|\b(?:so|and|but|also)\s+)please (?:avoid|don'?t|do not)\b",
    _LEAD + r"(?:don'?t|do not) (?:ever )?(?:use|recommend|suggest|propose|pick|book|give|send|"
    r"show|explain|tell|remind|schedule)\b",
    r"\bwhenever (?:i|we) ask (?:you|u)\b",
    # "..., always" closing an instruction: "use snake_case for every table, always"
    # "..., always" or "always pls" closing an instruction (not "late, as always")
    r"(?<!\bas )(?<!\blike )\balways(?:\s+please)?\s*[.!]*$",
    r"\bremind me (?:to )?(?:always|never|every|each|whenever)\b",
    r"\b(?:every|each|whenever|always)\b.{0,60}\bremind me\b",
    r"\bremind me\b.{0,60}\b(?:every|each|whenever|always)\b",
    r"\b(?:that'?s|this is|is) the (?:new )?rule\b",
    r"^\W*(?:don'?t|do not) \w+(?: \w+){0,4} unless (?:i|we)\b",
    r"^when(?:ever)? you \w+[^,.]{0,40}\b(?:always|never)\b",
    # about all the assistant's work: "whenever you answer me", "for any snippets you give me"
    r"\b(?:whenever|every time|each time) (?:you|u)\b",
    r"^(?!\W*(?:thanks|thank you)\b).*"
    r"\b(?:(?:any|every|all|each)(?: \w+){0,3}|everything|anything) (?:you|u) (?:give|write|"
    r"draft|send|make|suggest|show|recommend|generate|produce|create|answer)\b",
    # "no crypto suggestions ever", "TypeScript please, not plain JS"
    _LEAD + r"no\b(?! ?one\b| ?body\b)[\w -]{1,40}\bever\b",
    _LEAD + r"[\w .'+#-]{1,30}?,?\s+please\s*,?\s*not\b",
)
DECISION = _any(
    r"\b(?:i|we)(?:'ve| have)? (?:decided|chosen|agreed|settled on|opted for|picked|chose)\b",
    r"\b(?:i|we)(?:'ll| will) (?:go with|use|stick with|adopt|switch to)\b",
    r"\blet'?s (?:go with|use|stick with|adopt)\b",
    r"(?:^|[,;.!]\s*|\bok(?:ay)?,?\s+)going with\b",
    # "ok bigserial it is", "that settles it"
    r"\b(?:ok(?:ay)?|fine|alright|so)\s*,?\s+[\w-]+ it is(?: then)?\s*[.!]*$",
    r"\b(?:that|this) settles it\b",
    r"\b(?:i'?m |we'?re )?done (?:deliberating|debating|going back and forth)\b",
    r"\b(?:end of discussion|that'?s final|final answer|done deal)\b",
    r"\b(?:the )?(?:team|family|board|committee|group) (?:decided|agreed)\b",
    # a course taken now: "I'm switching to ...", "we're taking the train, not flying",
    # "I'm not putting a cent in crypto" (not "I'm not feeling well")
    r"\b(?:i'?m|we'?re|i am|we are) (?:switching|moving|changing) (?:\w+ ){0,3}to\b",
    r"\b(?:i'?m|we'?re|i am|we are) (?:dropping|ditching|skipping|scrapping|cancell?ing)\b",
    r"\b(?:i'?m|we'?re|i am|we are) (?:only )?\w+ing\b[^,.;]{1,60},\s*not\b",
    r"\b(?:i|we)(?:'ll| will) (?:skip|take|book|buy|keep|pass on|hold off|go for|get|"
    r"wait (?:for|until|till))\b"
    r"(?!\s+(?:back|there|home|going|a look|you posted|in touch|it\b|care|note|notes))",
    r"(?:^|[.!?,;]\s*|\bok(?:ay)?,?\s+)(?:(?:i'?m|we'?re) )?(?:gonna|going to) (?:try|go with|"
    r"switch|stick with|skip|book)\b",
    # a choice with the subject left out: "keeping netflix, dropping the other three"
    _LEAD + r"(?:keeping|dropping|skipping|ditching|cancell?ing|sticking with|going with)\b",
    r"\b(?:i|we)(?:'ve| have)? set (?:the|a|an|our|my) (?:\w+ )?(?:date|budget|limit|deadline|"
    r"price|cap|rule|target|time|day)\b",
    r"\b(?:is|'s) not happening\b",
    r"\b(?:i|we) (?:said|agreed) (?:no|yes)\b",
    r"^\W*(?:(?:i|we)(?:'ve| have)? )?(?:signed up|registered|enrolled) (?:for|in)\b",
    r"\b(?:i'?m|we'?re|i am|we are) not (?:going to|gonna|putting|buying|building|replacing|"
    r"renewing|using|doing|taking|booking|hiring|paying|going|getting|signing)\b",
    r"(?:^|[,;.!]\s*)(?:(?:ok(?:ay)?|so|and|but),?\s+)?sticking with\b",
    # with the subject left out, as chat does: "not touching kubernetes for this", "ok buying
    # shoes", "im taking the train back instead"
    r"(?:^|[,;.!]\s*|\b(?:ok(?:ay)?|so|and|but|def(?:initely)?)\s+)not (?:gonna |going to )?"
    r"(?:touching|doing|spending|buying|using|paying|renewing|booking|hiring|claiming|bothering|"
    r"going (?:over|with|to)|signing|building|replacing)\b",
    r"^\W*(?:ok(?:ay)?|so|fine|alright)[,.]?\s+(?:buying|renewing|booking|ordering|taking|"
    r"cancell?ing|signing|going with|switching to)\b",
    r"\b(?:i'?m|we'?re|i am|we are) \w+ing\b[^,.;]{0,60}\binstead\b",
    r"\b(?:is|are) (?:locked(?: in)?|final|confirmed|settled)\b",
    r"\brules? for (?:myself|me)\s*:\s*\S",
    r"\b(?:i'?m|we'?re|i am|we are) (?:only|never) (?:going to |taking|using|buying|booking)\b",
    r"\b(?:i'?m|we'?re|i am|we are) \w+ (?:\w+ )?from now on\b",
    # deciding against: "Let's not use MongoDB.", "We're not going with Oracle."
    r"(?:^|\bok(?:ay)?,?\s+)not doing\b",
    r"\b(?:we'?re|i'?m|we are|i am) not doing\b",
    r"\blet'?s not\b",
    r"\b(?:we|i)(?:'re| are|'m| am) not (?:going to )?(?:use|using|go with|going with)\b",
    r"\b(?:we|i)(?: will not|'ll not| won'?t) (?:use|go with|adopt)\b",
    r"\b(?:we'?re|we are|i'?m|i am) going (?:with|to use|to go with)\b",
    r"\bthe decision is\b",
    r"^decision\s*:",
    # a course taken: "we're staying on SQS", "I'm holding off until spring", "we're doing it"
    r"\b(?:we'?re|i'?m|we are|i am) (?:gonna|going to) (?:keep|stick|stay)\b",
    # (not "I'm doing fine", "I'm staying at a hotel tonight")
    r"\b(?:we'?re|i'?m|we are|i am) (?:keeping|sticking with|staying (?:on|with)|holding off|"
    r"committing to|going fully|adopting|locking in|doing (?:it|no|without|away with))\b",
    # "Decided to rent for a year" opens the sentence: the speaker's (not "She decided to")
    r"(?:^|[,;.!:]\s*)(?:ok(?:ay)?,?\s+|so\s+|and\s+)?decided\b",
    # "Shark it is then.", "spanish it is.": a choice closing a sentence, not "Here it is.",
    # "Yes it is.", "Sure it is."
    _LEAD + r"(?!(?:here|there|that|this|so|what|which|where|whatever|yes|no|yeah|as|of|"
    r"sure|true|who|how|because|if)\b)"
    r"(?:the\s+)?[\w-]+(?: (?-i:[A-Z0-9])[\w-]*)? it is(?: then)?\s*(?:[.!]|$)",
    r"\b(?:we|i)(?:'ve| have) locked in\b",
)
#: attitudes, which last: a preference whatever they are about ("wishes" are below)
PREFERENCE = _any(
    r"\bi (?:really |strongly |much )?(?:prefer|like|love|hate|dislike|enjoy|can'?t stand)\b",
    r"\bi (?:don'?t|do not) (?:like|enjoy|care for)\b",
    r"\bmy (?:favou?rite|preferred|preference)\b",
    r"\bi'?d (?:rather|prefer)\b",
    r"(?:^|[,;]\s*|\b(?:and|but|so)\s+)would rather\b",
    r"\bi (?:really |just )?(?:don'?t|do not) (?:really )?care (?:about|for|much)\b",
    r"\bi'?m (?:a|an) (?:huge |big |total |real )?[\w-]+(?: [\w-]+)? person\b",
    rf"\bi (?:always|{_NEVER}|usually)\b",
    # what weighs most: "small classes matter most to us", "a garden is a must for me"
    r"\bmatters? (?:the )?(?:most|more|a lot) to (?:me|us)\b",
    r"\b(?:is|are) (?:a )?(?:must|must-have|dealbreaker|deal-breaker|non-negotiable)"
    r"(?:\s+for (?:me|us))?(?![\s-]*\w)",
)
#: a wish, which may be for now or for good: see :func:`standing_wish`
WISH = _any(
    r"\bi (?:really |just |also |mostly |only )?want\b",
    r"\bi (?:really )?(?:don'?t|do not) want\b",
    r"\bi(?:'d| would) (?:really )?like\b",
    r"\bplease (?:use|write|keep|call|reply|respond|answer|format)\b",
)
#: a sentence that opens with a wish: one for now is a request, not a belief
_OPENING_WISH = re.compile(_LEAD + f"(?:{WISH.pattern})", re.IGNORECASE)
#: wishes that hold until lifted, whatever they name: "please use the metric system", "I
#: don't want to use Java" (as "please don't …" does; "please write a haiku" is for now)
_HOLDS = _any(
    r"\bi (?:really )?(?:don'?t|do not) want\b",
    r"\bplease (?:use|keep|call|reply|respond|answer|format)\b",
)
#: words that make a wish about how things are done from now on, not about this once
STANDING = _any(
    r"\b(?:always|never|usually|mostly|generally|in general|by default|from now on|"
    r"going forward)\b",
    r"\b(?:from here on|in (?:the )?future|every time|each time|whenever|all the time)\b",
    r"\b(?:any ?more|no more)\b",
)
#: the first word of what a wish asks for, when it names one particular thing
_PARTICULAR = frozenset(
    {"a", "an", "the", "one", "some", "another", "this", "that", "these", "those", "it", "them"}
)
#: a person the wish is for: what comes after says whether it is for now ("help me", "send
#: me the file", "help me with the report") or for good ("tell me when I'm wrong")
_PERSONS = frozenset({"me", "us", "him", "her", "you"})
_FOR_NOW_AFTER_PERSON = _PARTICULAR | {"with", "out", "up"}
RECOMMENDATION = _any(
    r"\bi (?:recommend|suggest|would suggest|would recommend)\b",
    r"\byou (?:could|should|might want to|may want to)\b",
    r"^consider\b",
)
#: an assistant restating what the user holds ("you've decided …", "your favourite …")
#: "you" after a conditional ("Let me know if you want changes") supposes, it does not report
_YOU = r"\byou(?<!\bif you)(?<!\bwhether you)(?<!\bunless you)(?<!\bin case you)"
PARAPHRASE = _any(
    _YOU + r"(?:'ve| have)? (?:decided|chosen|chose|agreed|settled on|picked|opted for)\b",
    _YOU + r" (?:really )?(?:prefer|like|love|hate|dislike|want|always|never|usually)\b",
    _YOU + r"(?:'re| are) (?:going with|using|switching to|thinking about|considering)\b",
    r"\byour (?:favou?rite|preferred|preference|decision|rule)\b",
    r"\bi'?ll (?:remember|keep in mind|note)\b",
)
#: words between a reporter and the verb ("Bob has always said …"), never the reporter
_BETWEEN = "also|just|always|once|apparently|already|even|have|has|had"
#: someone else's words or thoughts, reported: "My boss said we must always use Java" is not
#: the user's rule. The verb must report a clause ("said we …", "told me to …", "said:"): in
#: "Let's go with what you suggested." the decision is the user's. "I said", "we told
#: them", "That said," and "As mentioned," are the speaker's own.
REPORTED = re.compile(
    rf"(?<![\w'])(?!(?:i|we|that|having|{_BETWEEN})\b)[\w']+\s+(?:(?:{_BETWEEN}|keeps|kept)\s+)*"
    r"(?:said|says|saying|told|tells|wrote|writes|thinks|believes|claims|claimed|insists|insisted|"
    r"mentioned|suggested|asked|reckons|announced|reported|texted|emailed|warned|wants|expects)"
    r"(?=\s*[:\"\u201c]|\s+(?:that|to|whether|if|me|us|him|her|them|you|we|i|it|they|he|she|"
    r"this|there|the|a|an|my|our|his|their|its|everyone|everybody|nobody|no one|all|every|"
    r"anything|something|nothing|everything)\b)"
    r"|^according to\b",
    re.IGNORECASE,
)
#: how chat spells "please", "you", "I'm", "don't", ...: read as written out
_CHAT_WORDS = {
    **dict.fromkeys(("pls", "plz", "plse"), "please"),
    **{"u": "you", "ur": "your", "im": "i'm", "ive": "i've", "lets": "let's"},
    **{w: w[:-1] + "'" + w[-1] for w in ("dont", "doesnt", "didnt", "cant", "wont", "isnt")},
    **{w: w[:-1] + "'" + w[-1] for w in ("arent", "wasnt", "thats")},
    **{"theyre": "they're", "youre": "you're"},
}
_CHAT = re.compile(r"\b(?:" + "|".join(_CHAT_WORDS) + r")\b", re.IGNORECASE)


def chat_spelled(sentence: str) -> str:
    """The sentence with chat's spellings written out, for reading its cues ("if u ever
    suggest times" is "if you ever suggest times"); a belief keeps the words as said."""
    sentence = sentence.replace("\u2019", "'")  # a typographic apostrophe is an apostrophe
    return _CHAT.sub(lambda m: _CHAT_WORDS[m.group(0).lower()], sentence)


#: saying the opposite of what is meant: "Sure, let's rewrite it in COBOL, why not.", "I love
#: how the build breaks every Friday.", "Yeah, right."
IRONY = _any(
    r"\bwhy not\s*[.!]*\s*$",
    r"\bwhat could (?:possibly )?go wrong\b",
    r"\byeah,? right\b",
    r"\bi (?:just |really |absolutely )?(?:love|adore) (?:how|it when|that (?:we|they|it))\b",
    r"^(?:oh )?(?:great|wonderful|fantastic|brilliant|perfect),? (?:just|another|more)\b",
    # a suggestion welcomed, closing what is said: "a mini tripod, never thought of that,
    # great idea" (irony's neighbour: it holds nothing of the user's own)
    r"\b(?:great|good|nice|cool|fun|smart) (?:idea|call|point|tip)\W*$",
)
#: a reaction to what was just said, which holds nothing of its own: "I like that idea!",
#: "Love it.", "I like this one"
REACTION = re.compile(
    _LEAD + r"(?:i (?:really |do |totally )?)?(?:like|love|prefer|dig) (?:that|this|it|yours|"
    r"your \w+|the (?:idea|plan|suggestion|first one|second one|last one))"
    r"(?: (?:idea|plan|one|approach|suggestion|option|version|draft|comparison|breakdown|"
    r"summary|list|table|answer|explanation|example|overview|rundown|a lot|too))?"
    # and a word of thanks after it: "I love that comparison, super helpful"
    r"(?:\s*[,;-]\s*(?:\w+\s*){1,4})?\s*[.!]*\s*$",
    re.IGNORECASE,
)
#: what the speaker likes about the assistant's last answer: "I like that you asked first"
ABOUT_THE_ANSWER = re.compile(
    _LEAD + r"i (?:really |do )?(?:like|love|appreciate) (?:that|how|when|it when) you\b",
    re.IGNORECASE,
)
#: "I always …" / "I never …" are the speaker's habits, not rules for others
HABIT = re.compile(
    _LEAD + rf"i (?:always|{_NEVER}|usually|only (?!(?:found|just|recently|reali[sz]ed|heard|"
    r"learned|noticed|got|saw|had|meant|knew|know|said|asked|wanted to)\b)\w+)\b",
    re.IGNORECASE,
)
#: kinds the rules give a user's sentence, first match wins (hedges and open questions are
#: checked before these: see :func:`classify_user`)
USER_CUES: tuple[tuple[str, re.Pattern[str], Kind], ...] = (
    ("correction", CORRECTION, Kind.correction),
    ("preference", HABIT, Kind.preference),
    ("policy", POLICY, Kind.policy),
    ("decision", DECISION, Kind.decision),
    ("preference", PREFERENCE, Kind.preference),
)


def classify_user(sentence: str) -> tuple[str, Kind] | None:
    """The cue and kind of a user's sentence, or ``None`` when it carries no belief.

    >>> classify_user("I think we'll use Postgres.")
    ('hedge', <Kind.open_question: 'open_question'>)
    >>> classify_user("Maybe.") is None
    True
    """
    sentence = chat_spelled(is_mentioned(sentence))
    if IRONY.search(sentence) or REACTION.match(sentence) or ABOUT_THE_ANSWER.match(sentence):
        return None
    # a report is looked for in the claim only: "…, because Bob said so" is still the user's
    if REPORTED.search(sentence) and REPORTED.search(split_reason(sentence)[0]):
        return None
    if _QUESTION_MARK.search(sentence):
        if _SUPPOSING.match(sentence):
            return None  # "if we moved the offsite to Lisbon, would ...?": only supposed
        if OPEN_QUESTION.search(sentence):
            return "question", Kind.open_question
        # a question asserts nothing, whatever words it holds: "Actually, what time is it in
        # Tokyo?" is no correction, "What are you thinking about?" no hedge
        if REQUEST.match(sentence) and STANDING.search(sentence):
            return "policy", Kind.policy  # "can you always ...?": a rule for the assistant
        if QUESTION.match(sentence) or REQUEST.match(sentence):
            return None
        return _asked(sentence)
    return _stated(sentence)


def _asked(sentence: str) -> tuple[str, Kind] | None:
    """A question that opens as a statement: at most a hedge, unless the statement is whole
    before a question of its own.

    "We no longer use Jenkins, right?" and "We moved to Oslo?" ask to confirm what they say:
    an open question if that has a cue. "I prefer tabs, what about you?" and "Always use
    tabs, ok?" say it, then ask something else.
    """
    tail = _TAIL.search(sentence)
    if tail is not None:
        said = _stated(sentence[: tail.start()])
        if _CONFIRMING.match(tail["tail"]):
            return None if said is None else ("question", Kind.open_question)
        if said is not None:
            return said
    said = _stated(_QUESTION_MARK.sub("", sentence))
    return None if said is None else ("question", Kind.open_question)


def _stated(sentence: str) -> tuple[str, Kind] | None:
    """The cue and kind of a sentence that asks nothing (see :func:`classify_user`)."""
    request = REQUEST.match(sentence)
    deliberates = DELIBERATION.search(sentence)
    if deliberates and not request:
        # "I want to start investing but I'm still deciding between ...": still deciding;
        # "Haven't made up my mind." alone says nothing of what
        rest = sentence[: deliberates.start()] + sentence[deliberates.end() :]
        return ("hedge", Kind.open_question) if len(re.findall(r"[\w']+", rest)) > 1 else None
    # a request asserts nothing: "I'd like a cup of tea" is no preference, "Actually, make it
    # three bullets" no correction
    standing = standing_wish(sentence)
    if (
        request
        or (standing is False and _OPENING_WISH.match(sentence))
        or _corrects_request(sentence)
    ):
        return None
    found = _cue(sentence, standing=bool(standing))
    if SOFTENER.search(sentence) and (found is not None or PLAN.search(sentence)):
        return "hedge", Kind.open_question
    return found


def user_fact(sentence: str) -> bool:
    """Whether a user's sentence that carries no other cue states a fact of theirs worth
    keeping: "The office Wi-Fi password is tulip-42.", "I live in Leeds." (a value to
    remember, said plainly: no question, hedge, irony, reaction or report of someone else's).

    >>> user_fact("Our fiscal year ends on June 30.")
    True
    >>> user_fact("I think the standup is at 9am.")
    False
    """
    sentence = chat_spelled(is_mentioned(sentence))
    return bool(
        not _QUESTION_MARK.search(sentence)
        and not (IRONY.search(sentence) or REACTION.match(sentence) or HEDGE.search(sentence))
        and not REPORTED.search(sentence)
        and _FACT.match(sentence)
        and _VALUE.search(sentence, 1)
    )


def _corrects_request(sentence: str) -> bool:
    """Whether a correction only corrects a request: its opening alone ("Scratch that."), or
    with an instruction about the work at hand and no cue of its own after it ("Actually,
    make it three bullets.", but not "Actually, make it a rule: always use tabs.")."""
    opening = _CORRECTS_REQUEST.match(sentence)
    if opening is None:
        return False
    return not STANDING.search(sentence) and _cue(sentence[opening.end() :], standing=False) is None


def _cue(sentence: str, *, standing: bool) -> tuple[str, Kind] | None:
    """The first of :data:`USER_CUES` the sentence has, or its standing wish; hedges aside."""
    for cue, pattern, kind in USER_CUES:
        if pattern.search(sentence):
            return cue, kind
    if not standing:
        return None
    # "please keep using APA 7 for every citation" tells the assistant what to do: a rule for
    # it; "I'd like my summaries short" says what the speaker likes: a preference
    wish = WISH.search(sentence)
    if wish is not None and wish.group(0).lower().startswith("please"):
        return "policy", Kind.policy
    return "preference", Kind.preference


def standing_wish(sentence: str) -> bool | None:
    """Whether the wish in ``sentence`` stands (a preference, or a rule for the assistant when
    it is asked with "please use …"); ``None`` without a wish.

    A wish ("I want …", "I'd like …", "please use …") stands when it is about a kind of thing
    or a way of doing things — "my summaries in bullet points", "answers in German",
    "British spelling" — or says so ("always", "by default"). It is
    a request for now when what it asks for is one particular thing or task, named with an
    article, a demonstrative or a pronoun ("a cup of tea", "you to write a haiku", "the
    report", "that"; "help me", "help me with …"), or is the speaker's own act ("I'd like to
    book a table"): "I want you to help me" asks for now, "I want you to tell me when I'm
    wrong" holds.

    >>> standing_wish("I'd like a cup of tea."), standing_wish("I'd like my summaries short.")
    (False, True)
    """
    wish = WISH.search(sentence)
    if wish is None:
        return None
    if STANDING.search(sentence) or _HOLDS.search(sentence):
        return True
    words = re.findall(r"[\w']+", sentence[wish.end() :].lower())
    if words[:2] == ["you", "to"]:
        words = words[3:]  # "I want you to write …": what is to be written
    elif words[:1] == ["to"]:
        return False
    if words[:1] and words[0] in _PERSONS:
        words = words[1:]  # "… help me", "… tell me when I'm wrong": what for the person
        return bool(words) and words[0] not in _FOR_NOW_AFTER_PERSON
    return bool(words) and words[0] not in _PARTICULAR


def is_assistant_cue(sentence: str) -> str | None:
    if RECOMMENDATION.search(sentence):
        return "recommendation"
    if PARAPHRASE.search(sentence) or classify_user(sentence) is not None:
        return "paraphrase"
    return None
