import Foundation
import Testing
import CombineSchedulers
import NimbusData
import NimbusTerminal
import TestSupport
@testable import NimbusApp

@Suite @MainActor struct CityListTemperatureAppTests {
    private let temporary = TemporaryDirectories()

    @Test func testTheListAsksForItsRowsTemperaturesOnlyOnceTheirFrameIsShownAndTheRowsSettle() throws {
        let scheduler = DispatchQueue.test
        let client = HTTPClientDouble { .mildBatch(for: $0) }
        let container = try AppDIContainer(configuration: .init(
            environment: temporary.isolated(["NIMBUS_LANG": "en", "NIMBUS_UNITS": "metric"]),
            scheduler: scheduler.eraseToAnyScheduler(), httpClient: client))
        let app = AppCoordinator(container: container)
        app.start()
        scheduler.advance()
        let size = Size(cols: 80, rows: 24)

        _ = app.render(size: size)
        scheduler.advance(by: .seconds(1))
        #expect(client.requests.count == 0, "a frame that has not reached the terminal asks for nothing")

        app.frameShown()
        scheduler.advance(by: .milliseconds(299))
        #expect(client.requests.count == 0, "nothing before the rows have stayed put")
        scheduler.advance(by: .milliseconds(1))
        #expect(client.requests.count == 1)
        // 24 rows less the tab bar, search line, column titles and status bar.
        #expect(try #require(client.urls.first).queryValues("latitude").count == 20)
        scheduler.advance()
        let rows = app.render(size: size).lines().dropFirst(3).prefix(20)
        #expect((rows.filter { $0.contains("21°") }.count) == 20, "\(rows.joined(separator: "\n"))")

        // Typing: every keystroke's frame is shown, and none of those rows is asked for…
        app.handle(.char("/"))
        for ch in "seo" {
            app.handle(.char(ch))
            _ = app.render(size: size)
            app.frameShown()
            scheduler.advance(by: .milliseconds(100))
        }
        #expect(client.requests.count == 1)
        // …until the rows of the last one have stayed put; rows already known are not asked again.
        scheduler.advance(by: .milliseconds(200))
        #expect(client.requests.count == 2)
        #expect(try #require(client.urls.last).queryValues("latitude").count < 20)
        scheduler.advance(by: .seconds(5))
        #expect(client.requests.count == 2)
    }
}
