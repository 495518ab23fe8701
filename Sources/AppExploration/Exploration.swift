import Foundation
import NimbusApp
import NimbusData
import NimbusDomain
import NimbusTerminal
import OpenCombineShim

/// Runs a sequence of user actions against the whole app, from seeded user data, checking the
/// invariants after every action; the property tests and the soak both use it.
@MainActor
public enum Exploration {
    /// Where a run starts: the language, what is already saved, and whether films come from TMDB.
    public struct Setup: Equatable, CustomStringConvertible, Sendable {
        public let language: String
        public let likes: Int
        public let films: Int
        public let tmdb: Bool

        /// Mostly English (whose screens the content checks read), with Korean and Japanese too.
        public init(code: Int) {
            let code = abs(code)
            language = ["en", "en", "en", "en", "ko", "ja"][code % 6]
            likes = [0, 1, 3, 12][(code / 6) % 4]
            films = [0, 1, 2, 6, 25][(code / 24) % 5]
            tmdb = (code / 120) % 4 == 3
        }

        public var description: String {
            "\(language), \(likes) liked cities, \(films) saved films\(tmdb ? ", TMDB" : "")"
        }
    }

    /// An invariant that broke, and what led to it.
    public struct Failure: Error, CustomStringConvertible {
        public let setup: Setup
        public let actions: [UserAction]
        public let problems: [String]
        public let screen: String

        public var description: String {
            "after \(actions.count) actions from (\(setup)):\n"
                + actions.enumerated().map { "  \($0.offset + 1). \($0.element)" }.joined(separator: "\n")
                + "\n" + problems.map { "  ✗ \($0)" }.joined(separator: "\n") + "\nscreen:\n" + screen
        }
    }

    /// How much a run did.
    public struct Counts: Sendable {
        public var actions = 0
        public var checks = 0
        public init() {}
    }

    /// Well-known cities for seeded likes (GeoNames ids).
    static let seededCities = [1835848, 1838524, 1850147, 2988507, 5128581, 3448439, 2643743, 1275339, 2147714,
                               292223, 360630, 3435910]

    /// Runs `actions` from `setup`; returns the first broken invariant, or nil.
    public static func run(_ setup: Setup, actions: [UserAction], counts: inout Counts) throws -> Failure? {
        let (environment, home) = AppHarness.sandbox(sandboxEnvironment(setup))
        defer { try? FileManager.default.removeItem(at: home) }
        try seed(setup, environment: environment)
        try writeImportFile(in: home)
        let clock = DispatchQueue.test
        let network = ScriptedNetwork(clock: clock)
        let harness = try AppHarness(environment: environment, scheduler: clock, httpClient: network)
        let english = setup.language == "en"
        var done: [UserAction] = []
        // Whether the database refuses every change (a full disk), as the last `disk` action left it.
        var diskFull = false
        let undo = UndoModel()
        func failure(_ problems: [String]) -> Failure {
            Failure(setup: setup, actions: done, problems: problems, screen: harness.terminal.screenText())
        }
        for action in actions {
            done.append(action)
            // What the running app says is saved, before a restart: the new run must find exactly that.
            var acknowledged: (likes: [Int], films: [String])?
            if action == .restart { acknowledged = (harness.acknowledgedLikes, harness.acknowledgedFilms) }
            let effect = Effect(before: harness, action: action, diskFull: diskFull, english: english)
            let saved = (likes: try harness.savedLikes(), films: try harness.savedWishlist())
            let undoKey = UndoModel.key(of: action, in: harness)
            undo.begin(harness, saved: saved)
            let restartsBefore = harness.restarts
            if case .disk(let full) = action {
                if try harness.setDiskFull(full) { diskFull = full }
            } else {
                try action.perform(on: harness, network: network)
            }
            if harness.quit {
                acknowledged = (harness.acknowledgedLikes, harness.acknowledgedFilms)
                try harness.restart()
            }
            counts.actions += 1
            var problems = Invariants.check(harness, english: english)
            counts.checks += Invariants.lastCount
            if let acknowledged {
                if try harness.savedLikes() != acknowledged.likes {
                    problems.append("after a restart the likes on disk are \(try harness.savedLikes()), not the \(acknowledged.likes) the app showed")
                }
                if try harness.savedWishlist() != acknowledged.films {
                    problems.append("after a restart the films on disk are \(try harness.savedWishlist()), not the \(acknowledged.films) the app showed")
                }
            }
            if let effect { problems += try effect.check(after: harness) }
            problems += try undo.check(action, key: undoKey, before: saved, after: harness, diskFull: diskFull,
                                       restarted: action == .restart || harness.restarts > restartsBefore)
            if !problems.isEmpty { return failure(problems) }
        }
        return nil
    }

