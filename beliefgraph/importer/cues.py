"""The cues that make a sentence a statement worth keeping, and whose it is: the words
:mod:`beliefgraph.importer.kinds` reads a sentence's kind from.
"""

from __future__ import annotations

import re

from beliefgraph.text import CORRECTION_OPENING


def any_of(*patterns: str) -> re.Pattern[str]:
    """One case-blind pattern that matches where any of ``patterns`` does."""
    return re.compile("|".join(f"(?:{p})" for p in patterns), re.IGNORECASE)


_NEG = r"(?:haven'?t|have not|hasn'?t|has not|didn'?t|did not|not yet|not)"
_PLAN_VERBS = r"(?:be|want|try|switch|use|go|make|do|add|move|change|drop)"
#: hedges that are open questions on their own: the speaker says they are still deciding
DELIBERATION = any_of(
    rf"\b{_NEG}\s+(?:\w+\s+)?(?:decided|made up my mind|chosen|settled|committed|determined|"
    r"picked)\b",
    r"\b(?:can'?t|cannot|can not|couldn'?t) (?:decide|choose|pick(?! up)|"
    r"make up (?:my|our|her|his|their) minds?)\b",
    r"\b(?:don'?t|do not) know what to (?:do|pick|choose|go with)\b",
    # "the thing i'm stuck on", "no clue which yet", "haven't narrowed it down", "nowhere near
    # settled", "my wife and i haven't agreed", "keep flip flopping", "on the fence"
    r"\bstuck (?:on (?:whether|which|what to|deciding|choosing)|between)\b",
    r"\bthe (?:thing|part|bit|question) (?:i'?m|we'?re) stuck on\b",
    r"\bno clue (?:yet|which|what|whether|if)\b",
    r"\b(?:haven'?t|have not|not yet) (?:narrowed|agreed)\b|\bnowhere near (?:settled|decided)\b",
    r"\b(?:i|we)(?:'m|'re| am| are| keep| have been|'ve been) (?:\w+ )?flip[- ]?flopping\b",
    r"\b(?:still |all )?up in the air\b",
    r"\bkeep flip[- ]?flopping\b",
    r"\b(?:thinking|thought) (?:about|of)\b",
    r"\b(?:considering|wondering|toying with|on the fence|undecided|torn (?:between|on|about))\b",
    r"\btrying to (?:decide|choose|pick|figure out)\b",
    r"\b(?:still )?(?:deciding|debating|choosing) (?:between|whether|on|if|which)\b",
    r"\b(?:haven'?t|have not|not yet) (?:figured|worked) out\b",
    rf"\b(?:i|we) (?:may|might|could) (?:\w+ )?{_PLAN_VERBS}\b",
    r"\b(?:no idea|don'?t know|do not know) (?:yet|if|whether|which)\b",
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
SOFTENER = any_of(
    r"\b(?:maybe|perhaps|possibly|probably|likely|someday|some day|one day|eventually)\b",
    r"\b(?:tentatively|provisionally)\b",
    r"\bi (?:don'?t |do not )?(?:think|guess|suppose|reckon|believe)\b",
    r"\bnot (?:\S+ )?(?:sure|certain|convinced)\b",
    rf"\b(?:may|might|could) {_PLAN_VERBS}\b",
)
#: the speaker's own plan, which a softener turns into a hedge ("maybe we should use Postgres")
PLAN = any_of(
    r"\blet'?s\b",
    r"\b(?:i|we)(?:'ll| will| should| shall| could| might| may| need| want|'re going to|"
    r" are going to|'m going to| am going to)\b",
)
#: every hedge, for checking a text someone else classified (see :class:`LLMExtractor`)
HEDGE = any_of(DELIBERATION.pattern, SOFTENER.pattern)
#: what a sentence may open with before it says anything: "Actually, …", "Ok so …"
LEAD = (
    r"^(?:(?:actually|ok(?:ay)?|so|and|but|also|well|oh|hi|hey|hello|sorry|thanks|thank you|"
    r"yes|yeah|yep|yup|nah|"
    r"now|hmm+|um+|alright|right|great|cool|nice|awesome|perfect|fyi|btw|tbh|fwiw|imo)\b"
    r"[\s,.!:;-]*)*"
)
#: the word after "When you quiz me," that makes the rest an instruction, not a report: a verb,
#: so not a subject ("When you arrived, I was asleep")
_NOT_A_SUBJECT = r"(?!(?:i|we|he|she|it|they|you|the|my|our|his|her|their|this|that|there)\b)[a-z]+"
#: questions that deliberate about a choice (a request such as "can you …?" is not one)
OPEN_QUESTION = any_of(
    LEAD + r"(?:should|shall) (?:we|i)\b.*\?$",
    LEAD + r"(?:would it be better|is it worth|do we (?:want|need)|which (?:one|should))\b.*\?$",
)
#: a sentence that opens as a question; with a "?" it asks, and asserts nothing
QUESTION = re.compile(
    LEAD + r"(?:please\s+)?(?:what|when|where|who|whom|whose|why|how|which|"
    r"(?:can|could|would|will|won'?t|do|does|did|don'?t|doesn'?t|didn'?t|is|are|was|were|"
    r"isn'?t|aren'?t|has|have|should|shall|may|might|am)\s+(?:you|i|we|it|they|he|she|there|"
    r"this|that|these|those|the|a|an|my|your|our|any\w*|some\w*))\b",
    re.IGNORECASE,
)
#: a sentence that asks the assistant for something now, with a question mark or without
REQUEST = re.compile(
    LEAD + r"(?:please\s+)?(?:(?:can|could|would|will|won'?t) you|would you mind|"
    r"i (?:was )?wonder(?:ing)? if you)\b",
    re.IGNORECASE,
)
CORRECTION = any_of(
    LEAD + rf"{CORRECTION_OPENING}",
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
    r"\bnow,?\s+(?:btw,?\s+|though,?\s+|tho,?\s+)?not\b",
    # one thing put out, another in: "courgettes are out ... squash instead", "manchester's
    # out", "swapping my case study city", "moving it to the 29th"
    r"(?:^|[,;.]\s*)(?!(?:i|we|you|he|she|they|it)\b)(?:\w+\s+){1,3}instead\s*[.!]*$",
    # "lyon's out, milan's in"; "the title changed, it's now ..."
    r"\b\w+(?:'s| is| are) out\s*,\s*\w+(?:'s| is| are) in\b",
    r"\b(?:it'?s|that'?s) now\b",
    r"(?:^|[,;.]\s*|\b(?:i'?m|we'?re|i am|we are|also|and|so)\s+)swapping\b",
    r"\b(?:got|went with|picked|chose|ordered|bought|booked|took) [^.,;]{1,40}\binstead\b",
    r"\b(?:it'?s|it is|we'?re) (?:on |at )?(?:the )?\d+(?:st|nd|rd|th)\s+now\b",
    r"\bchange of plans?\b(?!,? for (?:today|tonight|this)\b)",
    # "we moved the dates btw, it's early November now"
    r"\b(?:we|i)(?:'ve| have)? (?:moved|changed|pushed|bumped|shifted) (?:the|our|my) "
    r"(?:dates?|times?|days?|trip|flight|booking|appointment|meeting|wedding|party)\b",
    r"\b(?:moving|moved|pushing|pushed|bumping|bumped) (?:it|that|this|them) (?:back |up )?"
    r"to\b",
    r"\bnow\b.{0,40}\bused to be\b|\bused to be\b.{0,40}\bnow\b",
    # "it's actually 18.2": a value put right, not "it's actually great"
    r"\b(?:it'?s|it is|they'?re|they are) actually (?=\S*\d)",
    r"\bi (?:know i )?(?:said|told you)\b.{1,60}\b(?:earlier|before)\b",
    # a date or plan moved by someone: "the move got pushed to June", "the trip got cancelled"
    r"\b(?:got|was|were|has been|have been) (?:pushed|moved|bumped|postponed|rescheduled|"
    r"brought forward)(?: back)? (?:to|till|until|from)\b",
    r"\b(?:got|has been|have been) (?:cancell?ed|scrapped)\b",
    LEAD + r"scratch the\b",
    # "I had it wrong": what was said before is put right
    r"\bi had (?:it|that|this|them|those|the \w+) wrong\b",
    # "had the wrong weekend", "got the date wrong"
    r"\b(?:had|got|have) the wrong (?:day|date|time|weekend|week|month|year|place|room|one)\b",
    r"\bgot the (?:day|date|time|weekend|week|month|year) wrong\b",
    # (not "going to try to actually sleep now": an infinitive's adverb)
    r"(?<!\bto )\bactually\b.{0,40}\bnow\b",
    # "it's the 23rd, not the 22nd"
    r"\b(?:it'?s|it is) (?:the )?\d+\w*(?: [a-z]+)?,? not (?:the )?\d+",
    # "rent is 1950 not 1850": a number put right beside the old one
    r"\b(?:is|are|'s) \$?\d[\d,.]*(?:k|%)?,? not \$?\d",
    # a date or plan moved: "the date moves to the 21st", "switch it to tue thu sat", "the grad
    # office pushed everyone back a week"
    r"\b(?:date|day|time|meeting|party|appointment|flight|game|practice|class|deadline|it) "
    r"(?:moves|moved) to\b",
    r"\bswitch (?:it|that|this|them) to\b",
    r"\bpushed (?:it|us|everyone|everything|that|the \w+) back\b",
    r"\bactually (?:the |on |at )?\d+\w*,? not (?:the |on |at )?\d+",
    # "wait no, it's 55/45 now", "its 9:45 now": a value put right
    r"^\W*(?:wait,? no|no,? wait)\b",
    r"\b(?:is|are) (?:moving|changing|switching) to\b",
)
#: "never" that opens an idiom or a report of the past, not a rule or a habit: "Never
#: mind.", "never heard of it", "I never thought of that"
_NEVER = r"never(?!\s*mind\b| again\b| heard\b| seen\b| thought\b| knew\b| been\b| had\b)"
POLICY = any_of(
    rf"^(?:(?:please|pls|plz|kindly)\s+)?(?:always|{_NEVER}|must|do not ever|don'?t ever)\b",
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
    LEAD + r"(?:from now on|going forward|moving forward|from here on(?: out)?|henceforth|"
    r"in (?:the )?future|for future reference)\b",
    # ... or closing the clause: "kana only from now on", "for any recipe stuff going forward"
    r"\b(?:from now on|going forward|from here on(?: out)?)\s*[.!]*$",
    # "please stop giving me romaji": until lifted (not "stop worrying")
    r"\b(?:please|pls|plz|kindly)\s+(?:stop|quit)\s+\w+ing\b",
    r"(?:^|[,;:.]\s*)(?:stop|quit)\s+(?:putting|giving|sending|suggesting|recommending|using|adding|including|"
    r"calling|asking|telling|showing|writing|making|offering|booking|scheduling|bringing up|"
    r"mentioning|pushing|linking|quoting)\b",
    # "When you quiz me, give me the question first", "In all my meeting summaries, put ...":
    # a condition on the assistant's work, then what to do (not "When you arrived, I ...")
    r"^when(?:ever)? you (?!\w+ed\b)\w+[^,]{0,40},\s*(?:please\s+)?" + _NOT_A_SUBJECT,
    # ... or without the comma, the instruction a verb for the assistant's work: "oh when you
    # list hotels give me the all-in total"
    LEAD + r"when(?:ever)? you (?!\w+ed\b)\w+[^,.]{0,40}?\s(?:give|put|use|write|show|list|keep|"
    r"include|add|format|make|tell) (?!(?:i|we|he|she|they|you|it's|that's)\b)\w+",
    r"\bin (?:all|every|each) (?:of )?(?:my|our|your|the) [\w ]{1,30},\s*(?:please\s+)?"
    + _NOT_A_SUBJECT,
    r"(?:[,;]|\b(?:and|please|pls))\s*(?:please\s+|pls\s+)?(?:from now on|going forward)[\s,]+"
    r"(?:please\s+)?[a-z]+",
    r"\bmake sure (?:to|you|that you) (?:always|never)\b",
    # a prohibition for the assistant holds until it is lifted: "please don't suggest ORMs"
    r"(?:" + LEAD + r"|[,;:]\s*|\b(?:so|and|but|also)\s+)please (?:avoid|don'?t|do not)\b",
    r"(?:" + LEAD + r"|[,;:.]\s*|\b(?:so|and|but|also|pls|please)\s+)"
    r"(?:don'?t|do not) (?:ever |even )?(?!mention it\b)(?:use|recommend|suggest|propose|pick|book|"
    r"give|send|show|explain|tell|remind|schedule|mention|bring up|include|add|cite|quote|offer|"
    r"assume|list|lecture|dump|nag|sugarcoat|let me|write|format|put)\b",
    # an instruction for the assistant's work that says it lasts: "use typescript for all code
    # examples pls", "use british spelling from now on", "just leave it out of everything"
    LEAD
    + r"(?:(?:please|pls|kindly|just) ){0,2}(?:use|write|give|keep|put|answer|reply|leave|drop|"
    r"format|show|list|include|add|avoid|skip|sort|schedule|decline|spell|label|flag|mark|stick to|"
    r"default to|cc|cite|link|quote|explain|convert|round|summari[sz]e|bold|translate|tag|"
    r"plan|organi[sz]e|lay out|assume|recommend|suggest|book|remind|tell|make|measure)\b"
    r"[^.!?]{0,80}?\b(?:always|for (?:all|every|any|each)|from now on|"
    r"going forward|every time|each time|by default|whenever|in (?:the )?future|out of everything|"
    r"any ?more)\b",
    r"\bas a (?:standing |general |house )?rule\b(?! of thumb)",
    r"^(?:for|in) (?:these|those|my|all|any|every) (?:(?!(?:i|we|they|he|she|you)\b)\w+ ){1,3}"
    r"(?:always|never)\b",
    r"\bwhenever (?:i|we) ask (?:you|u)\b",
    # what the speaker just asked for, made to last: "That goes for anything legal you write
    # for me."; a prohibition made to last by "ever": "don't give me calorie numbers, ever"
    r"\b(?:that|this|same) goes for (?:anything|everything|all|any|every)\b[^.!?]{0,40}"
    r"\b(?:you|u)\b",
    r"\b(?:don'?t|do not)\b[^.!?]{1,60},\s*ever\b(?! since)",
    # "..., always" closing an instruction: "use snake_case for every table, always"
    # "..., always" or "always pls" closing an instruction (not "late, as always")
    r"(?<!\bas )(?<!\blike )\balways(?:\s+(?:please|pls))?\s*[.!]*$",
    # a bound on every one of the assistant's plans or answers: "keep every drill under 10 min",
    # "keep my plans at 3 a week max"; what is to be left out as a kind: "skip the heart rate
    # zone stuff"
    LEAD + r"(?:please |pls |just )?(?:keep|cap|limit) (?:every|each|all|any|my|our) [\w -]{1,30}"
    r"\b(?:under|below|at|to|within|over)\b",
    LEAD + r"(?:please |pls |just )?(?:skip|leave out|drop|cut) (?:the |any |all )?[\w -]{1,30}"
    r"\b(?:stuff|things|bits|talk)\b",
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
    LEAD + r"no\b(?! ?one\b| ?body\b)[\w ,-]{1,40}\bever\b(?! since)",
    LEAD + r"[\w .'+#-]{1,30}?,?\s+please\s*,?\s*not\b",
)
#: where a clause of chat starts: "ok we'll crate train", "fine, ill stretch to 1400"
_CLAUSE = r"(?:^|[,;.!:]\s*|\b(?:ok(?:ay)?|so|and|but|then|fine)\s+)"
#: what the speaker will do that puts a choice off, reports, or takes a task at hand, not a
#: course taken: "I'll think about it", "we'll see", "I'll let you know", "I'll do it myself"
_PUT_OFF = (
    r"(?:(?:do|handle|fix|take care of|sort out) (?:it|that|this|them)\b|take a\b|think|see|"
    r"check|let|look|try|consider|get|ask|figure|need|have|probably|maybe|likely|"
    r"possibly|be|keep|talk|report|wait|revisit|come|circle|decide|sort|play|cross|deal|send|"
    r"share|update|ping|tell|find|double|read|review|mull|sleep|post|email|text|call|confirm|"
    r"bear|note|remember|give|survive|manage|live|cope|pass|research|compare|explore|"
    r"investigate|miss|cry|die|laugh|scream|lose|win|forget|regret|enjoy|bet|owe|starve|"
    r"freeze|faint|kill|love|hate|never|always)\b"
)
#: what a speaker says they are doing that is a course taken ("we're flying", "I'm hiring a
#: backend engineer"), not a state or the day they are having ("I'm coming down with a cold")
_COURSE_VERBS = (
    r"(?:doing(?! (?:fine|ok|okay|well|good|great|better|alright|badly|poorly|worse|my best)\b)|"
    r"taking|getting|using|switching|moving|flying|driving|booking|buying|renting|"
    r"hiring|selling|keeping|skipping|dropping|staying|sticking|giving|throwing|hosting|filing|"
    r"playing|turning|bringing|building|adopting|paying|putting|signing|starting(?! to)|"
    r"training|planting|growing|committing|splurging|spending|saving|investing|returning|"
    r"ordering|cancell?ing|changing|converting|repainting|redoing|renovating|rebuilding|"
    r"replacing|upgrading|joining|leaving|quitting|applying|enrolling|launching|migrating|opening|"
    r"rewriting|capping|limiting|setting|sending|inviting|going (?:with|w|for|solo)|"
    r"running(?! (?:late|out|behind|into|low)))\b"
)
#: a sentence that speaks of doing something as a thing in itself: "Moving is so stressful."
_ACT_AS_SUBJECT = r"(?![^,.;!?]*\b(?:is|are|was|were|sucks|seems|feels|looks|takes|makes)\b)"
DECISION = any_of(
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
    r"\b(?:i'?m|we'?re|i am|we are) (?:switching|moving|changing) (?:\w+ ){0,5}to\b",
    r"\b(?:i'?m|we'?re|i am|we are) (?:dropping|ditching|skipping|scrapping|cancell?ing)\b",
    r"\b(?:i'?m|we'?re|i am|we are) (?:only )?\w+ing\b[^,.;]{1,60},\s*not\b",
    r"\b(?:i|we)(?:'ll| will) (?:skip|take|book|buy|keep|pass on|hold off|go for|get|"
    r"wait (?:for|until|till))\b"
    r"(?!\s+(?:back|there|home|going|a look|you posted|in touch|it\b|care|note|notes))",
    r"(?:^|[.!?,;]\s*|\bok(?:ay)?,?\s+)(?:(?:i'?m|we'?re) )?(?:gonna|going to) "
    r"(?:try(?! to\b)|go with|switch|stick with|skip|book)\b",
    # a choice with the subject left out: "keeping netflix, dropping the other three"
    LEAD + r"(?:keeping|dropping|skipping|ditching|cancell?ing|sticking with|going with)\b",
    r"\b(?:i|we)(?:'ve| have)? set (?:the|a|an|our|my) (?:\w+ )?(?:date|budget|limit|deadline|"
    r"price|cap|rule|target|time|day)\b",
    r"\b(?:is|'s) not happening\b",
    r"\b(?:i|we) (?:said|agreed) (?:no|yes)\b",
    r"^\W*(?:(?:i|we)(?:'ve| have)? )?(?:signed up|registered|enrolled) (?:for|in)\b",
    # a course refused: "we're not crating", "i'm not joining a gym", "im not touching those"
    # (not a state, a feeling or a word of talk: "I'm not feeling it", "not kidding")
    r"\b(?:i'?m|we'?re|i am|we are) (?:def(?:initely)? |just |really |absolutely |so |still |"
    r"also )?not (?:going to|gonna|(?!(?:feeling|kidding|joking|saying|asking|complaining|"
    r"talking|trying|ruling|coping|sleeping|loving|liking|enjoying|having|being|following|"
    r"understanding|seeing|expecting|worrying|thinking|blaming|judging|lying|arguing|"
    r"pretending|working|looking forward|getting (?:any|it|why|what|how))\b)[a-z]+ing)\b",
    # only this way: "only applying to remote roles", "I'm only taking it to the dealer"
    r"(?:^|[,;.!]\s*|\b(?:ok(?:ay)?|so|and|but|btw)\s+|\b(?:i'?m|we'?re|i am|we are) )only "
    r"(?!(?:feeling|kidding|joking|saying|asking|talking|trying|thinking|wondering|getting)\b)"
    r"[a-z]+ing\b",
    r"(?:^|[,;.!]\s*)(?:(?:ok(?:ay)?|so|and|but),?\s+)?sticking with\b",
    r"\b(?:i'?m|we'?re|i am|we are) sticking to\b",
    # a diet taken up: "we went fully vegetarian at home as of this month"
    r"\b(?:i|we)(?:'ve| have)? (?:went|gone) (?:fully |completely |totally |mostly )?(?:vegetarian|"
    r"vegan|pescatarian|veggie|gluten[- ]free|dairy[- ]free|keto|paleo|plant[- ]based)\b",
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
    # what is kept as it is: "june 12 stays.", "storage stays 512"
    r"\b[\w.-]+ stays (?:put\b|as (?:is|it is)\b|\d)",
    r"\b[\w.-]+ stays\s*(?:[.!;,]|$)",
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
    r"(?:" + LEAD + r"|[,;]\s*)(?!(?:here|there|that|this|so|what|which|where|whatever|yes|no|"
    r"yeah|as|of|sure|true|who|how|because|if|way|good|bad|hard|easy|is|it)\b)"
    r"(?:the\s+)?[\w-]+(?: (?-i:[A-Z0-9])[\w-]*| (?!(?:as|how|what|that|way|so|than|is|it)\b)"
    r"[a-z]+)? it is(?: then)?\s*(?:[.!,]|$)",
    r"\b(?:we|i)(?:'ve| have) locked in\b",
)
#: attitudes, which last: a preference whatever they are about ("wishes" are below)
PREFERENCE = any_of(
    r"\bi (?:really |strongly |much )?(?:prefer|like|love|hate|dislike|enjoy|can'?t stand)\b",
    r"\bi (?:don'?t|do not) (?:like|enjoy|care for)\b",
    r"\bmy (?:favou?rite|preferred|preference)\b",
    r"\bi'?d (?:\w+ )?(?:rather|prefer)\b",
    r"(?:^|[,;]\s*|\b(?:and|but|so)\s+)would rather\b",
    r"\bi (?:really |just )?(?:don'?t|do not) (?:really )?care (?:about|for|much)\b",
    r"\bi'?m (?:a|an) (?:huge |big |total |real )?[\w-]+(?: [\w-]+)? person\b",
    # "not an SUV person", "we're just not rustic people"
    r"(?:^|[,;.]\s*|\bi'?m\s+)not (?:a|an) [\w-]+ person\b",
    r"\b(?:we'?re|we are) (?:just )?not [\w-]+ people\b",
    # a habit told after its verb: "i read mostly on kindle"
    r"^\W*i (?!(?:was|am|have|had|think|guess|mean|know|feel|need|want|just)\b)[a-z]+ "
    r"(?:mostly|usually)\b",
    rf"\bi (?:always|{_NEVER}|usually)\b",
    # what the speaker does not eat or do: "i dont eat red meat", "we don't drink"
    r"\b(?:i|we) (?:don'?t|do not) (?:eat|drink|touch|drive|fly|wear|smoke|do)\b"
    r"(?! (?:it|that|this|them|today|tonight|tomorrow|until|till|anymore|any more|anything|"
    r"much|well|that|so|a|an|the|my|our|what|how|[a-z]+ing)\b)",
    # a habit told in the present: "i use zsh not bash", "i shoot everything in RAW", "i keep
    # all receipts in a google sheet", "i run 3x a week" (not what is done this once)
    # ("we use Postgres for the events service" is the team's fact, "i use zsh" a way of mine)
    LEAD
    + r"(?:i use|(?:i|we) (?:shoot|keep|cook|train|grow|drink|eat|wear|drive|ride|run|swim|lift|"
    r"cycle|bike|walk|practi[cs]e|bake|meditate|journal|budget|invest|shop|fly)) "
    r"(?!(?:it|that|this|them|those|these|to|into|out|up|you|your|a lot|late|over)\b)"
    r"(?!(?<=keep )\w+ing\b)"  # "i keep forgetting": what happens, not a habit kept
    r"(?![^.!?]*\b(?:today|tonight|tomorrow|yesterday|this (?:morning|afternoon|evening|week)|"
    r"right now|later|last|next|earlier|just|again|if|when)\b)(?![^.!]*\?)",
    # a habit told with how often: "i climb at the wall mondays and wednesdays", "I drink
    # maybe 4 coffees a day", "I study 20 min every day" (not what was done: "I ran twice a
    # week last year", nor a going back and forth)
    r"(?:^|[,;.!]\s*|\b(?:and|but|so)\s+)(?:i|we)(?: (?:usually|normally|always|generally|still|"
    r"only|mostly|basically|maybe|probably))? (?!(?:was|were|had|did|have|am|are|will|would|"
    r"could|should|might|can|got|went|need|want|think|guess|go back|argue|fight)\b)"
    r"[a-z]+(?<!ed)\b(?![^.!?;]*\b(?:last|ago|used to|yesterday)\b)[^.!?;]{0,60}?\b"
    r"(?:every (?:single )?(?:day|morning|night|evening|week|weekday|weekend|month|year|monday|"
    r"tuesday|wednesday|thursday|friday|saturday|sunday)|(?:\d+|one|two|three|four|five)\s?"
    r"(?:x|times|nights|days|mornings) (?:a|per|each) (?:day|week|month)|(?:once|twice) (?:a|per|"
    r"each) (?:day|week|month|year)|(?:mon|tues|wednes|thurs|fri|satur|sun)days\b|"
    r"\d+ \w+ (?:a|per) (?:day|night|week))",
    # what the speaker can only do: "i can only really do mornings before work"
    r"\bi can only (?:really |ever )?(?:do|manage|train|exercise|make|afford|spare|eat|"
    r"drink|travel|work)\b",
    # one kind of thing only, said alone: "AMD only, I've had bad luck with Intel", "kindle
    # only pls" (not "today only")
    LEAD + r"(?!(?:today|tonight|tomorrow|this|that|it|one|members|cash)\b)[a-z][\w-]*"
    r"(?: [\w-]+){0,2} only\s*(?:[,.!]|pls\b|please\b|$)",
    # what weighs most: "small classes matter most to us", "a garden is a must for me"
    r"\bmatters? (?:the )?(?:most|more|a lot) to (?:me|us)\b",
    r"\b(?:is|are) (?:a )?(?:must|must-have|dealbreaker|deal-breaker)"
    r"(?:\s+for (?:me|us))?(?![\s-]*\w)",
    r"\bnon[\s-]?negotiable\b",
    r"\b(?:is|are|'s|'re) a (?:hard|firm|big) no\b",
    # what the speaker's body or diet allows: "im lactose intolerant", "we're vegetarian",
    # "i cant do spicy food"
    r"\b(?:i'?m|we'?re|i am|we are) (?:strictly |mostly |fully |now |also |technically |lactose |"
    r"gluten )?(?:allergic|intolerant|vegetarian|vegan|"
    r"pescatarian|coeliac|celiac|diabetic|teetotal|kosher|halal)\b",
    r"\bi (?:just |really |personally )?(?:can'?t|cannot) (?:do|handle|eat|stomach|tolerate|"
    r"deal with) (?!(?:mon|tue|wed|thu|fri|sat|sun|today|tomorrow|tonight|this|that|it|the|"
    r"next|any)\w*\b)",
    # "I learn way better with visual analogies", "I'm done w thrillers for a while",
    # "I'm only interested in pieces made before 1960", "never again"
    r"\bi (?:learn|work|sleep|focus|concentrate|think|write|study|train|read) (?:\w+ ){0,2}"
    r"(?:better|best)\b",
    # "i refuse to mock the db", "zero interest in reading standard notation"
    r"\bi (?:flat out |just )?refuse to\b|\b(?:zero|no|little) interest in\b",
    r"\bi'?m (?:done|through) (?:w|with) (?!(?:my|the|this|that|it|your|our|his|her|a|an)\b)",
    r"\b(?:i'?m|we'?re|i am|we are) (?:only |not |really |very )?(?:interested in|against|"
    r"a fan of|big on)\b",
    r"\bnever again\b",
)
#: a course taken, said as chat says it, where no firmer cue was found: what the speaker will
#: do ("we'll crate train", "ill do the bike plan"), is doing ("we're flying", "im giving a
#: talk at pycon"; not after "since" or "if": a reason or a supposition), does with the
#: subject left out ("booking the cabin", "going w the cruz"), or has bought or booked
#: ("ordered the miele"). An assistant saying so ("I'll sketch a plan") speaks of its own work.
COURSE = any_of(
    r"\b(?:i|we)(?:'ll| will) (?:just |def(?:initely)? |now |also |then )?(?!" + _PUT_OFF + r")"
    r"[a-z]+\b",
    # chat's "ill" is "I'll" only before a verb of a course: "ill do the bike plan"
    _CLAUSE + r"ill (?:just |now |also |then )?(?:do|take|use|get|go|try|make|keep|book|buy|stick|"
    r"pick|stretch|drive|ride|skip|wait|pay|bring|leave|put|start|stop|switch|order|stay|rent)\b",
    r"(?<!since )(?<!because )(?<!while )(?<!when )(?<!if )(?<!as )"
    r"\b(?:i'?m|we'?re|i am|we are) (?:def(?:initely)? |just |also |now |officially |finally |"
    r"totally |still )?"
    + _COURSE_VERBS
    # (not for now: "I'm staying at a hotel tonight")
    + r"(?![^.!?]*\b(?:tonight|today|right now|at the moment|"
    r"this (?:morning|afternoon|evening))\b)",
    LEAD + r"(?:booking|ordering|buying|returning|throwing|hosting|selling|renting|hiring|"
    r"adopting|splitting|filing|moving|switching|using|taking the|getting (?:the|a new|rid)|"
    r"going (?:w|with|for|solo)\b|doing (?!(?:fine|ok|okay|well|good|great|better|alright|badly|"
    r"poorly|worse|terribly|awful)\b))" + _ACT_AS_SUBJECT,
    _CLAUSE + r"(?:(?:i|we)(?:'ve| have)?\s+)?(?:just\s+|finally\s+|already\s+)?(?:ordered|"
    r"booked|bought|purchased|reserved|hired|rented|adopted|put down a deposit|signed)\b"
    r"(?![^.!?]*\bagain\b)",
    # when it starts: "lights out at 11:30 ... starting tonight", "starting w this month's"
    r"(?<!is )(?<!'s )(?<!are )(?<!was )\bstarting (?:w(?:ith)? |from )?(?:tonight|today|tomorrow|"
    r"now|next|this|monday|tuesday|"
    r"wednesday|thursday|friday|saturday|sunday)\b",
    r"\b(?:is|are|'s|'re) off the (?:table|list|menu|cards)\b",
    r"\b(?:we'?re|i'?m|i am|we are|i've been|we've been) firm on\b",
    r"\b(?:a|the) hill (?:i|we|he|she)(?:'ll| will|'d| would) die on\b",
    # what the speaker is going to do, but what puts a choice off: "i'm going to send him a
    # demand letter", not "I'm going to think about it"
    r"\b(?:i'?m|we'?re|i am|we are) (?:gonna|going to) (?:just |def(?:initely)? |also |then )?"
    # (going to a place is no course: "I'm going to the dentist at 4")
    r"(?!" + _PUT_OFF + r"|(?:the|a|an|my|our|your|his|her|their|this|that|bed|sleep|work|school|"
    r"church|town|class)\b)[a-z]+\b",
)
#: a line drawn, said as chat says it: "no live demo.", "no captains, the armband rotates",
#: "and no goodie bags btw" - not a reply ("no, ..."), a courtesy ("no worries", "no idea"),
#: a correction's opening ("no wait") or a measure of something ("no more than", "no later")
REFUSAL = re.compile(
    LEAD + r"no (?!(?:idea|problems?|probs?|problemo|worry|worries|way|clue|thanks|thx|rush|"
    r"hurry|biggie|pressure|offen[cs]e|kidding|joke|doubt|wait|sorry|ones?|i|im|i'm|i'd|we|it|"
    r"it's|that|that's|this|there|the|a|an|you|your|he|he's|she|she's|they|they're|more|less|"
    r"longer|later|earlier|sooner|need|matter|big|luck|chance|reason|time|comment|difference|"
    r"change|news|word|issues?|harm|judge?ment|stress|pun|lie|cap|joy|dice|go|shit|seriously|"
    r"really|yeah|yes|ok|okay|nothing|not|exceptions|strings|excuses|drama|fuss|surprise|"
    r"answer|reply|response|update|signal|power|sign|service|wifi|internet|water|heat|fever|"
    r"surprises there|rain|snow|school|work|traffic|shame|fun)\b)"
    # a state of things reported, not a line drawn: "no power since 6am", "no fever today"
    r"(?![^.,!]*\b(?:here|there|today|tonight|yet|since|so far|for now|all (?:day|week|night|"
    r"month)|this (?:morning|afternoon|evening|week|month|year)|from|anywhere|left|at all)\b)"
    # closed by a stop or followed by its reason: not an item of a list ("3 bullets max, no
    # preamble")
    r"[a-z][\w&'-]*(?:\s+[\w&'-]+){0,3}\s*(?:[.!]|,(?!\s*(?:no|nothing|not)\b))",
    re.IGNORECASE,
)
#: a line drawn that names the assistant's answers or says please: a rule for it ("no meat
#: suggestions pls", "no tab heavy answers"); that word looked for once, not at each position
REFUSAL_FOR_YOU = re.compile(
    r"^(?=.*\b(?:pls|please|plz|suggestions?|answers?|recommendations?|replies|responses|ideas|"
    r"you|your)\b).*?(?:" + REFUSAL.pattern + ")",
    re.IGNORECASE,
)
#: a wish, which may be for now or for good: see :func:`~beliefgraph.importer.kinds.standing_wish`
WISH = any_of(
    r"\bi (?:really |just |also |mostly |only )?want\b",
    r"\bi (?:really )?(?:don'?t|do not) want\b",
    r"\bi(?:'d| would) (?:really )?like\b",
    r"\bplease (?:use|write|keep|call|reply|respond|answer|format)\b",
)
#: words that make a wish about how things are done from now on, not about this once
STANDING = any_of(
    r"\b(?:always|never|usually|mostly|generally|in general|by default|from now on|"
    r"going forward)\b",
    r"\b(?:from here on|in (?:the )?future|every time|each time|whenever|all the time)\b",
    r"\b(?:any ?more|no more)\b",
)
RECOMMENDATION = any_of(
    r"\bi (?:recommend|suggest|would suggest|would recommend)\b",
    r"\byou (?:could|should|might want to|may want to)\b",
    r"^consider\b",
)
#: an assistant restating what the user holds ("you've decided …", "your favourite …")
#: "you" after a conditional ("Let me know if you want changes") supposes, it does not report
_YOU = r"\byou(?<!\bif you)(?<!\bwhether you)(?<!\bunless you)(?<!\bin case you)"
PARAPHRASE = any_of(
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
IRONY = any_of(
    r"\bwhy not\s*[.!]*\s*$",
    r"\bwhat could (?:possibly )?go wrong\b",
    r"\byeah,? right\b",
    # "Sure, I'll just sell a kidney", "yeah sure, I'll definitely enjoy a 14-hour layover"
    r"\bsure\b[,!]?\s+(?:i|we)(?:'ll| will) (?:just|definitely|totally|happily|gladly)\b",
    r"\bi (?:just |really |absolutely )?(?:love|adore) (?:how|it when|that (?:we|they|it))\b",
    r"^(?:oh )?(?:great|wonderful|fantastic|brilliant|perfect),? (?:just|another|more)\b",
    # a suggestion welcomed, closing what is said: "a mini tripod, never thought of that,
    # great idea" (irony's neighbour: it holds nothing of the user's own)
    r"\b(?:great|good|nice|cool|fun|smart) (?:idea|call|point|tip)\W*$",
)
#: a reaction to what was just said, which holds nothing of its own: "I like that idea!",
#: "Love it.", "I like this one"
REACTION = re.compile(
    LEAD + r"(?:i (?:really |do |totally )?)?(?:like|love|prefer|dig) (?:that|this|it|yours|"
    r"your \w+|the (?:idea|plan|suggestion|first one|second one|last one))"
    r"(?: (?:idea|plan|one|approach|suggestion|option|version|draft|comparison|breakdown|"
    r"summary|list|table|answer|explanation|example|overview|rundown|a lot|too))?"
    # and a word of thanks after it: "I love that comparison, super helpful"
    r"(?:\s*[,;-]\s*(?:\w+\s*){1,4})?\s*[.!]*\s*$",
    re.IGNORECASE,
)
#: what the speaker likes about the assistant's last answer: "I like that you asked first"
ABOUT_THE_ANSWER = re.compile(
    LEAD + r"i (?:really |do )?(?:like|love|appreciate) (?:that|how|when|it when) you\b",
    re.IGNORECASE,
)
#: "I always …" / "I never …" are the speaker's habits, not rules for others
HABIT = re.compile(
    LEAD + rf"i (?:always|{_NEVER}|usually|only (?!(?:found|just|recently|reali[sz]ed|heard|"
    r"learned|noticed|got|saw|had|meant|knew|know|said|asked|wanted to)\b)\w+)\b",
    re.IGNORECASE,
)
