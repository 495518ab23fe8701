import Foundation

/// Why a wishlist file (CSV or JSON) could not be read as a list of films.
public enum WishlistFileError: Error, Equatable, Sendable {
    case tooLarge(limit: Int)
    case tooManyRows(limit: Int)
    case notText
    /// The CSV has no Title column, a row has too many fields, or the JSON is not a list of films.
    case badFormat(BadFormat)
    /// The file could not be opened or read (the system's reason).
    case unreadable(String)

    /// What is wrong with the file's shape; the raw value is the command line's wording.
    public enum BadFormat: String, Equatable, Sendable {
        case jsonUnreadable = "the JSON could not be read"
        case jsonNotAList = "the JSON is not a list of films"
        case csvNoTitle = "the CSV has no Title column"
        case csvTooManyFields = "a row has more than 100 fields"
    }
}

/// Why an import saved nothing.
public enum WishlistImportError: Error, Equatable, Sendable {
    /// The file could not be read or is not a list of films.
    case file(WishlistFileError)
    /// The film catalogue the titles are matched in could not be read.
    case catalogueUnreadable
    /// The wishlist could not be written (SQLite's words: "database or disk is full").
    case notSaved(String)
}

/// What an import did: the films added (one change, which `z` takes back whole), those saved
/// already, and the file's films the catalogue does not have ("Title (1999)").
public struct WishlistImportReport: Equatable, Sendable {
    public var added: Int
    public var already: Int
    public var unmatched: [String]

    public init(added: Int = 0, already: Int = 0, unmatched: [String] = []) {
        self.added = added
        self.already = already
        self.unmatched = unmatched
    }
}

/// Adds the films a file names to the wishlist, all in one change or none (the command line's
/// `nimbus wishlist import` and the Wishlist tab's `i` both run the same one).
public protocol WishlistImporting {
    /// Imports the file at `path` (`~` is the user's home); throws `WishlistImportError`.
    func importFilms(from path: String) throws -> WishlistImportReport
}

/// The Wishlist tab's import: a path typed by the user, trimmed; an empty one imports nothing.
public struct WishlistImportUseCase {
    private let importer: WishlistImporting

    public init(importer: WishlistImporting) { self.importer = importer }

    /// Throws `WishlistImportError`.
    public func execute(path: String) throws -> WishlistImportReport {
        try importer.importFilms(from: path.trimmingCharacters(in: .whitespaces))
    }
}
