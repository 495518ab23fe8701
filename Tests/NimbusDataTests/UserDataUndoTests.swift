import Foundation
import NimbusDomain
import PropertyBased
import Testing
import TestSupport
@testable import NimbusData

/// Undo and redo of the user's own data (likes, the wishlist, the recent searches and the recently
/// viewed films), at the database: over random
/// sequences of changes, undos and redos, each undo puts the stores back as they were before the
/// change it takes back, each redo as they were after, and a change made by another connection
/// since (another process) makes the undo say so and do nothing.
@Suite struct UserDataUndoTests {
    let directories = TemporaryDirectories()

    /// What the user can see of their data: the liked ids, the wishlist, the recent searches and the
    /// recently viewed films, in their order.
    struct Seen: Equatable {
        let liked: [Int]
        let wishlist: [String]
        var queries: [String] = []
        var viewed: [String] = []
    }

    static let migrations = [LikesStore.migration, WishlistStore.migration] + MovieHistoryStore.migrations

    final class Stores {
        let database: UserDatabase
        let likes: LikesStore
        let wishlist: WishlistStore
        let history: MovieHistoryStore
        init(_ database: UserDatabase) {
            self.database = database
            likes = LikesStore(database: database)
            wishlist = WishlistStore(database: database)
            history = MovieHistoryStore(database: database)
        }

        var seen: Seen {
            Seen(liked: (try? likes.likedCityIDs()) ?? [], wishlist: ((try? wishlist.entries()) ?? []).map(\.movie.title),
                 queries: history.recentQueries(limit: 100), viewed: history.recentlyViewed(limit: 100).map(\.title))
        }
    }

    static func film(_ n: Int) -> MovieSummary {
        MovieSummary(id: MovieID(source: .catalogue, value: n), title: "Film \(n)", year: 2000 + n, genres: [], directors: [])
    }

    enum Step: Equatable {
        case like(Int), unlike(Int), add(Int), remove(Int), clear, importing([Int]), forgetQuery(Int), forgetViewed(Int), undo, redo
    }

    static func step(_ n: Int) -> Step {
        let city = n % 5, film = n % 6
        switch n % 12 {
        case 0, 1: return .like(city)
        case 2: return .unlike(city)
        case 3: return .add(film)
        case 4: return .remove(film)
        case 5: return n < 60 ? .clear : .importing([film, (film + 1) % 6, (film + 3) % 6])
        case 6: return .forgetQuery(film)
        case 7: return .forgetViewed(film)
        case 8, 9: return .undo
        default: return .redo
        }
    }

    /// Searches and films opened before the steps (not changes to undo), for the steps to forget.
    static func seedHistory(_ history: MovieHistoryStore) {
        for n in 0..<6 {
            try! history.saveQuery("query \(n)")
            try! history.recordViewed(film(n))
        }
    }

    @Test func undoingReturnsToBeforeAndRedoingToAfterOverRandomSequences() async throws {
        await propertyCheck(count: PropertyCount.scaled(default: 60), input: Gen.int(in: 0...119).array(of: 1...40)) { numbers in
            let steps = numbers.map(Self.step)
            let stores = Stores(try! UserDatabase(inMemory: Self.migrations))
            Self.seedHistory(stores.history)
            // The model: what each change found and left, as the user sees it.
            var done: [(before: Seen, after: Seen)] = []
            var undone: [(before: Seen, after: Seen)] = []
            for step in steps {
                let before = stores.seen
                switch step {
                case .undo, .redo:
                    let undoing = step == .undo
                    let outcome = undoing ? stores.database.changeLog.undo() : stores.database.changeLog.redo()
                    if let last = undoing ? done.popLast() : undone.popLast() {
                        #expect(undoing ? outcome.isUndone : outcome.isRedone, "\(steps)")
                        #expect(stores.seen == (undoing ? last.before : last.after), "\(step) of \(steps)")
                        if undoing { undone.append(last) } else { done.append(last) }
                    } else {
                        #expect(outcome == (undoing ? .nothingToUndo : .nothingToRedo))
                        #expect(stores.seen == before)
                    }
                    continue
                case .like(let id): try? stores.likes.setLiked(id, true)
                case .unlike(let id): try? stores.likes.setLiked(id, false)
                case .add(let n): try? stores.wishlist.add(Self.film(n))
                case .remove(let n): try? stores.wishlist.remove(Self.film(n).id)
                case .clear: try? stores.wishlist.removeAll()
                case .importing(let ns): _ = try? stores.wishlist.add(ns.map(Self.film))
                case .forgetQuery(let n): try? stores.history.forgetQuery("query \(n)")
                case .forgetViewed(let n): try? stores.history.forgetViewed(Self.film(n).id)
                }
                let after = stores.seen
                // A change that changed nothing (liking a liked city) is not one to undo.
                if after != before {
                    done.append((before, after))
                    undone.removeAll()
                }
            }
            // Undoing everything returns to the empty start; redoing everything to the end.
            let end = stores.seen
            let first = done.first?.before ?? undone.last?.before ?? end
            let last = undone.first?.after ?? done.last?.after ?? end
            while stores.database.changeLog.undo().isUndone {}
            #expect(stores.seen == first, "\(steps)")
            while stores.database.changeLog.redo().isRedone {}
            #expect(stores.seen == last, "\(steps)")
        }
    }

