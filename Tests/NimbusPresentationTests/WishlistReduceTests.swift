import XCTest
import Testing
import PropertyBased
import NimbusDomain
@testable import NimbusPresentation
import TestSupport

/// `WishlistViewModel.reduce` as a table: the rows are the store's contents, the selection stays on
/// its film (or the row that takes a deleted film's place), one film or all of them are deleted (all
/// after a question), and what that did is said until the next key.
final class WishlistReduceTests: XCTestCase {
    typealias VM = WishlistViewModel

    static func entry(_ n: Int, _ title: String) -> WishlistEntry {
        WishlistEntry(movie: MovieSummary(id: MovieID(source: .catalogue, value: n), title: title, year: 1970 + n, genres: [],
                                          directors: []),
                      addedAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(n) * 60))
    }
    static let alien = entry(1, "Alien"), brazil = entry(2, "Brazil"), casablanca = entry(3, "Casablanca")
    static let three = [alien, brazil, casablanca]
    static let notSaved = UserDataStatus.notSaved(directory: "/data", reason: "read-only")

    private func state(_ entries: [WishlistEntry] = three, loaded: Bool = true, appearedBefore: Bool = true,
                       confirming: Bool = false, selected: WishlistEntry? = nil, message: VM.Message? = nil) -> VM.State {
        VM.State(entries: entries, loaded: loaded, appearedBefore: appearedBefore, confirming: confirming,
                 selected: selected?.id, message: message)
    }

    private func check(_ cases: [(String, VM.State, VM.Action, VM.State, [VM.Effect])],
                       file: StaticString = #filePath, line: UInt = #line) {
        for (name, before, action, after, effects) in cases {
            var s = before
            XCTAssertEqual(VM.reduce(&s, action), effects, name, file: file, line: line)
            XCTAssertEqual(s, after, name, file: file, line: line)
        }
    }

    func testTheFirstAppearanceFollowsTheStoreAndTellsTheNoticeOnce() {
        let fresh = VM.State()
        var noticed = VM.State()
        noticed.message = .notice(Self.notSaved)
        var noticedAfter = noticed
        noticedAfter.appearedBefore = true
        var again = noticedAfter
        again.message = nil
        check([
            ("the first appearance follows the store", fresh, .appeared, VM.State(appearedBefore: true), [.observe]),
            ("the notice is told on the first appearance", noticed, .appeared, noticedAfter, [.observe]),
            ("and goes on the next", noticedAfter, .appeared, again, []),
            ("appearing again asks nothing more", state(), .appeared, state(), []),
            ("a failure is not a notice", state(message: .failed(.storage)), .appeared,
             state(message: .failed(.storage)), []),
        ])
    }

    func testTheRowsAreTheStoresContentsAndTheSelectionStaysOnItsFilm() {
        let d = Self.entry(4, "Dune")
        check([
            ("the store's first answer", VM.State(appearedBefore: true), .contents([]), state([]), []),
            ("the store's first answer with films", VM.State(appearedBefore: true), .contents(Self.three), state(), []),
            ("a film added ahead keeps the selected film", state(selected: Self.brazil), .contents([d] + Self.three),
             state([d] + Self.three, selected: Self.brazil), []),
            ("the selected film deleted: the next row takes its place", state(selected: Self.brazil),
             .contents([Self.alien, Self.casablanca]), state([Self.alien, Self.casablanca], selected: Self.casablanca), []),
            ("the last row deleted: the row above", state(selected: Self.casablanca), .contents([Self.alien, Self.brazil]),
             state([Self.alien, Self.brazil], selected: Self.brazil), []),
            ("the first row deleted: the new first", state(selected: Self.alien), .contents([Self.brazil, Self.casablanca]),
             state([Self.brazil, Self.casablanca], selected: Self.brazil), []),
            ("the only film deleted: no selection", state([Self.alien], selected: Self.alien), .contents([]), state([]), []),
            ("another film deleted: the selection stays", state(selected: Self.casablanca), .contents([Self.brazil, Self.casablanca]),
             state([Self.brazil, Self.casablanca], selected: Self.casablanca), []),
            ("nothing selected stays so", state(), .contents([Self.casablanca]), state([Self.casablanca]), []),
            ("emptied while asking: the question goes", state(confirming: true), .contents([]), state([]), []),
            ("changed while asking: the question stays", state(confirming: true), .contents([Self.alien]),
             state([Self.alien], confirming: true), []),
            ("the contents leave the message", state(message: .failed(.storage)), .contents([]),
             state([], message: .failed(.storage)), []),
        ])
    }

    func testSelectingAndOpening() {
        check([
            ("selecting a row", state(), .selected(1), state(selected: Self.brazil), []),
            ("the first row", state(selected: Self.casablanca), .selected(0), state(selected: Self.alien), []),
            ("the last row", state(), .selected(2), state(selected: Self.casablanca), []),
            ("past the end: the selection stays", state(selected: Self.brazil), .selected(3), state(selected: Self.brazil), []),
            ("before the start: the selection stays", state(selected: Self.brazil), .selected(-1), state(selected: Self.brazil), []),
            ("no rows", state([]), .selected(0), state([]), []),
            ("opening a row selects it", state(), .opened(2), state(selected: Self.casablanca), [.open(Self.casablanca.movie)]),
            ("opening past the end", state(), .opened(3), state(), []),
            ("opening with no rows", state([]), .opened(0), state([]), []),
            ("opening while asking", state(confirming: true), .opened(0), state(confirming: true), []),
        ])
    }

    func testDeletingOneAndAskingBeforeDeletingAll() {
        check([
            // The row goes when the store publishes what it saved, not here.
            ("deleting a row", state(selected: Self.brazil), .deleteRow(1), state(selected: Self.brazil), [.remove(Self.brazil)]),
            ("the last row", state(), .deleteRow(2), state(), [.remove(Self.casablanca)]),
            ("past the end", state(), .deleteRow(3), state(), []),
            ("before the start", state(), .deleteRow(-1), state(), []),
            ("no rows", state([]), .deleteRow(0), state([]), []),
            ("not while asking", state(confirming: true), .deleteRow(0), state(confirming: true), []),
            ("delete all asks with the count", state(), .deleteAllRequested, state(confirming: true), [.ask(count: 3)]),
            ("nothing to delete: no question", state([]), .deleteAllRequested, state([]), []),
            ("asked already: not twice", state(confirming: true), .deleteAllRequested, state(confirming: true), []),
            ("yes deletes all", state(confirming: true), .answered(true), state(), [.removeAll]),
            ("no keeps them", state(confirming: true), .answered(false), state(), []),
            ("an answer to no question", state(), .answered(true), state(), []),
            ("a second answer", state(), .answered(false), state(), []),
        ])
    }

    /// A deletion that failed is said until the next key (selecting, opening, deleting, asking); the
    /// store's contents, a reappearance and the answer leave it. One that is saved is said by the app.
    func testTheMessageLastsUntilTheNextKey() {
        check([
            ("a failure", state(), .done(.failed(.storage)), state(message: .failed(.storage)), []),
            ("a new message replaces the old", state(message: .notice(Self.notSaved)), .done(.failed(.storage)),
             state(message: .failed(.storage)), []),
        ])
        let told = state(message: .failed(.storage))
        for key: VM.Action in [.selected(0), .selected(9), .opened(0), .opened(9), .deleteRow(0), .deleteRow(9), .deleteAllRequested] {
            var s = told
            _ = VM.reduce(&s, key)
            XCTAssertNil(s.message, "\(key)")
        }
        for other: VM.Action in [.contents(Self.three), .contents([]), .appeared, .answered(true)] {
            var s = told
            _ = VM.reduce(&s, other)
            XCTAssertEqual(s.message, .failed(.storage), "\(other) is not a key")
        }
    }

    /// `i` opens the path field, Esc closes it, Enter imports the trimmed path (an empty one does
    /// nothing); films added are said by the app (one change), what was left out under the list, and
    /// an import that saved nothing is told for the status line.
    func testImportingAFile() {
        var open = state(message: .failed(.storage))
        open.importing = true
        open.message = nil
        let asking = state(confirming: true)
        let report = WishlistImportReport(added: 2, already: 1, unmatched: ["Nope (1999)"])
        let none = WishlistImportReport(added: 0, already: 3)
        check([
            ("i opens the field, clearing a message", state(message: .failed(.storage)), .importRequested, open, []),
            ("not while asking", asking, .importRequested, asking, []),
            ("Esc closes it", open, .importCancelled, state(), []),
            ("Enter imports the path, trimmed", open, .importSubmitted("  ~/films.csv "), state(), [.importFile("~/films.csv")]),
            ("an empty path: nothing", open, .importSubmitted("   "), open, []),
            ("no field: nothing", state(), .importSubmitted("~/films.csv"), state(), []),
            ("delete all waits for the field", open, .deleteAllRequested, open, []),
            ("added, some left out", state(), .imported(report), state(message: .imported(report)), []),
            ("added, all of them", state(), .imported(WishlistImportReport(added: 4)), state(), []),
            ("nothing new: told", state(), .imported(none), state(), [.tell(.nothingNew(none), in: .bundled(.en))]),
            ("a failure: told", state(), .importFailed(path: "x.csv", .file(.badFormat(.csvNoTitle))), state(),
             [.tell(.failed(path: "x.csv", .file(.badFormat(.csvNoTitle))), in: .bundled(.en))]),
        ])
    }
}

