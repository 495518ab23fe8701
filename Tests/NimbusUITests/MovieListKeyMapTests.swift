import XCTest
import NimbusDomain
import NimbusTerminal
@testable import NimbusPresentation
@testable import NimbusUI

/// The film search's keys as values: which are in force and what the status bar shows, per part.
final class MovieListKeyMapTests: XCTestCase {
    private let l10n = L10n.bundled(.en)

    private func state(_ phase: MovieListState.Phase, _ change: (inout MovieListState) -> Void = { _ in }) -> MovieListState {
        var state = MovieListState(query: "film", phase: phase, rows: [], summary: "", loadingMore: false, moreError: nil, recent: [])
        change(&state)
        return state
    }

    private func hints(_ state: MovieListState) -> [String] {
        let keys = MovieListControls.keyMap(l10n, for: state)
        return keys.listed(in: state).compactMap { binding in keys.hint(binding, in: state).map { (binding.hintKey ?? binding.keyLabel.said(in: .bundled(.en))) + " " + $0 } }
    }

    func testTheBarShowsOnlyWhatTheResultsAllow() {
        XCTAssertEqual(hints(state(.results)), ["/ " + l10n[.hintSearch], "Enter " + l10n[.hintOpen], "w " + l10n[.hintWishlist],
                                                "g " + l10n[.hintGenre], "p " + l10n[.hintYears], "s " + l10n[.hintSort]])
        XCTAssertEqual(hints(state(.loading)), ["/ " + l10n[.hintSearch]])
        XCTAssertEqual(hints(state(.error("offline"))), ["/ " + l10n[.hintSearch], "r " + l10n[.hintRetry]])
        let filtered = state(.empty("none")) { $0.filter = MovieFilter(years: 1990...1999); $0.filterSupport = MovieFilterSupport(genre: false, yearRange: false, sort: false) }
        XCTAssertEqual(hints(filtered), ["/ " + l10n[.hintSearch], "x " + l10n[.hintClearFilters], "p " + l10n[.hintYears]])
    }

    func testEnterAndWActOnTheSelectedRowOnlyWithResults() {
        let results = state(.results) { $0.selection = 4 }
        let keys = MovieListControls.keyMap(l10n, for: results)
        XCTAssertEqual(keys.event(for: .enter, in: results), .rowOpened(4))
        XCTAssertEqual(keys.event(for: "w", in: results), .wishlistToggled(4))
        let loading = state(.loading)
        XCTAssertNil(MovieListControls.keyMap(l10n, for: loading).command(for: .enter, in: loading))
        XCTAssertNil(MovieListControls.keyMap(l10n, for: loading).command(for: .char("x"), in: loading), "no filter to clear")
    }

    func testEachPartHasItsOwnKeys() {
        let field = state(.results) { $0.focus = .field }
        XCTAssertEqual(MovieListControls.keyMap(l10n, for: field).command(for: .escape, in: field), .editField)
        XCTAssertNil(MovieListControls.keyMap(l10n, for: field).command(for: .char("w"), in: field), "w is text")
        let suggestions = state(.idle("")) { $0.focus = .suggestions }
        XCTAssertEqual(MovieListControls.keyMap(l10n, for: suggestions).event(for: .escape, in: suggestions), .focusChanged(.list))
        XCTAssertEqual(MovieListControls.keyMap(l10n, for: suggestions).command(for: .enter, in: suggestions), .openSelection)
        let picker = state(.results) {
            $0.picker = MoviePicker(kind: .genre, title: "Genre", prompt: nil, typed: false,
                                    options: [MovieFilterOption(label: "any", filter: .none)], selection: 0)
        }
        let keys = MovieListControls.keyMap(l10n, for: picker)
        XCTAssertEqual(keys.event(for: .enter, in: picker), .filterChanged(.none))
        XCTAssertEqual(keys.event(for: "g", in: picker), .pickerClosed, "the key that opened it closes it")
        XCTAssertNil(keys.command(for: .backspace, in: picker), "Backspace is the years picker's only")
    }
}
