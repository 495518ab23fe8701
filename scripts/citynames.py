"""The name a city is shown by in Korean and Japanese, and the kana readings of Japanese cities' kanji names.

Used by build-resources.py, which stores the choices in the catalogue (so the app has one rule, made
here, for every screen) and adds the readings to the search index only (they are never shown).

Korean: among the alternates with Hangul, the one whose romanisation (ICU's Hangul-Latin, ported
below) shares the longest common subsequence of letters with the canonical name (서울 rather than the
historical 경성 for Seoul, 상하이 rather than 상해 for Shanghai), then the shorter, then the first.

Japanese: GeoNames' alternates carry no language tags, so the name is picked by script. A candidate
is written only in kana and in kanji of the Japanese standard set (JIS X 0208, i.e. encodable in
Shift_JIS), which rules out simplified Chinese forms (广州, 东京); kanji names count only for cities of
Japan, China, Taiwan, Hong Kong, Macao and Korea (elsewhere they are Chinese names, 巴里 for Paris,
that Japanese does not use), and hiragana-only names only for Japan (elsewhere they are readings:
たかおし for 高雄; Japanese writes foreign names in katakana). A name is "Japanese-only" when it has kana or a kanji in neither GB 2312
nor Big5 (広州 with the shinjitai 広), judged without its administrative suffix (釜山広域市 is no
more Japanese than 釜山); a kanji name has kanji besides that suffix (ハルビン市 is a kana name).
Candidates are ranked by, in order:
  - Japan: a kana city name first (つくば, listed with つくば市, before 筑波: cities named in kana
    are named so officially, and no Chinese name is in kana); then kanji (東京, not とうきょう); a kanji name whose reading matches the romanised canonical name (東京 とうきょう =
    Tokyo, not 東京都); Japanese-only forms;
  - China, Taiwan, Hong Kong, Macao: Japanese-only forms first (広州 before 廣州, ハルビン before
    哈爾濱, 済南), then kanji before kana;
  - Korea and elsewhere: kana first (ソウル, パリ), then Japanese-only forms;
then, for all: the city's own name (one ending in 市, or the same name without its suffix: 成都 with
成都市, ソウル with ソウル特別市, not the historical 天府); the closest romanisation (of kana, or of a Japanese city's reading),
as for Korean; the shorter (釜山 before 釜山広域市); a Japanese-only full name (仁川広域市 before
仁川廣域市); the city before its district (桃園市 before 桃園區); the first listed.
"""

from __future__ import annotations

import sys
import tarfile
import unicodedata
import zipfile
from pathlib import Path

import wheels

# Readings: fugashi (MeCab) with the UniDic-lite dictionary. fugashi ships binary wheels, so the
# pinned one is for CPython 3.11 on x86-64 Linux; unidic-lite is an sdist whose dictionary is read
# straight out of the archive (nothing is installed).
FUGASHI_VERSION = "1.5.2"
FUGASHI_WHEEL = f"fugashi-{FUGASHI_VERSION}-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.whl"
FUGASHI_SHA256 = "ff899e1767024ba8bc53d8a2cf90bca19a6a54b14ddf05a75d04169f7acb262c"
UNIDIC_VERSION = "1.0.8"
UNIDIC_SDIST = f"unidic-lite-{UNIDIC_VERSION}.tar.gz"
UNIDIC_SHA256 = "db9d4572d9fdd4d00a97949d4b0741ec480ee05a7e7e2e32f547500dae27b245"

# --- Korean -------------------------------------------------------------------------------------

_INITIAL = ["g", "kk", "n", "d", "tt", "l", "m", "b", "pp", "s", "ss", "", "j", "jj", "ch", "k", "t", "p", "h"]
_MEDIAL = ["a", "ae", "ya", "yae", "eo", "e", "yeo", "ye", "o", "wa", "wae", "oe", "yo", "u", "wo", "we", "wi",
           "yu", "eu", "ui", "i"]
