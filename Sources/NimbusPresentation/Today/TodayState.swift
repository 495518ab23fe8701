import Foundation
import NimbusDomain
@preconcurrency import OpenCombineShim
import CombineSchedulers
import NimbusLoop

/// The Today tab's three sections, in the order they are drawn.
public enum TodaySection: Int, CaseIterable, Sendable {
    case places, quakes, films
}

/// Where a section is: what it shows above or instead of its rows.
public enum TodaySectionStatus: Equatable, Sendable {
    /// Asked, no answer yet (rows from before, if any, stay).
    case loading
    /// Answered; the note says how fresh ("updated 2 min ago"), when that matters.
    case loaded(note: String?)
    /// Answered with nothing to show: the message says what to do.
    case empty(String)
    /// No answer and nothing kept: the message says why, and `r` on the section retries it.
    case failed(String)
    /// No fresh answer, so the saved one is shown: the note says how old and why.
    case stale(String)
}

/// The official warnings in force at one of the places, as its row marks them.
public struct TodayPlaceWarning: Equatable, Sendable {
    /// How severe the worst of them is: 1 (minor, or a severity the service did not give), 2
    /// (moderate), 3 (severe), 4 (extreme); the screen colours the mark by it.
    public let level: Int
    /// The most severe one in the service's own words, and how many more ("Winter Storm Warning +3 more").
    public let text: String

    public init(level: Int, text: String) {
        self.level = level
        self.text = text
    }

    /// The level of a severity.
    public static func level(_ severity: WeatherWarning.Severity) -> Int {
        switch severity {
        case .unknown, .minor: 1
        case .moderate: 2
        case .severe: 3
        case .extreme: 4
        }
    }
}

/// One of the user's places: the city nearest to them, then the liked cities.
public struct TodayPlaceRow: Equatable, Sendable {
    public let cityID: Int
    public let name: String
    /// The city the user is in (or nearest to).
    public let isHere: Bool
    /// "23°", nil until the weather came; the unavailable mark ("n/a") when it will not come.
    public let now: String?
    /// "28° / 17°".
    public let range: String?
    public let condition: String?
    /// Why this place has no weather ("bad response", "offline"): its own item of the answer was
    /// missing or not believable, or the request failed. Nil while it is asked for, and once it came.
    public var problem: String? = nil
    /// The official warnings in force there; nil when there are none, the place has no warnings
    /// source, or they could not be had (the weather beside it is the same either way).
    public var warning: TodayPlaceWarning? = nil
}

/// An earthquake near one of the places.
public struct TodayQuakeRow: Equatable, Sendable {
    public let id: String
    public let magnitude: String
    /// 0 (weak) … 4 (strong), for the colour.
    public let strength: Int
    /// "23 km SW of Pohang".
    public let place: String
    /// "120 km from Seoul".
    public let distance: String
    /// "3 h ago".
    public let time: String
}

/// A film from the wishlist or the recently viewed ones.
public struct TodayFilmRow: Equatable, Sendable {
    public let id: MovieID
    /// "Oldboy (2003)".
    public let title: String
}

/// Something on the Today screen that can be opened.
public enum TodayItem: Equatable, Hashable, Sendable {
    case place(Int)
    case quake(Int)
    case wishlist(Int)
    case viewed(Int)
}

/// What the selection can rest on: an item that opens, or a section without rows (its message,
/// where `r` retries it).
public enum TodayTarget: Equatable, Hashable, Sendable {
    case item(TodayItem)
    case section(TodaySection)

    public var section: TodaySection {
        switch self {
        case .section(let s): s
        case .item(.place): .places
        case .item(.quake): .quakes
        case .item(.wishlist), .item(.viewed): .films
        }
    }
}

/// How a key moves the selection.
public enum TodayMove: Equatable, Sendable {
    /// Down (positive) or up by this many stops (the viewed strip is one stop): ↑ ↓, a page.
    case by(Int)
    case first, last
    /// To the first stop of the next (1) or previous (-1) section, round the three.
    case section(Int)
    /// Along the viewed strip, when the selection is on it.
    case along(Int)
}

/// What the Today tab shows.
public struct TodayState: Equatable, Sendable {
    public struct Section<Row: Equatable & Sendable>: Equatable, Sendable {
        public let title: String
        public let status: TodaySectionStatus
        public let rows: [Row]
    }

    public let places: Section<TodayPlaceRow>
    /// How the nearest city was found ("Approximate: the largest city in the time zone Asia/Seoul"),
    /// and settings that were skipped.
    public let placesNotes: [String]
    public let quakes: Section<TodayQuakeRow>
    /// The wishlist's newest films (rows) and the recently viewed strip.
    public let films: Section<TodayFilmRow>
    public let viewed: [TodayFilmRow]
    /// What is selected: kept by identity, so an answer arriving in another section never moves it.
    public var selection: TodayTarget? = nil

    public func status(_ section: TodaySection) -> TodaySectionStatus {
        switch section {
        case .places: places.status
        case .quakes: quakes.status
        case .films: films.status
        }
    }

    /// The item the selection is on, if it is on one (Enter opens it).
    public var selectedItem: TodayItem? {
        if case .item(let item)? = selection { item } else { nil }
    }
    /// The selection is on an item (not on a section's message).
    public var onItem: Bool { selectedItem != nil }
    /// The selection is on the recently viewed strip (← → move along it).
    public var onViewed: Bool {
        if case .viewed? = selectedItem { true } else { false }
    }
    /// There are recently viewed films (← → are listed).
    public var hasViewed: Bool { !viewed.isEmpty }

    /// A section is waiting for its answer (its spinner turns).
    public var isLoading: Bool {
        TodaySection.allCases.contains { status($0) == .loading }
    }
}

/// What opening an item of Today leads to.
public enum TodayRoute: Equatable, Sendable {
    case city(City)
    case quake(Quake, QuakePlace?)
    case film(MovieSummary)
}
