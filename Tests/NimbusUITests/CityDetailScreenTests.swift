import Foundation
import Testing
import CombineSchedulers
import NimbusData
import NimbusDomain
import NimbusPresentation
import NimbusTerminal
import OpenCombineShim
import TestSupport
@testable import NimbusUI

/// The detail screen made as the app makes it: its view model on a forecast repository.
@MainActor
func makeCityDetailScreen(city: City, client: HTTPClient, l10n: L10n, scheduler: TestSchedulerOf<DispatchQueue>,
                          now: Date, panel: ScreenPanel?, routes: @escaping (CityDetailRoute) -> Void) -> CityDetailScreen {
    let viewModel = CityDetailViewModel(city: city, forecast: GetForecastUseCase(repository: OpenMeteoWeatherRepository(client: client, cache: nil)),
                                        likes: nil, format: WeatherFormatter(l10n: l10n, units: .metric, zones: SystemZoneDatabase.forTests),
                                        scheduler: scheduler.eraseToAnyScheduler(),
                                        now: { now })
    return CityDetailScreen(viewModel: viewModel, l10n: l10n, panel: panel, onRoute: routes)
}

/// A panel that records what its host does with it.
final class RecordingPanel: ScreenPanel {
    var draws: [Size] = []
    var keys: [Key] = []
    var cancels = 0
    var bindings: [Binding] {
        [Binding([.char("+")], "+ -", help: .text("zoom the map"), hint: "zoom", hintKey: "+-", command: BoundCommand("zoom"))]
    }
    func perform(_ command: BoundCommand, key: Key) -> Bool {
        guard command == BoundCommand("zoom") else { return false }
        keys.append(key)
        return true
    }
    var changes: AnyPublisher<Void, Never> { Empty().eraseToAnyPublisher() }
    func draw(_ painter: Painter, theme: Theme) {
        draws.append(Size(cols: painter.width, rows: painter.height))
        painter.text("MAP", x: 0, y: 0)
    }
    func cancel() { cancels += 1 }
}

/// A key as the app dispatches it to a screen: the command of the screen's binding for it, if any,
/// to the screen (a disabled binding does nothing).
@MainActor
func press(_ screen: Screen, _ key: Key) -> Bool { screen.press(key) == .ran }

@Suite @MainActor struct CityDetailScreenTests {
    private static let seoul = City(id: 1835848, name: "Seoul", countryCode: "KR", latitude: 37.566, longitude: 126.9784,
                                    population: 10_349_312, timeZone: "Asia/Seoul", alternateNames: ["서울", "ソウル"],
                                    localNames: CityLocalNames(japanese: "ソウル", korean: "서울"))
    private static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tapes/fixtures/open-meteo-seoul.json")

    private func makeScreen(language: Language = .ko, panel: ScreenPanel?, online: Bool = true,
                            routes: @escaping (CityDetailRoute) -> Void = { _ in }) throws -> (Screen, TestSchedulerOf<DispatchQueue>) {
        let scheduler = DispatchQueue.test
        let client = HTTPClientDouble(online ? .body(try Data(contentsOf: Self.fixture)) : .failure(.transport(.notConnected)))
        let screen = makeCityDetailScreen(city: Self.seoul, client: client, l10n: L10n.bundled(language), scheduler: scheduler,
                                          now: Date(timeIntervalSince1970: 1_782_000_720), panel: panel, routes: routes)
        scheduler.advance()
        return (screen, scheduler)
    }

    @Test func testEverySizeDrawsWithAndWithoutAPanel() throws {
        for panel in [nil, RecordingPanel()] as [RecordingPanel?] {
            for online in [true, false] {
                let (screen, _) = try makeScreen(panel: panel, online: online)
                var sizes = [Size(cols: 500, rows: 200), Size(cols: 1, rows: 1), Size(cols: 0, rows: 0)]
                for cols in stride(from: 1, through: 130, by: 9) {
                    for rows in stride(from: 1, through: 45, by: 4) { sizes.append(Size(cols: cols, rows: rows)) }
                }
                for size in sizes {
                    let canvas = Canvas(size: size)
                    screen.draw(canvas.painter(), theme: .color)
                    #expect(canvas.buffer.size == size)
                }
            }
        }
    }

    @Test func testThePanelGetsTheRightColumnWhenWideAndTheBottomWhenTall() throws {
        let panel = RecordingPanel()
        let (screen, _) = try makeScreen(panel: panel)
        let wide = Canvas(size: Size(cols: 120, rows: 22))
        screen.draw(wide.painter(), theme: .color)
        #expect(panel.draws.last == Size(cols: 120 - 65, rows: 22))
        let top = String(wide.buffer.text().split(separator: "\n")[0])
        let mapAt = try #require(top.range(of: "MAP"))
        #expect(DisplayWidth.of(String(top[..<mapAt.lowerBound])) == 65, "\(top)")
        let tall = Canvas(size: Size(cols: 80, rows: 40))
        screen.draw(tall.painter(), theme: .color)
        #expect(panel.draws.last == Size(cols: 80, rows: 18))
        let small = Canvas(size: Size(cols: 80, rows: 22))
        panel.draws = []
        screen.draw(small.painter(), theme: .color)
        #expect(panel.draws == [], "no room for the map at 80×24: the weather keeps the screen")
    }

