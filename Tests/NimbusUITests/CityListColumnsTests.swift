import NimbusData
import Foundation
import Testing
import CombineSchedulers
import NimbusDomain
import NimbusPresentation
import NimbusTerminal
@testable import NimbusUI
import OpenCombineShim
import TestSupport

/// A seeded xorshift generator: a failing case prints its seed, and `NIMBUS_PROPERTY_COUNT` runs more.
private struct Seeded: RandomNumberGenerator {
    var state: UInt64
    init(_ seed: UInt64) { state = seed | 1 }
    mutating func next() -> UInt64 {
        state ^= state << 13; state ^= state >> 7; state ^= state << 17
        return state
    }
}

@Suite @MainActor struct CityListColumnsTests {
    private static let now = Date(timeIntervalSince1970: 1_782_000_720)

    /// Scalars that make trouble in a column: controls and escapes, combining marks (stacked),
    /// conjoining jamo, wide Hangul and CJK, emoji parts and flags, bidi controls, zero-width
    /// spaces, the ellipsis itself, and plain Latin.
    private static let alphabet: [[UInt32]] = [
        Array(0x00...0x1F) + [0x7F, 0x85, 0x9B], [0x1B, 0x5B, 0x5D, 0x07, 0x31, 0x6D],
        Array(0x300...0x36F), Array(0x1100...0x1112) + Array(0x1161...0x1175),
        Array(0xAC00...0xAC40) + Array(0x4E00...0x4E40) + Array(0x3041...0x3096), [0x3099, 0x309A, 0xFF21, 0xFF76],
        [0x1F600, 0x1F3FB, 0x200D, 0xFE0F, 0x1F1F0, 0x1F1F7, 0x1F468, 0x1F469], [0x202A, 0x202E, 0x2066, 0x200B, 0x2026],
        Array(0x61...0x7A) + Array(0x41...0x5A) + [0x20, 0x2D, 0xE9, 0xFC],
    ]