/// Any sequence of the store's contents and keys: the selection is always a film shown (or none),
/// the question is only asked while there are films, never while the import's field is open, and
/// every effect is about a film shown, or a file the field named.
@Suite struct WishlistReducePropertyTests {
    static let pool = (1...5).map { WishlistReduceTests.entry($0, "Film \($0)") }

    static func action(_ seed: Int) -> WishlistViewModel.Action {
        let n = UInt(bitPattern: seed)
        let index = Int((n / 16) % 6) - 1
        switch n % 15 {
        case 0: return .appeared
        case 1, 2:
            // Some of the films, in an order of their own.
            let picked = pool.enumerated().filter { i, _ in (n / 64) >> UInt(i) & 1 == 1 }.map(\.element)
            return .contents(n / 4096 % 2 == 0 ? picked : picked.reversed())
        case 3: return .selected(index)
        case 4: return .opened(index)
        case 5: return .deleteRow(index)
        case 6: return .deleteAllRequested
        case 7: return .answered(n / 16 % 2 == 0)
        case 8: return .done(.failed(.storage))
        case 10: return .importRequested
        case 11: return .importCancelled
        case 12: return .importSubmitted(n / 16 % 3 == 0 ? "  " : "~/films.csv")
        case 13: return .imported(WishlistImportReport(added: Int(n / 16 % 3), already: Int(n / 64 % 2), unmatched: []))
        case 14: return .importFailed(path: "~/films.csv", .file(.notText))
        default: return .done(.failed(.duplicate(title: "Film")))
        }
    }