    private static func sandboxEnvironment(_ setup: Setup) -> [String: String] {
        var env = ["NIMBUS_LANG": setup.language, "NIMBUS_UNITS": "metric", "TZ": "Asia/Seoul"]
        if setup.tmdb {
            env["TMDB_API_KEY"] = "exploration-key"
            env["NIMBUS_TMDB_URL"] = "http://127.0.0.1:9"
        }
        return env
    }

    /// Writes the setup's likes and films through the app's own stores, as an earlier session would have.
    private static func seed(_ setup: Setup, environment: [String: String]) throws {
        guard setup.likes > 0 || setup.films > 0 else { return }
        let database = try UserDatabase(directory: UserDatabase.defaultDirectory(environment: environment),
                                        migrations: [WishlistStore.migration] + MovieHistoryStore.migrations
                                                    + [LikesStore.migration])
        let likes = LikesStore(database: database)
        for id in seededCities.prefix(setup.likes).reversed() { try likes.setLiked(id, true) }
        let wishlist = WishlistStore(database: database)
        for film in try films(setup.films) { try? wishlist.add(film) }
    }

    /// `~/films.csv`, for the Wishlist tab's import (`i`, then `~/films.csv`): the first eight films
    /// seeding takes from (some saved already, some not) and one the catalogue does not have.
    private static func writeImportFile(in home: URL) throws {
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let rows = try films(8).map { film in
            "\"\(film.title.replacingOccurrences(of: "\"", with: "\"\""))\",\(film.year.map(String.init) ?? "")"
        }
        try Data((["Title,Year"] + rows + ["No Such Film Anywhere,1999"]).joined(separator: "\n").utf8)
            .write(to: home.appendingPathComponent("films.csv"))
    }

    /// The first `count` films the bundled catalogue finds for "the".
    private static func films(_ count: Int) throws -> [MovieSummary] {
        guard count > 0 else { return [] }
        return Array(try catalogueFilms.get().prefix(count))
    }

    /// The catalogue's films for "the", looked up once: every run seeds from them.
    private static let catalogueFilms = Result { () throws -> [MovieSummary] in
        let catalogue = try MovieCatalogue.bundled()
        var found: [MovieSummary] = []
        for page in 1...2 {
            _ = catalogue.search(query: "the", page: page).sink(receiveCompletion: { _ in },
                                                                 receiveValue: { found += $0.movies })
        }
        return found
    }

    /// What a key that changes saved data must have done, judged from the row it was pressed on
    /// (the model half of the model-based test: screens agreeing with the database is not enough if
    /// `d` deleted the wrong film and both show it).
    @MainActor
    struct Effect {
        enum Kind { case deleteFilm, deleteLike, toggleLike, toggleFilm }
        let kind: Kind
        let selected: String
        let films: [String]
        let likes: [Int]
        let cols: Int
        /// The disk is full: nothing may change, and the screen must say the save failed.
        let diskFull: Bool
        let english: Bool

        init?(before harness: AppHarness, action: UserAction, diskFull: Bool = false, english: Bool = true) {
            // A key typed into a field (or answering a question) is not the command it would be in the list.
            guard case .key(let key) = action, !harness.app.place.overlay, !harness.app.place.capturesText,
                  harness.size.cols >= 40, harness.size.rows >= 10 else { return nil }
            let place = harness.app.place
            let lines = harness.frame.lines()
            guard let selected = lines.dropFirst().dropLast().first(where: { $0.hasPrefix("›") }) else { return nil }
            switch (key, place.tab, place.depth) {
            case (.char("d"), 5, 1) where !lines.contains(where: { Invariants.has($0, "Delete every film") }): kind = .deleteFilm
            case (.char("d"), 2, 1), (.delete, 2, 1): kind = .deleteLike
            case (.char("f"), 0, 1): kind = .toggleLike
            case (.char("w"), 4, 1): kind = .toggleFilm
            default: return nil
            }
            guard let films = try? harness.savedWishlist(), let likes = try? harness.savedLikes() else { return nil }
            self.selected = selected
            self.films = films
            self.likes = likes
            self.cols = harness.size.cols
            self.diskFull = diskFull
            self.english = english
        }

        func check(after harness: AppHarness) throws -> [String] {
            let films = try harness.savedWishlist(), likes = try harness.savedLikes()
            if diskFull {
                var problems: [String] = []
                if films != self.films || likes != self.likes {
                    problems.append("on a full disk, \(kind) on \(selected.trimmingCharacters(in: .whitespaces)) changed what is saved")
                }
                let screen = harness.frame.lines()
                if english, !screen.contains(where: { Invariants.has($0, "could not be saved") || Invariants.has($0, "Could not save") }) {
                    problems.append("on a full disk, \(kind) on \(selected.trimmingCharacters(in: .whitespaces)) failed without a word")
                }
                return problems
            }
            switch kind {
            case .deleteFilm:
                guard films.count == self.films.count - 1 else {
                    return ["d on \(selected.trimmingCharacters(in: .whitespaces)) left \(films.count) of \(self.films.count) films"]
                }
                let removed = self.films.indices.first { i in i >= films.count || films[i] != self.films[i] }.map { self.films[$0] }
                guard let removed, Invariants.shows(selected, removed, width: Invariants.wishlistTitleWidth(cols: cols)) else {
                    return ["d on \(selected.trimmingCharacters(in: .whitespaces)) deleted \(removed ?? "nothing") instead"]
                }
                return []
            case .deleteLike:
                return likes.count == self.likes.count - 1 && Set(self.likes).isSuperset(of: likes)
                    ? [] : ["d on a liked city changed the likes from \(self.likes) to \(likes)"]
            case .toggleLike:
                return Set(likes).symmetricDifference(self.likes).count == 1
                    ? [] : ["f on one city changed the likes from \(self.likes) to \(likes)"]
            case .toggleFilm:
                // Refused as a duplicate (the same title and year from the other source) changes nothing.
                return Set(films).symmetricDifference(self.films).count <= 1 && abs(films.count - self.films.count) <= 1
                    ? [] : ["w on one film changed the wishlist from \(self.films) to \(films)"]
            }
        }
    }

    /// The model of undo and redo (lazygit's `z` and `Z`): each change of what is saved (likes and
    /// films, in their order) is pushed as the app records it (read from the database at that
    /// moment, so an action that makes several changes pushes each); `z` must put back exactly what
    /// the last one found, `Z` what the last undone one left; a restart starts a new history. A `z`
    /// typed or pasted as text outside a field is not modelled: the history is forgotten there.
    @MainActor
    final class UndoModel {
        typealias Saved = (likes: [Int], films: [String])
        private var done: [(before: Saved, after: Saved)] = []
        private var undone: [(before: Saved, after: Saved)] = []
        private var lastKnown: Saved = ([], [])
        private var subscription: AnyCancellable?
        private var watched: ObjectIdentifier?
        /// A `z` went in as text outside a field: the app's history is no longer the model's, until a restart.
        private var lost = false

        enum Key { case undo, redo }

        /// `z` or `Z` pressed where they are the app's command (not typed into a field, not under an
        /// overlay or a question).
        static func key(of action: UserAction, in harness: AppHarness) -> Key? {
            let place = harness.app.place
            // At any size: a terminal too small to draw the app still takes its keys.
            guard case .key(.char(let c)) = action, c == "z" || c == "Z", !place.overlay, !place.capturesText, !place.asking
            else { return nil }
            return c == "z" ? .undo : .redo
        }

        /// Before an action: what is saved now, and the app's change log followed.
        func begin(_ harness: AppHarness, saved: Saved) {
            lastKnown = saved
            let container = ObjectIdentifier(harness.container)
            guard watched != container else { return }
            watched = container
            subscription = harness.container.userDatabase.changeLog.recorded.sink { [unowned self, unowned harness] _ in
                guard let now = try? (likes: harness.savedLikes(), films: harness.savedWishlist()) else { return }
                done.append((lastKnown, now))
                lastKnown = now
                undone.removeAll()
            }
        }

        func check(_ action: UserAction, key: Key?, before: Saved, after harness: AppHarness, diskFull: Bool,
                   restarted: Bool) throws -> [String] {
            let now = (likes: try harness.savedLikes(), films: try harness.savedWishlist())
            func same(_ a: Saved, _ b: Saved) -> Bool { a.likes == b.likes && a.films == b.films }
            if restarted || action.typesUndo {
                done.removeAll()
                undone.removeAll()
                lost = !restarted
                return []
            }
            if lost, key != nil { return [] }
            switch key {
            case .undo:
                guard let last = done.last, !diskFull else {
                    return same(now, before) ? [] : ["z with nothing to undo (or a full disk) changed \(before) to \(now)"]
                }
                guard same(now, last.before) else { return ["z after \(last) left \(now), not \(last.before)"] }
                undone.append(done.removeLast())
            case .redo:
                guard let last = undone.last, !diskFull else {
                    return same(now, before) ? [] : ["Z with nothing to redo (or a full disk) changed \(before) to \(now)"]
                }
                guard same(now, last.after) else { return ["Z after \(last) left \(now), not \(last.after)"] }
                done.append(undone.removeLast())
            case nil:
                if !same(now, lastKnown) { return ["\(action) changed what is saved from \(lastKnown) to \(now) with no change recorded"] }
            }
            return []
        }
    }
}

extension UserAction {
    /// Text that may undo or redo when it is not typed into a field.
    var typesUndo: Bool {
        switch self {
        case .type(let text): text.contains("z") || text.contains("Z")
        case .paste(let bytes): bytes.contains(UInt8(ascii: "z")) || bytes.contains(UInt8(ascii: "Z"))
        default: false
        }
    }
}
