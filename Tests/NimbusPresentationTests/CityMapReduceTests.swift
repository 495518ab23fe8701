import XCTest
import NimbusDomain
@testable import NimbusPresentation

/// `CityMapViewModel.reduce` as a table: a state and an action give a state and effects, with no
/// scheduler, no cache and no drawing.
final class CityMapReduceTests: XCTestCase {
    typealias VM = CityMapViewModel
    private let size = MapSize(cols: 30, rows: 8)

    private func fresh(canShowQuakes: Bool = false) -> VM.State {
        VM.State(city: .seoul, zoom: .country, style: .braille, canShowQuakes: canShowQuakes)
    }

    private func apply(_ state: VM.State, _ actions: VM.Action...) -> (VM.State, [VM.Effect]) {
        var s = state
        var effects: [VM.Effect] = []
        for action in actions { effects = VM.reduce(&s, action) }
        return (s, effects)
    }

    private func request(zoom: MapZoom = .country, offset: MapOffset = .zero, style: MapStyle = .braille) -> MapRequest {
        MapRequest(city: .seoul, zoom: zoom, size: size, style: style, offset: offset)
    }

    private func snapshot(_ request: MapRequest) -> MapSnapshot {
        MapSnapshot(key: request.key, rows: [], marker: nil, kilometresPerColumn: 10)
    }

    /// A map of the first view on screen.
    private var shown: VM.State {
        apply(fresh(), .sized(size), .cached(request(), snapshot(request()))).0
    }

    func testNothingIsAskedBeforeTheFirstLayoutOrWithoutRoom() {
        let cases: [(String, VM.Action)] = [
            ("zoom", .zoomed(1)), ("pan", .panned(.left)), ("style", .styleChosen(.blocks)), ("no room", .sized(MapSize(cols: 0, rows: 5))),
        ]
        for (name, action) in cases {
            let (state, effects) = apply(fresh(), action)
            XCTAssertEqual(effects, [], name)
            XCTAssertNil(state.request, name)
        }
        let (laidOut, effects) = apply(fresh(), .zoomed(1), .sized(size))
        XCTAssertEqual(effects, [.show(request(zoom: MapZoom(5)), townsKnown: false, language: .en)], "the zoom asked before the layout is kept")
        XCTAssertTrue(laidOut.asking, "nothing is shown until the cache answers")
    }

    func testEveryViewChangeAsksForItsMapAndTheSameViewAsksNothing() {
        let cases: [(String, [VM.Action], MapRequest?)] = [
            ("zoom in: the pan doubles", [.panned(.right), .zoomed(1)], request(zoom: MapZoom(5), offset: MapOffset(x: 2, y: 0))),
            ("zoom out: it halves", [.panned(.right), .panned(.right), .zoomed(-1)], request(zoom: MapZoom(3), offset: MapOffset(x: 1, y: 0))),
            ("wheel in at a point", [.zoomedAt(MapZoomAt(delta: 1, x: 1, y: -1))], request(zoom: MapZoom(5), offset: MapOffset(x: 1, y: -1))),
            ("wheel out at a point", [.panned(.down), .zoomedAt(MapZoomAt(delta: -1, x: -1, y: 0))],
             request(zoom: MapZoom(3), offset: MapOffset(x: 0, y: 0))),
            ("pans", [.panned(.left), .panned(.up), .panned(.up)], request(offset: MapOffset(x: -1, y: -2))),
            ("reset: the first view again", [.zoomed(3), .panned(.left), .reset], request()),
            ("past the last zoom", [.zoomed(20), .zoomed(1)], nil),
            ("the wheel past the first zoom", [.zoomed(-10), .zoomedAt(MapZoomAt(delta: -1, x: 2, y: 2))], nil),
            ("the style the map has", [.styleChosen(.braille)], nil),
            ("another style", [.styleChosen(.blocks)], request(style: .blocks)),
        ]
        for (name, actions, expected) in cases {
            var state = shown
            var effects: [VM.Effect] = []
            for action in actions { effects = VM.reduce(&state, action) }
            if let expected {
                XCTAssertEqual(effects, [.show(expected, townsKnown: false, language: .en)], name)
                XCTAssertEqual(state.request, expected, name)
            } else {
                XCTAssertEqual(effects, [], name)
            }
        }
    }

    func testCKeepsTheStyleForTheNextMapButTheSettingsChoiceIsAlreadyKept() {
        XCTAssertEqual(apply(shown, .styleToggled).1, [.show(request(style: .blocks), townsKnown: false, language: .en), .keepStyle(.blocks)])
        XCTAssertEqual(apply(shown, .styleChosen(.blocks)).1, [.show(request(style: .blocks), townsKnown: false, language: .en)])
    }

    func testAnswersForAViewThatWasLeftAreIgnored() {
        let old = request()
        let (moved, _) = apply(shown, .panned(.right))
        for action: VM.Action in [.cached(old, snapshot(old)), .missed(old), .drawn(old, snapshot(old), towns: nil, .en),
                                  .failed(old, .dataMissing("x"))] {
            XCTAssertEqual(apply(moved, action).0, moved)
        }
    }

