import XCTest
import CombineSchedulers
import NimbusData
import NimbusTerminal
import TestSupport
@testable import NimbusApp

/// Answers every Open-Meteo batch with 21.4° for each place asked about, and keeps the requests.
private final class RecordingWeatherClient: HTTPClient, @unchecked Sendable {
    private(set) var requests: [URL] = []

    private final class Task: HTTPCancellable, @unchecked Sendable { func cancel() {} }

    func send(_ request: HTTPRequest, completion: @escaping @Sendable (Result<HTTPResponse, HTTPError>) -> Void) -> HTTPCancellable {
        requests.append(request.url)
        let entries = zip(Self.values("latitude", request.url), Self.values("longitude", request.url)).map { lat, lon in
            #"{"latitude":\#(lat),"longitude":\#(lon),"current":{"time":0,"temperature_2m":21.4,"weather_code":0}}"#
        }
        completion(.success(HTTPResponse(status: 200, headers: [:], body: Data("[\(entries.joined(separator: ","))]".utf8))))
        return Task()
    }

    static func values(_ name: String, _ url: URL) -> [Substring] {
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        return items.first { $0.name == name }?.value?.split(separator: ",") ?? []
    }
}

@MainActor
final class CityListTemperatureAppTests: XCTestCase {
    nonisolated func testTheListAsksForItsRowsTemperaturesOnlyOnceTheirFrameIsShownAndTheRowsSettle() throws {
        try onMain(self) { try $0.mainActorTestTheListAsksForItsRowsTemperaturesOnlyOnceTheirFrameIsShownAndTheRowsSettle() }
    }

    private func mainActorTestTheListAsksForItsRowsTemperaturesOnlyOnceTheirFrameIsShownAndTheRowsSettle() throws {
        let scheduler = DispatchQueue.test
        let client = RecordingWeatherClient()
        let container = try AppDIContainer(configuration: .init(
            environment: isolated(["NIMBUS_LANG": "en", "NIMBUS_UNITS": "metric"]),
            scheduler: scheduler.eraseToAnyScheduler(), httpClient: client))
        let app = AppCoordinator(container: container)
        app.start()
        scheduler.advance()
        let size = Size(cols: 80, rows: 24)

        _ = app.render(size: size)
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(client.requests.count, 0, "a frame that has not reached the terminal asks for nothing")

        app.frameShown()
        scheduler.advance(by: .milliseconds(299))
        XCTAssertEqual(client.requests.count, 0, "nothing before the rows have stayed put")
        scheduler.advance(by: .milliseconds(1))
        XCTAssertEqual(client.requests.count, 1)
        // 24 rows less the tab bar, search line, column titles and status bar.
        XCTAssertEqual(RecordingWeatherClient.values("latitude", try XCTUnwrap(client.requests.first)).count, 20)
        scheduler.advance()
        let rows = app.render(size: size).lines().dropFirst(3).prefix(20)
        XCTAssertEqual(rows.filter { $0.contains("21°") }.count, 20, rows.joined(separator: "\n"))

        // Typing: every keystroke's frame is shown, and none of those rows is asked for…
        app.handle(.char("/"))
        for ch in "seo" {
            app.handle(.char(ch))
            _ = app.render(size: size)
            app.frameShown()
            scheduler.advance(by: .milliseconds(100))
        }
        XCTAssertEqual(client.requests.count, 1)
        // …until the rows of the last one have stayed put; rows already known are not asked again.
        scheduler.advance(by: .milliseconds(200))
        XCTAssertEqual(client.requests.count, 2)
        XCTAssertLessThan(RecordingWeatherClient.values("latitude", try XCTUnwrap(client.requests.last)).count, 20)
        scheduler.advance(by: .seconds(5))
        XCTAssertEqual(client.requests.count, 2)
    }
}