    @Test func testThePanelsKeysAreHintedOnlyWhileItIsOnScreen() throws {
        let (screen, _) = try makeScreen(language: .en, panel: RecordingPanel())
        screen.draw(Canvas(size: Size(cols: 120, rows: 30)).painter(), theme: .color)
        #expect(screen.bindings.compactMap { $0.barHint(in: .bundled(.en)) }.map(\.key) == ["Esc", "r", "+-", "f"])
        screen.draw(Canvas(size: Size(cols: 60, rows: 20)).painter(), theme: .color)
        #expect(screen.bindings.compactMap { $0.barHint(in: .bundled(.en)) }.map(\.key) == ["Esc", "r", "f"], "no room for the map, no map keys")
    }

    @Test func testUnhandledKeysGoToThePanelWhileItIsOnScreenAndLeavingCancelsIt() throws {
        let panel = RecordingPanel()
        var routes: [CityDetailRoute] = []
        let (screen, _) = try makeScreen(panel: panel, routes: { routes.append($0) })
        screen.draw(Canvas(size: Size(cols: 80, rows: 22)).painter(), theme: .color)
        #expect(!press(screen, .char("+")), "no room for the map: its keys do nothing, so they are not taken")
        #expect(!screen.bindings.map { $0.keyHint(in: .bundled(.en)) }.contains(KeyHint("+ -", "zoom the map")), "nor listed")
        screen.draw(Canvas(size: Size(cols: 120, rows: 30)).painter(), theme: .color)
        #expect(press(screen, .char("+")))
        #expect(!press(screen, .char("x")))
        #expect(press(screen, .char("r")), "r is the screen's own")
        #expect(panel.keys == [.char("+")])
        #expect(screen.bindings.map { $0.keyHint(in: .bundled(.en)) }.contains(KeyHint("+ -", "zoom the map")))
        #expect(press(screen, .escape))
        #expect(panel.cancels == 1)
        #expect(routes == [.back])
    }

    @Test func testTheDetailShowsTheWeatherInKorean() throws {
        let (screen, _) = try makeScreen(panel: nil)
        let canvas = Canvas(size: Size(cols: 80, rows: 22))
        screen.draw(canvas.painter(), theme: .monochrome)
        let text = canvas.buffer.text()
        #expect(text.contains("Seoul 서울 · 대한민국"), "\(text)")
        #expect(text.contains("구름 조금"), "\(text)")
        #expect(text.contains("23°C  체감 24°C"), "\(text)")
    }

    @Test func testOfflineWithoutCacheShowsAMessageAndTheSunTimes() throws {
        let (screen, _) = try makeScreen(language: .en, panel: nil, online: false)
        let canvas = Canvas(size: Size(cols: 40, rows: 12))
        screen.draw(canvas.painter(), theme: .monochrome)
        let text = canvas.buffer.text()
        #expect(text.contains("Sunrise 05:11"), "\(text)")
        #expect(text.contains("Offline: no weather saved for this"), "\(text)")
        #expect(text.contains("city yet. Press r to try again."), "\(text)")
    }
}

@Suite @MainActor struct StaleForecastTests {
    @Test func testAForecastThatEndedBeforeNowSaysSoInsteadOfEmptyCharts() throws {
        let scheduler = DispatchQueue.test
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Tapes/fixtures/open-meteo-seoul.json")
        let seoul = City(id: 1835848, name: "Seoul", countryCode: "KR", latitude: 37.566, longitude: 126.9784,
                         population: 10_349_312, timeZone: "Asia/Seoul", alternateNames: [])
        let screen = makeCityDetailScreen(city: seoul, client: HTTPClientDouble(.body(try Data(contentsOf: fixture))),
                                          l10n: L10n.bundled(.en), scheduler: scheduler,
                                          now: Date(timeIntervalSince1970: 1_782_000_720 + 30 * 86400), panel: nil,
                                          routes: { _ in })
        scheduler.advance()
        let canvas = Canvas(size: Size(cols: 80, rows: 22))
        screen.draw(canvas.painter(), theme: .monochrome)
        let text = canvas.buffer.text()
        #expect(text.contains("23°C"), "\(text)")
        #expect(text.contains("The saved forecast does not reach this far; press r to refresh."), "\(text)")
        #expect(!text.contains("Next 7 days"), "\(text)")
    }
}
