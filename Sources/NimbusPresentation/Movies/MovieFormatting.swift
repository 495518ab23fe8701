import Foundation
import NimbusDomain

/// One result row, formatted for display.
public struct MovieRow: Equatable, Sendable, Identifiable {
    public let id: MovieID
    public let title: String
    public let year: String
    public let genres: String
    public let director: String
    public let inWishlist: Bool
    /// "142 min" in the UI language, "" when unknown.
    public var runtime: String = ""
    /// "8.2" (out of 10), "" when unknown.
    public var rating: String = ""
    public var countries: String = ""
}

extension MovieRow {
    init(_ movie: MovieSummary, inWishlist: Bool, l10n: L10n) {
        self.init(id: movie.id, title: movie.title, year: movie.year.map(String.init) ?? "",
                  genres: l10n.genres(movie.genres), director: movie.directors.joined(separator: ", "),
                  inWishlist: inWishlist,
                  runtime: movie.runtime.map { l10n.format(.movieDetailRuntimeValue, l10n.number($0)) } ?? "",
                  rating: movie.rating.map { String(format: "%.1f", $0) } ?? "",
                  countries: l10n.countries(movie.countries))
    }
}

extension L10n {
    /// The localised explanation of a film loading error.
    public func describe(_ error: MovieError) -> String {
        switch error {
        case .offline: return self[.moviesErrorOffline]
        case .timedOut: return self[.moviesErrorTimeout]
        case .connectionLost: return self[.moviesErrorConnectionLost]
        case .tooLarge: return self[.moviesErrorTooLarge]
        case .badReply: return self[.moviesErrorBadReply]
        case .redirected: return self[.moviesErrorRedirected]
        case .unauthorized: return self[.moviesErrorUnauthorized]
        case .rateLimited: return self[.moviesErrorRateLimited]
        case .server(let status): return format(.moviesErrorServer, String(status))
        case .badResponse: return self[.moviesErrorBadResponse]
        case .notFound: return self[.moviesErrorNotFound]
        case .sourceUnavailable(.tmdb): return self[.moviesErrorTmdbUnavailable]
        case .sourceUnavailable(.catalogue): return self[.moviesErrorCatalogueUnavailable]
        case .storage: return self[.moviesErrorStorage]
        }
    }

    func describe(_ error: WishlistError) -> String {
        switch error {
        case .duplicate(let title): return format(.wishlistDuplicate, title)
        case .storage: return self[.wishlistStorage]
        }
    }

    func describeWishlistFailure(_ error: Error) -> String {
        describe((error as? WishlistError) ?? .storage)
    }
}

/// How one list of identified rows became another: what a screen needs to keep its selection and
/// scroll position when rows are inserted (a page load) or removed.
public struct SnapshotDiff<ID: Hashable>: Equatable {
    public let inserted: [Int]
    public let removed: [Int]
    private let newIndex: [ID: Int]

    public init(old: [ID], new: [ID]) {
        let difference = new.difference(from: old)
        var inserted: [Int] = []
        var removed: [Int] = []
        for change in difference {
            switch change {
            case .insert(let offset, _, _): inserted.append(offset)
            case .remove(let offset, _, _): removed.append(offset)
            }
        }
        self.inserted = inserted.sorted()
        self.removed = removed.sorted()
        var index: [ID: Int] = [:]
        for (i, id) in new.enumerated() where index[id] == nil { index[id] = i }
        newIndex = index
    }

    /// Where the row `id` is now, or nil when it is gone.
    public func index(of id: ID) -> Int? { newIndex[id] }
}
