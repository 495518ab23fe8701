import Foundation
import Testing
import CombineSchedulers
import NimbusData
import NimbusDomain
import NimbusPresentation
import NimbusTerminal
import TestSupport
@testable import NimbusUI

/// The hours ahead at random sizes, in every language: the sky row has one symbol under each bar of
/// the temperature chart, the precipitation bars are as many, the axis labels start on their hours and
/// never run into each other, and 48 hours show exactly from the wide width on.
@Suite @MainActor struct CityDetailHoursLayoutTests {
    private static let seoul = City(id: 1835848, name: "Seoul", countryCode: "KR", latitude: 37.566, longitude: 126.9784,
                                    population: 10_349_312, timeZone: "Asia/Seoul", alternateNames: ["서울", "ソウル"])
    private static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tapes/fixtures")
    private static let bars = Set("▁▂▃▄▅▆▇█")

    private func screen(_ language: Language, panel: Bool, air: Bool) throws -> Screen {
        let scheduler = DispatchQueue.test
        let airReply: HTTPClientDouble.Reply = air
            ? .body(try Data(contentsOf: Self.fixtures.appendingPathComponent("open-meteo-air-seoul.json")))
            : .failure(.server(status: 503))
        let client = HTTPClientDouble(routes: ["/air-quality": airReply],
                                      otherwise: .body(try Data(contentsOf: Self.fixtures.appendingPathComponent("open-meteo-seoul.json"))))
        let l10n = L10n.bundled(language)
        let viewModel = CityDetailViewModel(
            city: Self.seoul, forecast: GetForecastUseCase(repository: OpenMeteoWeatherRepository(client: client, cache: nil)),
            air: GetAirQualityUseCase(repository: OpenMeteoAirQualityRepository(client: client, cache: nil)),
            likes: nil, format: WeatherFormatter(l10n: l10n, units: .metric, zones: SystemZoneDatabase.forTests),
            scheduler: scheduler.eraseToAnyScheduler(), now: { Date(timeIntervalSince1970: 1_782_000_720) })
        let screen = CityDetailScreen(viewModel: viewModel, l10n: l10n, panel: panel ? RecordingPanel() : nil, onRoute: { _ in })
        scheduler.advance()
        return screen
    }

    /// Display columns of each character of `line` (a wide one takes two).
    private func columns(_ line: String) -> [(column: Int, character: Character)] {
        var column = 0
        return line.map { ch in
            defer { column += DisplayWidth.of(String(ch)) }
            return (column, ch)
        }
    }