    @Test func anUndoOfARowAnotherProcessChangedSinceSaysSoAndDoesNothing() throws {
        let directory = try directories.make("nimbus-undo")
        let mine = Stores(try UserDatabase(directory: directory, migrations: Self.migrations))
        let theirs = Stores(try UserDatabase(directory: directory, migrations: Self.migrations))
        try mine.likes.setLiked(1, true)
        try mine.likes.setLiked(3, true)
        // Another process unlikes 3 and likes it again (a new time): the row is no longer the one liked here.
        try theirs.likes.setLiked(3, false)
        try theirs.likes.setLiked(3, true)
        let seen = mine.seen
        #expect(mine.database.changeLog.undo() == .changedElsewhere(.liked(cityID: 3)))
        #expect(mine.seen == seen)
        // That change left the history: the next undo is the one before it, whose row nobody touched.
        #expect(mine.database.changeLog.undo() == .undone(.liked(cityID: 1)))
        #expect(mine.seen.liked == [3])
    }

    @Test func anUndoOfARowNobodyElseTouchedWorksWhateverElseChanged() throws {
        let directory = try directories.make("nimbus-undo")
        let mine = Stores(try UserDatabase(directory: directory, migrations: Self.migrations))
        let theirs = Stores(try UserDatabase(directory: directory, migrations: Self.migrations))
        try mine.likes.setLiked(1, true)
        try theirs.likes.setLiked(2, true)
        try theirs.wishlist.add(Self.film(4))
        #expect(mine.database.changeLog.undo() == .undone(.liked(cityID: 1)))
        #expect(mine.seen == Seen(liked: [2], wishlist: ["Film 4"]))
    }

    @Test func aRedoOfARowAnotherProcessChangedSinceSaysSoAndDoesNothing() throws {
        let directory = try directories.make("nimbus-undo")
        let mine = Stores(try UserDatabase(directory: directory, migrations: Self.migrations))
        let theirs = Stores(try UserDatabase(directory: directory, migrations: Self.migrations))
        try mine.wishlist.add(Self.film(1))
        #expect(mine.database.changeLog.undo() == .undone(.wishlistAdded(title: "Film 1")))
        try theirs.wishlist.add(Self.film(1))
        let seen = mine.seen
        #expect(mine.database.changeLog.redo() == .changedElsewhere(.wishlistAdded(title: "Film 1")))
        #expect(mine.seen == seen)
        #expect(mine.database.changeLog.redo() == .nothingToRedo)
    }

    @Test func everyWatchedStorePublishesWhatAnUndoPutBack() throws {
        let stores = Stores(try UserDatabase(inMemory: Self.migrations))
        var published: [[Int]] = []
        let subscription = stores.likes.contents.sink { published.append($0) }
        defer { subscription.cancel() }
        try stores.likes.setLiked(5, true)
        #expect(stores.database.changeLog.undo() == .undone(.liked(cityID: 5)))
        #expect(published == [[], [5], []])
        #expect(stores.database.changeLog.redo() == .redone(.liked(cityID: 5)))
        #expect(published.last == [5])
    }

