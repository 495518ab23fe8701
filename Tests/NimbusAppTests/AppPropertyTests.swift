import Foundation
import Testing
import PropertyBased
import AppExploration
import NimbusTerminal

/// Whole-app property tests: random sequences of user actions (every key the app knows, text in
/// Latin, Hangul and kana, pastes with control bytes, resizes from 1×1 to 300×100, tab switches,
/// restarts, and server answers: a forecast, an error, garbage, a slow answer, none) from seeded
/// user data, with the invariants of `Invariants` checked after every action. A failing sequence
/// shrinks (fewer actions, plainer ones) to a minimal reproduction, which becomes a named regression
/// test (the defects of the first round are in `UserDataRegressionTests` and `ScreenRegressionTests`).
///
/// `NIMBUS_PROPERTY_COUNT` raises the number of sequences (the default keeps `swift test` quick);
/// `nimbus-bench --soak` runs a million actions. A trap ends the test process without a report:
/// the sequence being run is written to `$TMPDIR/nimbus-property-sequence.txt` before it starts.
@Suite(.serialized)
@MainActor
struct AppPropertyTests {
    static var count: Int {
        ProcessInfo.processInfo.environment["NIMBUS_PROPERTY_COUNT"].flatMap(Int.init) ?? 60
    }

    static let sequence = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-property-sequence.txt")

    @Test(.shrinking)
    func everyActionKeepsTheScreenTrueToWhatIsSaved() async {
        await propertyCheck(count: Self.count, input: Gen.int(in: 0...719),
                            Gen.int(in: 0...(UserAction.codeCount - 1)).array(of: 1...60)) { setupCode, codes in
            let setup = Exploration.Setup(code: setupCode)
            let actions = codes.map(UserAction.init(code:))
            Self.explore(setup, actions)
        }
    }

    /// The same, on a disk that is full from the first action (seeded data, so the database exists):
    /// every like, film, removal or deletion refused says so where it was asked for, and what is
    /// shown stays what is saved (`Exploration.Effect`, the marks and rows of `Invariants`).
    @Test(.shrinking)
    func onAFullDiskEverySaveSaysSoAndWhatIsShownIsWhatIsSaved() async {
        await propertyCheck(count: max(30, Self.count / 2), input: Gen.int(in: 0...719),
                            Gen.int(in: 0...(UserAction.codeCount - 1)).array(of: 1...60)) { setupCode, codes in
            let setup = Exploration.Setup(code: setupCode)
            guard setup.likes > 0 || setup.films > 0 else { return }
            let actions = [UserAction.disk(full: true)] + codes.map(UserAction.init(code:)).filter {
                if case .disk = $0 { false } else { true }
            }
            Self.explore(setup, actions)
        }
    }

    /// Undo and redo over what people do to their data: likes on the Cities list, the Liked tab's
    /// deletes, wishlist marks and deletes (one and all), the Wishlist tab's import of `~/films.csv`
    /// (and of a file that is not there), between tab switches, moves, the odd
    /// restart (a new history) and a full disk, with `z` and `Z` pressed often. After every action
    /// `Exploration.UndoModel` checks that `z` put back exactly what the last change found and `Z`
    /// what the last undone one left, on disk and on every screen (`Invariants`).
    @Test(.shrinking)
    func undoAndRedoTakeBackExactlyWhatWasDone() async {
        let alphabet: [UserAction] = [
            .key(.char("f")), .key(.char("z")), .key(.char("Z")), .key(.down), .key(.char("1")), .key(.char("3")),
            .key(.char("d")), .key(.char("z")), .key(.char("5")), .key(.char("w")), .key(.char("6")), .key(.char("D")),
            .key(.char("y")), .key(.char("Z")), .key(.up), .key(.enter), .key(.escape), .key(.char("n")), .key(.char("2")),
            .key(.char("4")), .restart, .disk(full: true), .disk(full: false),
            .key(.char("i")), .type("~/films.csv"), .key(.enter), .key(.char("6")), .key(.char("i")), .type("~/gone.csv"),
        ]
        await propertyCheck(count: max(30, Self.count / 2), input: Gen.int(in: 0...719),
                            Gen.int(in: 0...(alphabet.count - 1)).array(of: 1...60)) { setupCode, codes in
            let setup = Exploration.Setup(code: setupCode)
            let actions = codes.map { alphabet[$0] }
            Self.explore(setup, actions)
        }
    }

    /// The import as one change among others, in each language, with and without films saved
    /// before: `z` takes back exactly its films, `Z` adds them again, and a like made between stays.
    @Test(arguments: [0, 4, 5, 72, 76, 101, 360])
    func anImportIsUndoneAndRedoneWhole(_ setupCode: Int) {
        let actions: [UserAction] = [
            .key(.char("f")), .key(.char("6")), .key(.char("i")), .type("~/films.csv"), .key(.enter), .key(.char("z")),
            .key(.char("Z")), .key(.char("1")), .key(.down), .key(.char("f")), .key(.char("z")), .key(.char("z")),
            .key(.char("Z")), .key(.char("6")), .key(.char("i")), .type("~/gone.csv"), .key(.enter), .key(.char("z")),
        ]
        Self.explore(Exploration.Setup(code: setupCode), actions)
    }

    /// Runs `actions` from `setup` and reports the first broken invariant; the sequence is written
    /// to `sequence` first (a trap ends the process without a report).
    static func explore(_ setup: Exploration.Setup, _ actions: [UserAction]) {
        try? ("\(setup)\n" + actions.map(\.description).joined(separator: "\n") + "\n")
            .write(to: sequence, atomically: true, encoding: .utf8)
        var counts = Exploration.Counts()
        do {
            let failure = try Exploration.run(setup, actions: actions, counts: &counts)
            #expect(failure == nil, "\(failure.map(String.init(describing:)) ?? "")")
        } catch {
            Issue.record("the app could not be started: \(error)")
        }
    }
}
