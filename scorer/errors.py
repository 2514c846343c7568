"""The project's one error vocabulary: `McrError` and the messages it speaks.

Every bad input anywhere in the product ends in an `McrError` (a subclass per
layer: `ScoreError` here, `GameError` for the game sheet, `PhotoError` and
`ModelError` for the photo reader, `RequestError` for the web API). An error
carries a stable `code` (the JSON `error.code`, never translated) and the
parameters of its message; the text itself comes from the layer's catalogue,
in the language the caller asks for (CONTRACTS.md: `en`, `zh` simplified,
`zh-Hant` traditional; English by default), so the command line, the batch
mode and the web API word the same error the same way.

A catalogue maps a message id to its three texts. The id is the code, or the
code, a dot and a variant where one code has several messages
(`contradictory_flags.kong_last_tile`): `ScoreError("bad_type.flag", name=...)`
has the code `bad_type`. The parameters of TERM_PARAMS hold terms (a request
field such as `self_drawn`), shown by their name in that language, so the
Chinese texts never show an internal field name.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any, ClassVar

from scorer.messages import MESSAGES, SHARED, TERMS

#: the message languages of CONTRACTS.md; the first is the default
LANGS = ("en", "zh", "zh-Hant")
DEFAULT_LANG = "en"

#: unknown fields an `unknown_field` refusal names, and the characters shown of each
UNKNOWN_SHOWN, UNKNOWN_CHARS = 5, 40

#: a catalogue: message id -> language -> text with `{parameters}`
Catalogue = Mapping[str, Mapping[str, str]]

#: where an error happened (`hand 3, penalty 2: ...`), by the kind of place
WHERE: Catalogue = {
    "hand": {"en": "hand {n}", "zh": "第 {n} 盘", "zh-Hant": "第 {n} 盤"},
    "penalty": {"en": "penalty {n}", "zh": "第 {n} 项罚分", "zh-Hant": "第 {n} 項罰分"},
    "session": {"en": "session {n}", "zh": "第 {n} 节", "zh-Hant": "第 {n} 節"},
    "table": {"en": "table {n}", "zh": "第 {n} 桌", "zh-Hant": "第 {n} 桌"},
    "line": {"en": "line {n}", "zh": "第 {n} 行", "zh-Hant": "第 {n} 行"},
    "game": {"en": "game", "zh": "整局", "zh-Hant": "整局"},
}

#: the parameters whose values are terms (a request field, a meld kind, a fan name)
TERM_PARAMS = ("field", "kind", "first", "second", "read", "tiles")

_SEPARATOR = {"en": ", ", "zh": "，", "zh-Hant": "，"}
_COLON = {"en": ": ", "zh": "：", "zh-Hant": "："}


#: primary language subtags written in Chinese characters: Chinese, Mandarin, Cantonese
CHINESE = ("zh", "cmn", "yue")


def is_chinese(tag: str) -> bool:
    """Whether a language tag (`zh-TW`, `cmn-Hans`, `yue_HK`) names a Chinese language."""
    return tag.strip().replace("_", "-").casefold().split("-")[0] in CHINESE


def pick_lang(value: object) -> str:
    """One of LANGS for a requested language (`both` and unknown ones read as English).

    The script decides before the region (zh-Hans-HK is simplified); without
    either, Cantonese reads traditional, as Hong Kong writes it, unless its
    region writes simplified (yue-CN)."""
    if isinstance(value, str) and is_chinese(value):
        parts = value.strip().replace("_", "-").casefold().split("-")
        if "hans" in parts or "hant" in parts:
            return "zh" if "hans" in parts else "zh-Hant"
        if any(p in ("tw", "hk", "mo") for p in parts):
            return "zh-Hant"
        simplified = any(p in ("cn", "sg", "my") for p in parts)
        return "zh-Hant" if parts[0] == "yue" and not simplified else "zh"
    return DEFAULT_LANG


def _merged(cls: type, attribute: str) -> Catalogue:
    merged: dict[str, Mapping[str, str]] = {}
    for klass in reversed(cls.__mro__):
        merged.update(vars(klass).get(attribute, {}))
    return merged


class McrError(ValueError):
    """Base of every error the product reports to a person: a `code` and a message."""

    #: this layer's catalogue; a subclass names its own (the messages here are every layer's)
    messages: ClassVar[Catalogue] = SHARED
    #: parameter values shown by name (e.g. request fields): term -> language -> name
    terms: ClassVar[Catalogue] = {}

    def __init__(self, message_id: str, /, **params: Any) -> None:
        self.message_id = message_id
        self.code = message_id.split(".", 1)[0]
        self.params = params
        self.where: tuple[tuple[str, int], ...] = ()
        super().__init__(message_id)

    @classmethod
    def refuse_unknown(cls, obj: Mapping, known: Collection[str]) -> None:
        """This layer's `unknown_field` naming the keys of `obj` not in `known`: a typo never
        passes silently, and a hostile key is never echoed whole (five, 40 characters each)."""
        unknown = sorted(str(k) for k in obj if k not in known)
        if unknown:
            fields = ", ".join(repr(k[:UNKNOWN_CHARS]) for k in unknown[:UNKNOWN_SHOWN])
            raise cls("unknown_field", fields=fields, known=", ".join(sorted(known)))

    def at(self, place: str, number: int) -> McrError:
        """The same error placed inside `place` `number` (outermost last added)."""
        self.where = ((place, number), *self.where)
        return self

    @classmethod
    def catalogue(cls) -> Catalogue:
        """The messages of this class and of the classes it derives from."""
        return _merged(cls, "messages")

    @classmethod
    def all_terms(cls) -> Catalogue:
        return _merged(cls, "terms")

    def message_in(self, lang: str = DEFAULT_LANG) -> str:
        """The message in `lang` (any tag: `zh-TW`, `both`, ... are read by `pick_lang`)."""
        lang = pick_lang(lang)
        texts = self.catalogue().get(self.message_id)
        if texts is None:  # a message id missing from the catalogue: still say what it is
            return f"{self.code}: {self.params}" if self.params else self.code
        terms = self.all_terms()
        values = {
            k: terms[v].get(lang, v)
            if k in TERM_PARAMS and isinstance(v, str) and v in terms
            else v
            for k, v in self.params.items()
        }
        text = texts.get(lang, texts[DEFAULT_LANG]).format(**values)
        if not self.where:
            return text
        places = _SEPARATOR[lang].join(WHERE[p][lang].format(n=n) for p, n in self.where)
        return places + _COLON[lang] + text

    @property
    def message(self) -> str:
        """The message in English (logs, and callers that ask for no language)."""
        return self.message_in(DEFAULT_LANG)

    def __str__(self) -> str:
        return self.message

    def to_json(self, lang: str = DEFAULT_LANG) -> dict:
        return {"error": {"code": self.code, "message": self.message_in(lang)}}


class ScoreError(McrError):
    """A hand or score request that cannot be scored."""

    messages = MESSAGES
    terms = TERMS