    @Test func aForgottenSearchAndFilmComeBackWhereTheyWereAndGoAgain() throws {
        let stores = Stores(try UserDatabase(inMemory: Self.migrations))
        Self.seedHistory(stores.history)
        let seeded = stores.seen
        try stores.history.forgetQuery("query 3")
        try stores.history.forgetViewed(Self.film(2).id)
        #expect(stores.seen.queries == seeded.queries.filter { $0 != "query 3" })
        #expect(stores.seen.viewed == seeded.viewed.filter { $0 != "Film 2" })
        // The wishlist is not the history: nothing else changed.
        #expect(stores.seen.liked.isEmpty && stores.seen.wishlist.isEmpty)
        #expect(stores.database.changeLog.undo() == .undone(.viewedForgotten(title: "Film 2")))
        #expect(stores.database.changeLog.undo() == .undone(.searchForgotten(query: "query 3")))
        #expect(stores.seen == seeded)
        #expect(stores.database.changeLog.redo() == .redone(.searchForgotten(query: "query 3")))
        #expect(stores.database.changeLog.redo() == .redone(.viewedForgotten(title: "Film 2")))
        #expect(stores.seen.queries == seeded.queries.filter { $0 != "query 3" })
        // Forgetting what is not there records nothing.
        try stores.history.forgetQuery("query 3")
        #expect(stores.database.changeLog.redo() == .nothingToRedo)
        #expect(stores.database.changeLog.undo() == .undone(.viewedForgotten(title: "Film 2")))
    }

    @Test func anUndoOfAForgottenSearchAnotherProcessSearchedAgainSaysSoAndDoesNothing() throws {
        let directory = try directories.make("nimbus-undo")
        let mine = Stores(try UserDatabase(directory: directory, migrations: Self.migrations))
        let theirs = Stores(try UserDatabase(directory: directory, migrations: Self.migrations))
        try mine.history.saveQuery("heat")
        try mine.history.forgetQuery("heat")
        try theirs.history.saveQuery("Heat")
        let seen = mine.seen
        #expect(mine.database.changeLog.undo() == .changedElsewhere(.searchForgotten(query: "heat")))
        #expect(mine.seen == seen)
    }

    @Test func theHistoryKeepsItsOrderThroughTheMigrationThatGivesItsRowsIDs() throws {
        let directory = try directories.make("nimbus-undo")
        // A database of the first schema, with queries and films saved in an order that is not their keys'.
        do {
            let old = try UserDatabase(directory: directory, migrations: [MovieHistoryStore.migration])
            let history = MovieHistoryStore(database: old, now: { Date(timeIntervalSince1970: 1_000) })
            for query in ["zulu", "alpha", "mike"] { try history.saveQuery(query) }
            for n in [5, 1, 3] { try history.recordViewed(Self.film(n)) }
        }
        let stores = Stores(try UserDatabase(directory: directory, migrations: Self.migrations))
        #expect(stores.seen.queries == ["mike", "alpha", "zulu"])
        #expect(stores.seen.viewed == ["Film 3", "Film 1", "Film 5"])
        try stores.history.forgetQuery("alpha")
        #expect(stores.database.changeLog.undo() == .undone(.searchForgotten(query: "alpha")))
        #expect(stores.seen.queries == ["mike", "alpha", "zulu"])
    }

    /// The first schema's key was case-sensitive: a file written elsewhere may hold a search twice in
    /// two cases. The migration keeps the newer, as `saveQuery` would, and does not fail on the new key.
    @Test func theMigrationKeepsTheNewerOfTwoSpellingsOfASearch() throws {
        let directory = try directories.make("nimbus-undo")
        do {
            let old = try UserDatabase(directory: directory, migrations: [MovieHistoryStore.migration])
            try old.writer.write { db in
                try db.execute(sql: "INSERT INTO movie_query (query, searched_at) VALUES ('Heat', 1), ('heat', 3), ('Alien', 2)")
            }
        }
        let stores = Stores(try UserDatabase(directory: directory, migrations: Self.migrations))
        #expect(stores.seen.queries == ["heat", "Alien"])
    }

    /// Exactly `levels` changes are kept, whatever the count past it (one over, many over).
    @Test(arguments: [ChangeLog.levels - 1, ChangeLog.levels, ChangeLog.levels + 1, ChangeLog.levels + 2, ChangeLog.levels + 20])
    func theHistoryKeepsItsLevelsAndDropsTheOldest(changes: Int) throws {
        let stores = Stores(try UserDatabase(inMemory: Self.migrations))
        for id in 0..<changes { try stores.likes.setLiked(id, true) }
        var undone = 0
        while case let outcome = stores.database.changeLog.undo(), outcome.isUndone { undone += 1 }
        #expect(stores.database.changeLog.undo() == .nothingToUndo)
        let kept = min(changes, ChangeLog.levels)
        #expect(undone == kept)
        #expect(stores.seen.liked == Array((0..<(changes - kept)).reversed()))
    }
}

extension UndoOutcome {
    var isUndone: Bool { if case .undone = self { true } else { false } }
    var isRedone: Bool { if case .redone = self { true } else { false } }
}