_FINAL = ["", "g", "kk", "gs", "n", "nj", "nh", "d", "l", "lg", "lm", "lb", "ls", "lt", "lp", "lh", "m", "b",
          "bs", "s", "ss", "ng", "j", "ch", "k", "t", "p", "h"]


def is_hangul(ch: str) -> bool:
    cp = ord(ch)
    return 0xAC00 <= cp <= 0xD7A3 or 0x1100 <= cp <= 0x11FF or 0x3130 <= cp <= 0x318F


def latin_letters(text: str) -> str:
    """Lowercase ASCII letters of a Latin name, accents and everything else dropped."""
    out = []
    for ch in unicodedata.normalize("NFKD", text):
        if unicodedata.category(ch) == "Mn":
            continue
        low = ch.lower()
        low = {"ß": "ss", "ø": "o", "ł": "l", "đ": "d", "ð": "d", "æ": "ae", "œ": "oe", "ı": "i",
               "þ": "th", "ħ": "h"}.get(low, low)
        out.extend(c for c in low if "a" <= c <= "z")
    return "".join(out)


def romanise_hangul(text: str) -> str:
    """ICU's Hangul-Latin for precomposed syllables (서울 -> seoul); Latin letters kept, the rest dropped."""
    out = []
    for ch in text:
        cp = ord(ch)
        if 0xAC00 <= cp <= 0xD7A3:
            i = cp - 0xAC00
            out.append(_INITIAL[i // 588] + _MEDIAL[(i % 588) // 28] + _FINAL[i % 28])
        else:
            out.append(latin_letters(ch))
    return "".join(out)


def common_letters(a: str, b: str) -> int:
    """Length of the longest common subsequence."""
    if not a or not b:
        return 0
    row = [0] * (len(b) + 1)
    for x in a:
        diagonal = 0
        for j, y in enumerate(b):
            above = row[j + 1]
            row[j + 1] = diagonal + 1 if x == y else max(row[j + 1], row[j])
            diagonal = above
    return row[len(b)]


def korean_name(names: list[str]) -> int:
    """Index in `names` (canonical first) of the Korean name, 0 when there is none."""
    target = latin_letters(names[0])
    best, best_key = 0, None
    for i, name in enumerate(names[1:], start=1):
        if name == names[0] or not any(is_hangul(ch) for ch in name):
            continue
        key = (-common_letters(romanise_hangul(name), target), len(name), i)
        if best_key is None or key < best_key:
            best, best_key = i, key
    return best


# --- Japanese -----------------------------------------------------------------------------------

KANJI_COUNTRIES = {"JP", "CN", "TW", "HK", "MO"}


def is_kana(ch: str) -> bool:
    return 0x3041 <= ord(ch) <= 0x30FF


def is_kanji(ch: str) -> bool:
    cp = ord(ch)
    return 0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or ch in "々〆ヶ"


def encodes(ch: str, codec: str) -> bool:
    try:
        ch.encode(codec)
        return True
    except UnicodeEncodeError:
        return False


def japanese_writable(name: str) -> bool:
    """Only kana and kanji of JIS X 0208 (Shift_JIS), with at least one of them."""
    return bool(name) and all((is_kana(ch) or is_kanji(ch)) and encodes(ch, "shift_jis") for ch in name)


def japanese_only(name: str) -> bool:
    """Has kana, or a kanji that neither simplified (GB 2312) nor traditional (Big5) Chinese writes."""
    return any(is_kana(ch) and not is_kanji(ch) or is_kanji(ch) and not encodes(ch, "gb2312")
               and not encodes(ch, "big5") for ch in name)


_KANA_ROMAJI = {}
for _row in """あa いi うu えe おo かka きki くku けke こko さsa しshi すsu せse そso たta ちchi つtsu てte とto
なna にni ぬnu ねne のno はha ひhi ふfu へhe ほho まma みmi むmu めme もmo やya ゆyu よyo らra りri るru れre
ろro わwa ゐi ゑe をo んn がga ぎgi ぐgu げge ごgo ざza じji ずzu ぜze ぞzo だda ぢji づzu でde どdo ばba びbi
ぶbu べbe ぼbo ぱpa ぴpi ぷpu ぺpe ぽpo ぁa ぃi ぅu ぇe ぉo ゃya ゅyu ょyo ゎwa ゔvu""".split():
    _KANA_ROMAJI[_row[0]] = _row[1:]


def hiragana(text: str) -> str:
    """Katakana folded to hiragana, the search folding's table (ア -> あ, ヴ -> ゔ, ヽ -> ゝ; ヷ has no hiragana)."""
    return "".join(chr(ord(ch) - 0x60) if 0x30A1 <= ord(ch) <= 0x30F6 or 0x30FD <= ord(ch) <= 0x30FE else ch
                   for ch in text)


def romanise_kana(text: str) -> str:
    """Hepburn-like romanisation of kana: きょう -> kyou, さっぽろ -> sapporo; other characters dropped."""
    out: list[str] = []
    double = False
    for ch in hiragana(text):
        if ch == "っ":
            double = True
            continue
        if ch in "ゃゅょ" and out and len(out[-1]) >= 2 and out[-1].endswith("i"):
            stem = out[-1][:-1]
            out[-1] = stem + _KANA_ROMAJI[ch][1:] if stem in ("sh", "ch", "j") else stem + _KANA_ROMAJI[ch]
            continue
        if ch == "ー":
            if out:
                out.append(out[-1][-1])
            continue
        roman = _KANA_ROMAJI.get(ch)
        if roman is None:
            continue
        if double and roman[0] not in "aiueo":
            roman = roman[0] + roman
        double = False
        out.append(roman)
    return "".join(out)


def loose(roman: str) -> str:
    """Romanisation with long vowels and n/m spellings merged: Tōkyō, Toukyou, Tokyo all read tokyo."""
    for long, short in (("ou", "o"), ("oo", "o"), ("uu", "u"), ("aa", "a"), ("ii", "i"), ("ee", "e"),
                        ("mb", "nb"), ("mp", "np"), ("mm", "nm"), ("tch", "cch")):
        roman = roman.replace(long, short)
    return roman


class Reader:
    """Kana readings of Japanese text with MeCab (fugashi) and UniDic-lite."""

    def __init__(self, workdir: Path, fugashi_wheel: str | None, unidic_sdist: str | None):
        wheel = wheels.fetch("fugashi", FUGASHI_VERSION, FUGASHI_WHEEL, FUGASHI_SHA256, workdir, fugashi_wheel)
        sdist = wheels.fetch("unidic-lite", UNIDIC_VERSION, UNIDIC_SDIST, UNIDIC_SHA256, workdir, unidic_sdist,
                             binary=False)
        site = workdir / "site"
        with zipfile.ZipFile(wheel) as z:
            z.extractall(site)
        prefix = f"unidic-lite-{UNIDIC_VERSION}/unidic_lite/dicdir/"
        dicdir = workdir / "dicdir"
        dicdir.mkdir()
        with tarfile.open(sdist) as tar:
            for member in tar.getmembers():
                if member.isfile() and member.name.startswith(prefix) and "/" not in member.name[len(prefix):]:
                    (dicdir / member.name[len(prefix):]).write_bytes(tar.extractfile(member).read())
        sys.path.insert(0, str(site))
        try:
            import fugashi  # noqa: E402
        except ImportError as error:
            sys.exit(f"the readings need the pinned {FUGASHI_WHEEL} (CPython 3.11, x86-64 Linux): {error}")
        self.tagger = fugashi.Tagger(f"-r /dev/null -d {dicdir}")
        self.cache: dict[str, list[str]] = {}

    def readings(self, text: str) -> list[str]:
        """Hiragana readings of `text`, MeCab's best first (up to 10), leaving out any with an unknown word."""
        if text in self.cache:
            return self.cache[text]
        found: list[str] = []
        for path in self.tagger.nbestToNodeList(text, 10):
            parts = []
            for word in path:
                kana = getattr(word.feature, "kana", None)
                if not kana or kana == "*":
                    if not all(is_kana(ch) for ch in word.surface):
                        break
                    kana = word.surface
                parts.append(kana)
            else:
                reading = hiragana("".join(parts))
                if reading and reading not in found:
                    found.append(reading)
        self.cache[text] = found
        return found

    def reading(self, text: str, canonical: str) -> str | None:
        """The reading of a Japanese city's name: among MeCab's best readings, the first that is the
        romanised canonical name (板橋 いたばし for Itabashi, where the best is いたはし), also with an
        administrative suffix after it (四日市市 よっかいちし); else the best; None if there is none."""
        target = loose(latin_letters(canonical))
        best = self.readings(text)
        for reading in best:
            if loose(romanise_kana(reading)) == target:
                return reading
        for suffix, spoken in READING_SUFFIXES:
            if text.endswith(suffix) and len(text) > len(suffix):
                for reading in self.readings(text[:-len(suffix)]):
                    if loose(romanise_kana(reading)) == target:
                        return reading + spoken
        return best[0] if best else None


# Suffixes of Japanese municipalities and how they are read after the name.
READING_SUFFIXES = (("市", "し"), ("区", "く"), ("町", "まち"), ("村", "むら"))


def japanese_readings(names: list[str], country: str, reader: Reader | None) -> dict[str, str]:
    """Readings of a Japanese city's kanji names (search tokens only); empty for other cities."""
    if country != "JP" or reader is None:
        return {}
    readings = {}
    for name in names[1:]:
        if japanese_writable(name) and any(is_kanji(ch) for ch in name):
            reading = reader.reading(name, names[0])
            if reading:
                readings[name] = reading
    return readings


# Suffixes of cities and their districts (not 都, 府, 町, 村: 京都, 成都 and 本町 are names, not suffixes).
ADMINISTRATIVE_SUFFIXES = ("広域市", "廣域市", "特別市", "市", "区", "區", "県", "縣", "鎮", "鎭", "街道")


def stem(name: str) -> str:
    """The name without an administrative suffix (釜山広域市 -> 釜山), so the suffix's own form (広) does not count."""
    for suffix in ADMINISTRATIVE_SUFFIXES:
        if name.endswith(suffix) and len(name) > len(suffix):
            return name[:-len(suffix)]
    return name


def japanese_name(names: list[str], country: str, readings: dict[str, str]) -> int:
    """Index in `names` (canonical first) of the Japanese name, 0 when there is none (see the module)."""
    target = latin_letters(names[0])
    city_stems = {stem(name) for name in names[1:] if name.endswith("市")}
    best, best_key = 0, None
    for i, name in enumerate(names[1:], start=1):
        if name == names[0] or not japanese_writable(name):
            continue
        has_kanji = any(is_kanji(ch) for ch in stem(name))  # ハルビン市 is a kana name
        if has_kanji and country not in KANJI_COUNTRIES | {"KR", "KP"}:
            continue
        if country != "JP" and all(0x3041 <= ord(ch) <= 0x309F for ch in name):
            continue  # a reading (たかおし for 高雄): Japanese writes foreign names in katakana
        spoken = readings.get(name) if has_kanji else name
        roman = romanise_kana(spoken) if spoken else ""
        japanese_stem = japanese_only(stem(name))
        official = stem(name) in city_stems
        if country == "JP":
            reads_as_canonical = has_kanji and bool(roman) and loose(roman) == loose(target)
            kana_city = official and not has_kanji  # つくば of つくば市: kana is never a Chinese name
            lead = (not kana_city, not has_kanji, not reads_as_canonical, not japanese_stem)
        elif country in KANJI_COUNTRIES:
            lead = (not japanese_stem, not has_kanji)
        else:
            lead = (has_kanji, not japanese_stem)
        key = (*lead, not official, -common_letters(roman, target), len(name), not japanese_only(name),
               not name.endswith("市"), i)
        if best_key is None or key < best_key:
            best, best_key = i, key
    return best