    @Test func testTheRowsUnderTheChartLineUpAtAnySize() throws {
        var random = SystemRandomNumberGenerator()
        let cases = PropertyCount.scaled(default: 60)
        var sizes = [Size(cols: 80, rows: 24), Size(cols: 139, rows: 30), Size(cols: 140, rows: 30), Size(cols: 40, rows: 10)]
        while sizes.count < cases {
            sizes.append(Size(cols: Int.random(in: 20...220, using: &random), rows: Int.random(in: 8...50, using: &random)))
        }
        for (i, size) in sizes.enumerated() {
            let language = [Language.en, .ko, .ja][i % 3]
            let panel = i % 2 == 0
            let screen = try screen(language, panel: panel, air: i % 4 != 1)
            let canvas = Canvas(size: size)
            screen.draw(canvas.painter(), theme: .color)
            let lines = canvas.buffer.lines()
            let what = "\(language) \(size.cols)×\(size.rows) panel \(panel)"
            // The temperature chart is the first row with bars; the sky, precipitation and axis follow.
            guard let top = lines.firstIndex(where: { $0.contains { Self.bars.contains($0) } }) else { continue }
            let temperature = columns(lines[top]).filter { Self.bars.contains($0.character) }.map(\.column)
            guard let first = temperature.first else { continue }
            // The bars are one run, one column an hour, 24 of them or 48 from the wide width on.
            #expect(temperature == Array(first..<(first + temperature.count)), "\(what)")
            #expect(temperature.count <= (size.cols >= CityDetailScreen.wideWidth ? 48 : 24), "\(what)")
            if size.cols >= CityDetailScreen.wideWidth { #expect(temperature.count == 48, "\(what)") }
            if (100..<CityDetailScreen.wideWidth).contains(size.cols) { #expect(temperature.count == 24, "\(what)") }
            guard top + 1 < lines.count else { continue }
            let sky = columns(lines[top + 1]).filter { $0.character != " " && $0.column >= first - 1 }
            #expect(sky.map(\.column) == temperature, "a sky symbol under each bar: \(what)\n\(lines[top])\n\(lines[top + 1])")
            guard top + 2 < lines.count else { continue }
            let rain = columns(lines[top + 2]).filter { Self.bars.contains($0.character) }.map(\.column)
            #expect(rain == temperature, "precipitation bars under the temperature bars: \(what)")
            guard top + 3 < lines.count else { continue }
            // The axis: labels within the chart's columns, a space between them.
            let axis = columns(lines[top + 3]).filter { $0.column >= first }
            let words = String(axis.map(\.character)).split(separator: " ")
            #expect(((axis.last { $0.character != " " }?.column ?? first) - first) <= (temperature.count - 1), "the axis stays under the chart: \(what)")
            #expect(words.count >= 1, "\(what)")
        }
    }

    /// Random marks and widths: the axis never passes its width, every label after "now" starts at its
    /// own hour's column, and labels are apart.
    @Test func testTheAxisPlacesLabelsOnTheirHoursAndNeverOverlaps() {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<PropertyCount.scaled(default: 500) {
            let count = Int.random(in: 0...60, using: &random)
            let labels = ["06", "12", "6 PM", "오후 6시", "午後6時", "\u{1B}[2J", "", "x"]
            let marks: [String?] = (0..<count).map { _ in Int.random(in: 0..<4, using: &random) == 0 ? labels.randomElement(using: &random) : nil }
            let width = Int.random(in: 0...70, using: &random)
            let now = ["now", "지금", "今"].randomElement(using: &random)!
            let axis = CityDetailScreen.timeAxis(marks, now: now, width: width)
            #expect(DisplayWidth.of(axis) <= max(0, width), "\(marks) \(width)")
            #expect(!axis.contains("\u{1B}"))
            // Each column the axis writes belongs to "now" or to a label placed at its own hour's column,
            // and a label starts after the one before it has ended, with a space between.
            var cells: [Character?] = []
            for ch in axis {
                cells.append(ch)
                if DisplayWidth.of(String(ch)) == 2 { cells.append(nil) }
            }
            func matches(_ label: String, at column: Int) -> Bool {
                var expected: [Character?] = []
                for ch in label {
                    expected.append(ch)
                    if DisplayWidth.of(String(ch)) == 2 { expected.append(nil) }
                }
                return !expected.isEmpty && column + expected.count <= cells.count
                    && Array(cells[column..<(column + expected.count)]) == expected
            }
            // "now" is there only where it ends before the first hour's label.
            let nowLabel = DisplayWidth.truncate(now, to: width, ellipsis: false)
            let nowShown = !nowLabel.isEmpty && matches(nowLabel, at: 0)
            var covered = nowShown ? Set(0..<min(cells.count, DisplayWidth.of(nowLabel))) : []
            var end = nowShown ? covered.count : 0
            var firstLabel: Int?
            for (i, mark) in marks.enumerated() where i > 0 {
                guard let mark else { continue }
                let label = DisplayWidth.sanitize(mark)
                guard i > end || (firstLabel == nil && !nowShown), matches(label, at: i) else { continue }
                let w = DisplayWidth.of(label)
                covered.formUnion(i..<(i + w))
                end = i + w
                firstLabel = firstLabel ?? i
            }
            // The first hour that fits is never dropped for "now".
            if let first = marks.indices.first(where: { $0 > 0 && marks[$0] != nil
                && $0 + DisplayWidth.of(DisplayWidth.sanitize(marks[$0]!)) <= width && $0 < width }),
               !DisplayWidth.sanitize(marks[first]!).isEmpty {
                #expect(matches(DisplayWidth.sanitize(marks[first]!), at: first), "the first hour's label at \(first) of \"\(axis)\": \(marks)")
            }
            for (column, cell) in cells.enumerated() where cell != " " && cell != nil {
                #expect(covered.contains(column), "column \(column) of \"\(axis)\" belongs to no hour's label: \(marks)")
            }
        }
    }
}
