import Foundation
import NimbusDomain

/// The catalogue's 21 genres (English, as Wikidata/OMDb name them) in Korean and Japanese. A genre
/// not in the table (TMDB's, which come in the asked-for language already) is shown as it is.
public enum MovieGenres {
    /// The catalogue's genres, as it names them (what the genre filter offers).
    public static let catalogue: [String] = ko.keys.sorted()

    static let ko: [String: String] = [
        "Action": "액션", "Adventure": "모험", "Animation": "애니메이션", "Biography": "전기", "Comedy": "코미디",
        "Crime": "범죄", "Documentary": "다큐멘터리", "Drama": "드라마", "Family": "가족", "Fantasy": "판타지",
        "History": "역사", "Horror": "공포", "Music": "음악", "Musical": "뮤지컬", "Mystery": "미스터리",
        "Romance": "로맨스", "Sci-Fi": "SF", "Sport": "스포츠", "Thriller": "스릴러", "War": "전쟁", "Western": "서부",
    ]
    static let ja: [String: String] = [
        "Action": "アクション", "Adventure": "アドベンチャー", "Animation": "アニメーション", "Biography": "伝記",
        "Comedy": "コメディ", "Crime": "犯罪", "Documentary": "ドキュメンタリー", "Drama": "ドラマ", "Family": "ファミリー",
        "Fantasy": "ファンタジー", "History": "歴史", "Horror": "ホラー", "Music": "音楽", "Musical": "ミュージカル",
        "Mystery": "ミステリー", "Romance": "ロマンス", "Sci-Fi": "SF", "Sport": "スポーツ", "Thriller": "スリラー",
        "War": "戦争", "Western": "西部劇",
    ]
}

extension L10n {
    /// A genre's name in the UI language.
    public func genre(_ name: String) -> String {
        switch language {
        case .en: return name
        case .ko: return MovieGenres.ko[name] ?? name
        case .ja: return MovieGenres.ja[name] ?? name
        }
    }

    /// A country's name in the UI language (the catalogue's English names; see `MovieCountries`).
    public func country(_ name: String) -> String {
        switch language {
        case .en: return name
        case .ko: return MovieCountries.ko[name] ?? name
        case .ja: return MovieCountries.ja[name] ?? name
        }
    }

    /// Countries joined with the language's list separator.
    public func countries(_ names: [String]) -> String {
        list(names.map(country))
    }

    /// A year range as a chip says it: "1990s" for a decade, "1994" for one year, "1990–1995".
    public func years(_ years: ClosedRange<Int>) -> String {
        if years.count == 1 { return String(years.lowerBound) }
        if years.lowerBound % 10 == 0, years.count == 10 { return format(.moviesFilterDecade, String(years.lowerBound)) }
        return "\(years.lowerBound)–\(years.upperBound)"
    }

    /// A sort's name ("rating").
    public func sortName(_ sort: MovieSort) -> String {
        switch sort {
        case .relevance: return self[.moviesSortRelevance]
        case .year: return self[.moviesSortYear]
        case .rating: return self[.moviesSortRating]
        }
    }

    /// Items joined with the language's list separator ("、" in Japanese, ", " otherwise).
    public func list(_ items: [String]) -> String {
        items.joined(separator: language == .ja ? "、" : ", ")
    }

    /// Genres joined with the language's list separator.
    public func genres(_ names: [String]) -> String {
        list(names.map(genre))
    }
}