    func testTheLastMapStaysWhileTheNextIsDrawnWithoutItsTowns() {
        let town = MapMarker(coordinate: Coordinate(latitude: 37, longitude: 127), label: .text("Suwon"), kind: .town)
        let first = request(), next = request(zoom: MapZoom(5))
        let (drawing, _) = apply(fresh(), .sized(size), .missed(first), .drawn(first, snapshot(first), towns: [town], .en),
                                 .zoomed(1), .missed(next))
        XCTAssertEqual(drawing.snapshot?.key, first.key)
        XCTAssertTrue(drawing.loading)
        XCTAssertFalse(drawing.asking)
        XCTAssertEqual(drawing.towns, [])
        // Back to the first view, from the cache: its towns are remembered, and said to be.
        let (back, effects) = apply(drawing, .zoomed(-1))
        XCTAssertEqual(effects, [.show(first, townsKnown: true, language: .en)])
        let (cached, _) = apply(back, .cached(first, snapshot(first)))
        XCTAssertEqual(cached.towns, [town])
        XCTAssertFalse(cached.loading)
    }

    func testTownsFoundForAnotherMapAreRememberedNotShown() {
        let other = VM.TownsKey(map: request(zoom: MapZoom(6)).key, language: .en)
        let town = MapMarker(coordinate: Coordinate(latitude: 37, longitude: 127), label: .text("Suwon"), kind: .town)
        let (state, _) = apply(shown, .townsFound(other, [town]))
        XCTAssertEqual(state.towns, [])
        XCTAssertEqual(state.knownTowns[other], [town])
        XCTAssertEqual(apply(shown, .townsFound(VM.TownsKey(map: request().key, language: .en), [town])).0.towns, [town])
        // Towns another language marks are kept for it, not shown in this one.
        let korean = VM.TownsKey(map: request().key, language: .ko)
        XCTAssertEqual(apply(shown, .townsFound(korean, [town])).0.towns, [])
        XCTAssertEqual(apply(shown, .townsFound(korean, [town])).0.knownTowns[korean], [town])
    }

    /// The towns a map marks depend on the language (in Korean and Japanese only the towns it names):
    /// they are asked for, drawn and remembered in the state's language.
    func testTownsAreAskedForAndRememberedInTheStatesLanguage() {
        let town = MapMarker(coordinate: Coordinate(latitude: 37, longitude: 127), label: .city(.busan), kind: .town)
        for language in Language.allCases {
            let fresh = VM.State(city: .seoul, l10n: .bundled(language), zoom: .country, style: .braille, canShowQuakes: false)
            let (asked, effects) = apply(fresh, .sized(size))
            XCTAssertEqual(effects, [.show(request(), townsKnown: false, language: language)], "\(language)")
            let key = VM.TownsKey(map: request().key, language: language)
            let (drawn, _) = apply(asked, .missed(request()), .drawn(request(), snapshot(request()), towns: [town], language))
            XCTAssertEqual(drawn.towns, [town], "\(language)")
            XCTAssertEqual(drawn.knownTowns[key], [town])
            // Back to it from another view: known in this language.
            let (back, again) = apply(drawn, .zoomed(1), .zoomed(-1))
            XCTAssertEqual(again, [.show(request(), townsKnown: true, language: language)], "\(language)")
            XCTAssertEqual(apply(back, .cached(request(), snapshot(request()))).0.towns, [town])
            // Towns drawn for another language are remembered for it, not shown.
            let other: Language = language == .en ? .ko : .en
            let (mixed, _) = apply(asked, .missed(request()), .drawn(request(), snapshot(request()), towns: [town], other))
            XCTAssertEqual(mixed.towns, [], "\(language): \(other)'s towns")
            XCTAssertEqual(mixed.knownTowns[VM.TownsKey(map: request().key, language: other)], [town])
        }
    }

    func testAFailureIsShownAndTheNextViewAsksAgain() {
        let (failed, _) = apply(shown, .panned(.left), .missed(request(offset: MapOffset(x: -1, y: 0))),
                                .failed(request(offset: MapOffset(x: -1, y: 0)), .dataDamaged("bad")))
        XCTAssertEqual(failed.failure, .dataDamaged("bad"))
        XCTAssertFalse(failed.loading)
        let (next, effects) = apply(failed, .panned(.left), .missed(request(offset: MapOffset(x: -2, y: 0))))
        XCTAssertNil(next.failure)
        XCTAssertEqual(effects, [])
    }

    func testEarthquakesShowAndHideOnlyOnMapsThatCanShowThem() {
        XCTAssertEqual(apply(shown, .quakesToggled).1, [])
        let able = apply(fresh(canShowQuakes: true), .sized(size)).0
        let (on, shownEffects) = apply(able, .quakesToggled)
        XCTAssertEqual(shownEffects, [.showQuakes])
        XCTAssertEqual(on.quakes, [], "shown, none known yet")
        let quake = MapMarker(coordinate: Coordinate(latitude: 36, longitude: 129), label: .text("M4.1"), kind: .quake, weight: 4.1)
        XCTAssertEqual(apply(on, .quakes([quake])).0.quakes, [quake])
        let (off, hidden) = apply(on, .quakes([quake]), .quakesToggled)
        XCTAssertEqual(hidden, [.hideQuakes])
        XCTAssertNil(off.quakes)
        XCTAssertNil(apply(off, .quakes([quake])).0.quakes, "an answer after hiding is dropped")
    }

    func testKnownTownsKeepTheLatest32Maps() {
        var known = VM.KnownTowns()
        for zoom in 0...12 {
            for x in 0..<3 { known.remember([], for: VM.TownsKey(map: request(zoom: MapZoom(zoom), offset: MapOffset(x: x, y: 0)).key, language: .en)) }
        }
        XCTAssertEqual(known.towns.count, 32)
        XCTAssertNil(known[VM.TownsKey(map: request(zoom: MapZoom(0), offset: .zero).key, language: .en)], "the oldest forgotten")
        XCTAssertNotNil(known[VM.TownsKey(map: request(zoom: MapZoom(12), offset: MapOffset(x: 2, y: 0)).key, language: .en)])
    }
}