    @Test func theSelectionIsAlwaysAFilmShownAndEffectsAreAboutThem() async {
        await propertyCheck(count: PropertyCount.scaled(default: 100), input: Gen.int().array(of: 1...60)) { seeds in
            var state = WishlistViewModel.State()
            for seed in seeds {
                let action = Self.action(seed)
                let before = state
                let effects = WishlistViewModel.reduce(&state, action)
                if let selected = state.selected { #expect(state.entries.contains { $0.id == selected }, "\(before) \(action)") }
                if state.confirming { #expect(!state.entries.isEmpty && !state.importing, "\(before) \(action)") }
                for effect in effects {
                    switch effect {
                    case .observe: #expect(!before.appearedBefore)
                    case .remove(let entry): #expect(before.entries.contains(entry) && !before.confirming)
                    case .open(let movie): #expect(before.entries.contains { $0.movie == movie } && !before.confirming)
                    case .ask(let count): #expect(count == before.entries.count && count > 0 && state.confirming)
                    case .removeAll: #expect(before.confirming && !state.confirming)
                    case .importFile(let path):
                        #expect(before.importing && !state.importing && path == "~/films.csv", "\(before) \(action)")
                    case .tell(let refusal, _):
                        switch (refusal, action) {
                        case (.failed(let told, let error), .importFailed(let path, let failure)):
                            #expect(told == path && error == failure)
                        case (.nothingNew(let told), .imported(let report)): #expect(told == report && report.added == 0)
                        default: Issue.record("\(refusal) told after \(action)")
                        }
                    }
                }
            }
        }
    }
}
