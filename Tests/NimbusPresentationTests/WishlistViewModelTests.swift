import XCTest
import CombineSchedulers
import OpenCombineShim
import NimbusDomain
@testable import NimbusPresentation
import TestSupport

final class WishlistViewModelTests: XCTestCase {
    private var scheduler: TestSchedulerOf<DispatchQueue>!
    private var wishlist: InMemoryWishlist!
    private let events = PassthroughSubject<WishlistViewModel.Event, Never>()
    private var viewModel: WishlistViewModel!

    override func setUp() {
        scheduler = DispatchQueue.test
        wishlist = InMemoryWishlist()
    }

    private func makeOutput() -> WishlistViewModel.Output {
        viewModel = WishlistViewModel(wishlist: WishlistUseCase(repository: wishlist), l10n: .bundled(.en),
                                      scheduler: scheduler.eraseToAnyScheduler(), timeZone: TimeZone(identifier: "UTC")!)
        return viewModel.transform(input: .init(events: events.eraseToAnyPublisher()))
    }

    private func describe(_ s: WishlistState) -> String {
        var text = s.rows.map(\.title).joined(separator: ",") + " [\(s.summary)]"
        if let e = s.emptyMessage { text += " empty(\(e))" }
        if let c = s.confirmation { text += " ask(\(c))" }
        if let m = s.message { text += " said(\(m))" }
        return text
    }

    func testNewestFirstOpenDeleteOneAndDeleteAllAfterConfirmation() throws {
        let output = makeOutput()
        let state = TestObserver(output.state)
        let route = TestObserver(output.route)
        for n in 1...3 { try wishlist.add(.film(n)) }
        events.send(.appeared)
        events.send(.rowOpened(0))
        events.send(.rowDeleted(1))
        events.send(.deleteAllRequested)
        events.send(.deleteAllAnswered(false))
        events.send(.deleteAllRequested)
        events.send(.deleteAllAnswered(true))
        scheduler.advance()
        // Each "delete all" asks through the coordinator; the answers come back as inputs.
        route.assertValues([.showDetail(.film(3)), .confirmDeleteAll(2), .confirmDeleteAll(2)])
        XCTAssertEqual(state.values.map(describe), [
            "Film 3,Film 2,Film 1 [Saved films: 3]",
            // The store's new contents (the app's status line says what was deleted).
            "Film 3,Film 1 [Saved films: 2]",
            "Film 3,Film 1 [Saved films: 2] ask(Delete all 2 saved films?)",
            "Film 3,Film 1 [Saved films: 2]",
            "Film 3,Film 1 [Saved films: 2] ask(Delete all 2 saved films?)",
            "Film 3,Film 1 [Saved films: 2]",
            " [Saved films: 0] empty(Your wishlist is empty: press w on a film to save it)",
        ])
        // A removal that is saved says nothing here: the status line is its one message.
        XCTAssertEqual(messages(state.values), [])
        XCTAssertEqual(try wishlist.entries(), [])
        XCTAssertEqual(state.values.first.map { $0.rows.first?.added }, "Nov 14, 2023")
    }

    func testAMovedAsideDatabaseIsAnnouncedOnce() {
        viewModel = WishlistViewModel(wishlist: WishlistUseCase(repository: wishlist), l10n: .bundled(.en),
                                      scheduler: scheduler.eraseToAnyScheduler(), dataStatus: .recovered(movedTo: "/d/nimbus.sqlite.corrupt-1"))
        let output = viewModel.transform(input: .init(events: events.eraseToAnyPublisher()))
        let state = TestObserver(output.state)
        events.send(.appeared)
        events.send(.appeared)
        XCTAssertEqual(state.values.last?.message, nil, "gone once the tab is shown again")
        XCTAssertEqual(messages(state.values), [
            "Your saved data could not be read; it was moved aside to nimbus.sqlite.corrupt-1 and a new file started."])
    }

    /// The messages the states held, each once, in order.
    private func messages(_ states: [WishlistState]) -> [String] {
        var shown: [String] = []
        var last: String?
        for s in states {
            if let m = s.message, m != last { shown.append(m) }
            last = s.message
        }
        return shown
    }

    func testAnAdditionElsewhereShowsUp() throws {
        let state = TestObserver(makeOutput().state)
        events.send(.appeared)
        try wishlist.add(.film(7))
        scheduler.advance()
        XCTAssertEqual(state.values.map(describe), [
            " [Saved films: 0] empty(Your wishlist is empty: press w on a film to save it)",
            "Film 7 [Saved films: 1]",
        ])
    }
}

final class SnapshotDiffTests: XCTestCase {
    func testAppendedPageKeepsIndicesAndRemovalsShift() {
        let appended = SnapshotDiff(old: [1, 2, 3], new: [1, 2, 3, 4, 5])
        XCTAssertEqual(appended.inserted, [3, 4])
        XCTAssertEqual(appended.removed, [])
        XCTAssertEqual(appended.index(of: 3), 2)
        let removed = SnapshotDiff(old: [1, 2, 3, 4], new: [1, 3, 4])
        XCTAssertEqual(removed.removed, [1])
        XCTAssertEqual(removed.index(of: 4), 2)
        XCTAssertNil(removed.index(of: 2))
    }
}
