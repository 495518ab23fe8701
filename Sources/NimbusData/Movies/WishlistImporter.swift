import Foundation
import NimbusDomain

/// A wishlist file's films added to the wishlist: the file read with `WishlistTransfer`'s caps and
/// parsed, each film matched by title and year in the bundled catalogue (`CatalogueTitles`), and the
/// matches saved in one transaction, which the change log records as one change (`z` takes back
/// exactly the films it added). A file that can't be read or parsed saves nothing.
public struct WishlistImporter: WishlistImporting {
    private let store: WishlistStore
    private let catalogue: MovieCatalogue
    /// What `~` stands for (`HOME`); nil leaves `~` as it is.
    private let home: String?

    public init(store: WishlistStore, catalogue: MovieCatalogue, home: String?) {
        self.store = store
        self.catalogue = catalogue
        self.home = home
    }

    public func importFilms(from path: String) throws -> WishlistImportReport {
        let items: [WishlistTransfer.Item]
        do {
            items = try Self.items(path: Self.expandingHome(path, home: home))
        } catch let error as WishlistFileError {
            throw WishlistImportError.file(error)
        }
        return try add(items)
    }

    /// The films the file at `path` names, in its order: read with the size cap, parsed as JSON when
    /// its name ends in `.json`, else as the text's first character says. Throws `WishlistFileError`.
    public static func items(path: String) throws -> [WishlistTransfer.Item] {
        let data = try WishlistTransfer.read(path: path)
        return try WishlistTransfer.parse(data, format: URL(fileURLWithPath: path).pathExtension.lowercased() == "json" ? .json : nil)
    }

    /// `~` and `~/…` with the home folder in place of `~`; any other path as it is.
    public static func expandingHome(_ path: String, home: String?) -> String {
        guard let home, !home.isEmpty, path == "~" || path.hasPrefix("~/") else { return path }
        return home + path.dropFirst()
    }

    /// Matches `items` in the catalogue and saves the films found, in reverse (the file's first film
    /// is the newest, as export lists them), in one transaction; counted only once it is committed.
    /// Throws `WishlistImportError`.
    public func add(_ items: [WishlistTransfer.Item]) throws -> WishlistImportReport {
        // Every title looked up in one index of the catalogue (one query), the films read 500 at a time.
        let titles: CatalogueTitles
        do {
            titles = try CatalogueTitles(catalogue)
        } catch {
            throw WishlistImportError.catalogueUnreadable
        }
        var report = WishlistImportReport()
        var ids: [Int64] = []
        for item in items {
            if let id = titles.find(title: item.title, year: item.year) {
                ids.append(id)
            } else {
                report.unmatched.append(item.year.map { "\(item.title) (\($0))" } ?? item.title)
            }
        }
        guard let found = try? catalogue.films(ids) else { throw WishlistImportError.catalogueUnreadable }
        do {
            (report.added, report.already) = try store.add(Array(found.reversed()))
        } catch let error as WishlistStore.NotSaved {
            throw WishlistImportError.notSaved(error.reason)
        }
        return report
    }
}