    private static func text(_ rng: inout Seeded, length: Int) -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...length, using: &rng) {
            let group = alphabet.randomElement(using: &rng)!
            if let s = Unicode.Scalar(group.randomElement(using: &rng)!) { scalars.append(s) }
        }
        return String(scalars)
    }

    private static let zones = ["Asia/Seoul", "Asia/Tokyo", "Asia/Kolkata", "America/St_Johns", "Pacific/Chatham",
                                "America/Argentina/ComodRivadavia", "Europe/London", "UTC", "", "EST", "Not/A_Zone",
                                "Asia/\u{1B}[31mSeoul", String(repeating: "Zone/", count: 40)]

    private static func cities(_ rng: inout Seeded) -> [City] {
        (0..<Int.random(in: 1...24, using: &rng)).map { i in
            let name = Bool.random(using: &rng) ? text(&rng, length: 90) : ["서울특별시", "東京都", "São Paulo", "X"].randomElement(using: &rng)!
            return City(id: i + 1, name: name, countryCode: ["KR", "JP", "GB", "ZZ", "\u{1B}["].randomElement(using: &rng)!,
                        latitude: Double.random(in: -90...90, using: &rng), longitude: Double.random(in: -180...180, using: &rng),
                        population: Int.random(in: 0...40_000_000, using: &rng), timeZone: zones.randomElement(using: &rng)!,
                        alternateNames: [])
        }
    }

    private func makeScreen(_ cities: [City], language: Language, clock: UserSettings.Clock,
                            withClock: Bool) -> (CityListScreen, TestSchedulerOf<DispatchQueue>) {
        let scheduler = DispatchQueue.test
        let l10n = L10n.bundled(language)
        let now = Self.now
        let viewModel = CityListViewModel(
            search: SearchCitiesUseCase(repository: InMemoryCityRepository(cities, search: .everything)), totalCount: cities.count, l10n: l10n,
            scheduler: scheduler.eraseToAnyScheduler(),
            format: WeatherFormatter(l10n: l10n, display: .init(system: .metric, clock: clock), zones: SystemZoneDatabase.forTests))
        // The clock's one tick, or none (no local times).
        let ticks = withClock ? Just(now).eraseToAnyPublisher() : Empty().eraseToAnyPublisher()
        let screen = CityListScreen(viewModel: viewModel, l10n: l10n, ticks: ticks, onRoute: { _ in })
        scheduler.advance()
        return (screen, scheduler)
    }

    /// The text of cells `range` of row `y`, one Character a glyph (the right half of a wide glyph adds nothing).
    private func glyphs(_ buffer: ScreenBuffer, _ range: Range<Int>, y: Int) -> [String] {
        range.map { buffer[$0, y].text }.filter { !$0.isEmpty }
    }

    /// For random widths from 20 to 300, languages, clocks and hostile, wide and combining names: each
    /// row's columns start where the header's do and take exactly their width, nothing is cut inside
    /// a character, columns never touch, a column shows its value whole or a prefix of it ended by
    /// "…", and the name keeps its minimum once the extra columns come.
    @Test func testEveryRowFitsAndTheColumnsLineUp() {
        let runs = PropertyCount.scaled(default: 150)
        let base = UInt64.random(in: 1...UInt64.max)
        for run in 0..<runs {
            let seed = base &+ UInt64(run) &* 0x9E37_79B9_7F4A_7C15
            var rng = Seeded(seed)
            let width = Int.random(in: 20...300, using: &rng)
            let language = Language.allCases.randomElement(using: &rng)!
            let clock = UserSettings.Clock.allCases.randomElement(using: &rng)!
            let cities = Self.cities(&rng)
            let (screen, _) = makeScreen(cities, language: language, clock: clock, withClock: Bool.random(using: &rng))
            let canvas = Canvas(size: Size(cols: width, rows: 30))
            screen.draw(canvas.painter(), theme: .color)
            let buffer = canvas.buffer
            let layout = screen.layout(width: width)
            let context = "seed \(seed), width \(width), \(language), \(clock)"
            let countries = CountryNames(locale: language.locale), l10n = L10n.bundled(language)

            #expect(layout.used <= width, "\(context)")
            #expect(layout.name <= ListColumns.nameCap, "\(context)")
            if layout.columns.contains(where: { [.localTime, .coordinates, .timeZone].contains($0.kind) }) {
                #expect(layout.name >= CityListColumns.nameMinimum, "\(context)")
            }
            #expect(layout.columns.map(\.x) == zip([CityListColumns.gutter + layout.name] + layout.columns.map(\.end), layout.columns).map(\.0), "columns follow one another: \(context)")

            let nameRange = CityListColumns.gutter..<(CityListColumns.gutter + layout.name)
            // The header (row 1) and the rows under it.
            for y in 1..<min(buffer.size.rows, 2 + cities.count) {
                // Every row is exactly the width: the glyphs' widths add up to it.
                let total = (0..<width).reduce(0) { $0 + Int(buffer[$1, y].width) }
                #expect(total == width, "row \(y): \(context)")
                // No glyph straddles the start of a column or the end of the last.
                for boundary in [nameRange.lowerBound, nameRange.upperBound] + layout.columns.map(\.end) where boundary < width {
                    #expect(!buffer[boundary, y].isContinuation, "a glyph cut at column \(boundary), row \(y): \(context)")
                }
                guard y >= 2 else { continue }
                let city = cities[y - 2]
                // The name: a prefix of the city's name, and a blank column after it.
                if layout.name > 0 {
                    let shown = glyphs(buffer, nameRange, y: y)
                    #expect(shown.last == " ", "the name's last column is blank, row \(y): \(context)")
                    assertPrefix(shown, of: DisplayWidth.sanitize(city.name), context + ", row \(y) name")
                }
                for column in layout.columns {
                    let cells = glyphs(buffer, column.x..<column.end, y: y)
                    let gapBefore = (column.x..<(column.x + column.gapBefore)).allSatisfy { buffer[$0, y].text == " " }
                    let gapAfter = ((column.end - column.gapAfter)..<column.end).allSatisfy { buffer[$0, y].text == " " }
                    #expect(gapBefore && gapAfter, "\(column.kind) touches a neighbour, row \(y): \(context)")
                    let value: String
                    switch column.kind {
                    case .country:
                        // A namesake's region too ("Illinois, United States"), or with the country's
                        // code where that does not fit ("Illinois, US").
                        let summary = CitySummary(city)
                        let full = DisplayWidth.sanitize(CityPlace.text(summary, language: l10n.language, countries: countries))
                        let short = CityPlace.short(summary, language: l10n.language).map(DisplayWidth.sanitize)
                        let shown = cells.joined().trimmingCharacters(in: .whitespaces)
                        // A country's name wider than the column gives the country's code.
                        value = short.map { shown.hasSuffix("…") ? !full.hasPrefix(shown.dropLast()) && $0.hasPrefix(shown.dropLast()) : shown == $0 } == true ? short!
                            : column.contentWidth <= CityListColumns.codeOnlyWidth && DisplayWidth.of(full) > column.contentWidth
                                && shown == city.countryCode ? city.countryCode : full
                    case .temperature: value = ""
                    case .population: value = l10n.number(city.population)
                    case .localTime, .coordinates, .timeZone: continue
                    }
                    // Aligned: a left column starts with its value, a right one ends with it.
                    if cells.contains(where: { $0 != " " }) {
                        let content = (column.x + column.gapBefore)..<(column.end - column.gapAfter)
                        let edge = column.alignment == .left ? content.lowerBound : content.upperBound - 1
                        #expect(buffer[edge, y].text != " ", "\(column.kind) not aligned, row \(y): \(context)")
                    }
                    assertPrefix(cells, of: value, context + ", row \(y) \(column.kind)")
                }
            }
        }
    }

    /// The glyphs `shown` (one a cell, trailing blanks dropped) are `full`'s graphemes or a prefix of
    /// them ended by "…" (zero-width graphemes, which take no cell, left out; glyphs are compared one
    /// by one, since two regional indicators drawn side by side would read as one flag).
    private func assertPrefix(_ shown: [String], of full: String, _ context: String, sourceLocation: SourceLocation = #_sourceLocation) {
        var drawn = shown
        while drawn.last == " " { drawn.removeLast() }
        while drawn.first == " " { drawn.removeFirst() }
        var whole = Array(full.precomposedStringWithCanonicalMapping).filter { DisplayWidth.of($0) > 0 }.map(String.init)
        while whole.last == " " { whole.removeLast() }
        while whole.first == " " { whole.removeFirst() }
        if drawn == whole { return }
        guard drawn.last == "…" else {
            Issue.record("\"\(shown.joined())\" is neither \"\(full)\" \(Self.hex(full)) nor a cut of it: \(context)", sourceLocation: sourceLocation)
            return
        }
        let prefix = Array(drawn.dropLast())
        #expect(Array(whole.prefix(prefix.count)) == prefix, "\"\(shown.joined())\" is not a cut of \"\(full)\" \(Self.hex(full)): \(context)", sourceLocation: sourceLocation)
    }

    private static func hex(_ s: String) -> String {
        s.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " ")
    }

    /// Columns come in order as the terminal widens (local time, then coordinates, then the zone),
    /// the temperature comes with the country (it outlives the country's name, which gives its code),
    /// and 80 columns show what they showed before.
    @Test func testColumnsComeInOrderAsTheTerminalWidens() {
        var seen: [[CityListColumns.Kind]] = []
        for width in 20...300 {
            let kinds = CityListColumns(width: width, timeWidth: { 8 }).columns.map(\.kind)
            if seen.last != kinds { seen.append(kinds) }
        }
        #expect(seen == [[], [.country, .temperature], [.country, .temperature, .population],
                              [.country, .temperature, .population, .localTime],
                              [.country, .temperature, .population, .localTime, .coordinates],
                              [.country, .temperature, .population, .localTime, .coordinates, .timeZone]])
        #expect(CityListColumns(width: 80, timeWidth: { 8 }).columns.map(\.kind) == [.country, .temperature, .population])
        // An 80-column list never asks how wide a time is (that makes a date formatter).
        for title in [8, 9, 10] {
            _ = CityListColumns(width: 80, timeWidth: { Issue.record("asked at 80 columns"); return 8 }, narrowestTime: title)
        }
        #expect(CityListColumns(width: 180, timeWidth: { 8 }).name == ListColumns.nameCap)
    }

    /// The local times of a wide list: the zone's clock at the minute, in the language and the clock
    /// setting, zero-padded on the 24-hour clock in every language as the detail writes it.
    @Test func testLocalTimesFollowTheLanguageAndTheClock() {
        let seoul = City(id: 1, name: "Seoul", countryCode: "KR", latitude: 37.566, longitude: 126.9784,
                         population: 10_349_312, timeZone: "Asia/Seoul", alternateNames: [])
        // 1_782_000_720 is 2026-06-21 00:12 UTC: 09:12 in Seoul.
        for (language, clock, expected) in [(Language.en, UserSettings.Clock.h24, "09:12"), (.en, .h12, "9:12 AM"),
                                            (.ko, .h12, "오전 9:12"), (.ja, .h12, "午前9:12"), (.ja, .h24, "09:12"),
                                            (.ko, .h24, "09:12")] {
            let (screen, _) = makeScreen([seoul], language: language, clock: clock, withClock: true)
            let canvas = Canvas(size: Size(cols: 180, rows: 5))
            screen.draw(canvas.painter(), theme: .color)
            let row = canvas.buffer.lines()[2]
            #expect(row.contains(" " + expected + " "), "\(language) \(clock): \(row)")
            #expect(row.contains("37.57°N 126.98°E  Asia/Seoul"), "\(row)")
        }
    }
}
