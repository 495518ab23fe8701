import Foundation
import Testing
import Synchronization
import CombineSchedulers
import NimbusData
import NimbusTerminal
import TestSupport
@testable import NimbusApp

/// Open-Meteo that first says "too many requests": the answers to the first `limited` requests
/// matching `limits` are 429 with `retryAfter`, every other request gets 21.4° for each place.
private func rateLimitedWeather(retryAfter: String, limited: Int = 1,
                                limits: @escaping @Sendable (URL) -> Bool = { _ in true }) -> HTTPClientDouble {
    final class Count: Sendable { let value = Mutex(0) }
    let limitedSoFar = Count()
    return HTTPClientDouble { request in
        let limit = limits(request.url) && limitedSoFar.value.withLock { count in
            guard count < limited else { return false }
            count += 1
            return true
        }
        guard limit else { return .mildBatch(for: request) }
        return .exchange(HTTPExchange(result: .failure(.server(status: 429)),
                                      reply: HTTPReplyHead(status: 429, headers: ["retry-after": retryAfter])))
    }
}

/// The status bar while the network waits to retry: the whole history on a test scheduler.
@Suite @MainActor struct RetryStatusAppTests {
    private let temporary = TemporaryDirectories()

    private let size = Size(cols: 80, rows: 24)

    private func launch(_ client: HTTPClient, language: String = "en") throws -> (AppCoordinator, TestSchedulerOf<DispatchQueue>) {
        let scheduler = DispatchQueue.test
        let container = try AppDIContainer(configuration: .init(
            environment: temporary.isolated(["NIMBUS_LANG": language, "NIMBUS_UNITS": "metric"]),
            scheduler: scheduler.eraseToAnyScheduler(), httpClient: client))
        let app = AppCoordinator(container: container)
        app.start()
        scheduler.advance()
        // The list asks for its rows' temperatures once its frame is shown and the rows settle.
        _ = app.render(size: size)
        app.frameShown()
        scheduler.advance(by: .milliseconds(300))
        return (app, scheduler)
    }

    private func statusBar(_ app: AppCoordinator) -> String {
        app.render(size: size).lines().last ?? ""
    }

    private func rowsWithTemperatures(_ app: AppCoordinator) -> Int {
        app.render(size: size).lines().dropFirst(3).prefix(20).filter { $0.contains("21°") }.count
    }

    @Test func testA429CountsDownOnTheStatusBarThenTheRowsLoadByThemselves() throws {
        let client = rateLimitedWeather(retryAfter: "12")
        let (app, scheduler) = try launch(client)
        #expect(client.urls.count == 1)
        // The countdown names what it retries: the list's temperatures come with the forecasts.
        #expect(statusBar(app).hasSuffix("forecast: rate limited, retrying in 12 s"), "\(statusBar(app))")
        #expect(rowsWithTemperatures(app) == 0)
        var history: [String] = []
        for _ in 0..<12 {
            _ = app.needsDisplay.take()
            scheduler.advance(by: .seconds(1))
            #expect(app.needsDisplay.take().display, "the countdown asks for a frame each second")
            let bar = statusBar(app)
            history.append(bar.contains("retrying") ? String(bar.split(separator: ",").last ?? "") : "loaded")
        }
        #expect(history == [" retrying in 11 s", " retrying in 10 s", " retrying in 9 s", " retrying in 8 s",
                                 " retrying in 7 s", " retrying in 6 s", " retrying in 5 s", " retrying in 4 s",
                                 " retrying in 3 s", " retrying in 2 s", " retrying in 1 s", "loaded"])
        #expect(client.urls.count == 2, "the retry went out beneath the list")
        #expect(rowsWithTemperatures(app) == 20, "the rows recovered without a key")
        #expect(statusBar(app).hasSuffix("GeoNames · 34,006 cities"), "\(statusBar(app))")
        // Nothing is left ticking.
        scheduler.advance(by: .seconds(5))
        #expect(client.urls.count == 2)
    }

    @Test func testARetryAfterOf999999IsCappedAtAMinuteInEveryLanguage() throws {
        for (language, first, last) in [("en", "rate limited, retrying in 60 s", "rate limited, retrying in 1 s"),
                                        ("ko", "요청 한도 초과, 60초 후 다시 시도", "요청 한도 초과, 1초 후 다시 시도"),
                                        ("ja", "リクエスト制限中、60秒後に再試行", "リクエスト制限中、1秒後に再試行")] {
            let client = rateLimitedWeather(retryAfter: "999999")
            let (app, scheduler) = try launch(client, language: language)
            #expect(statusBar(app).hasSuffix(first), "\(statusBar(app))")
            scheduler.advance(by: .seconds(59))
            #expect(statusBar(app).hasSuffix(last), "\(statusBar(app))")
            #expect(client.urls.count == 1)
            scheduler.advance(by: .seconds(1))
            #expect(client.urls.count == 2)
            #expect(!statusBar(app).contains(first.prefix(4)), "\(statusBar(app))")
            #expect(rowsWithTemperatures(app) == 20)
        }
    }

    @Test func testLeavingTheScreenCancelsItsWaitingRetry() throws {
        // The rows' temperatures load; the detail's forecast (asked with `daily`) is rate limited.
        let client = rateLimitedWeather(retryAfter: "30") { url in url.query?.contains("daily=") == true }
        let (app, scheduler) = try launch(client)
        #expect(rowsWithTemperatures(app) == 20)
        app.handle(.enter)
        scheduler.advance()
        #expect(app.place.depth == 2)
        let forecasts = { client.urls.filter { $0.query?.contains("daily=") == true }.count }
        #expect(forecasts() == 1)
        #expect(statusBar(app).hasSuffix("rate limited, retrying in 30 s"), "\(statusBar(app))")
        scheduler.advance(by: .seconds(10))
        #expect(statusBar(app).hasSuffix("rate limited, retrying in 20 s"), "\(statusBar(app))")
        app.handle(.escape)
        scheduler.advance()
        #expect(app.place.depth == 1)
        #expect(!statusBar(app).contains("retrying"), "the wait went with the screen: \(statusBar(app))")
        scheduler.advance(by: .seconds(120))
        #expect(forecasts() == 1, "no retry once the screen is gone")
    }

    @Test func testTheCountdownNamesWhatItRetriesInEveryLanguage() throws {
        // The list's rows are forecasts; on a city's screen the air quality is the one rate limited,
        // while its forecast is drawn.
        for (language, rows, air) in [("en", "forecast: rate limited, retrying in 30 s", "air quality: rate limited, retrying in 30 s"),
                                      ("ko", "예보: 요청 한도 초과, 30초 후 다시 시도", "대기질: 요청 한도 초과, 30초 후 다시 시도"),
                                      ("ja", "予報：リクエスト制限中、30秒後に再試行", "大気質：リクエスト制限中、30秒後に再試行")] {
            let list = rateLimitedWeather(retryAfter: "30")
            let (listApp, _) = try launch(list, language: language)
            #expect(statusBar(listApp).hasSuffix(rows), "\(statusBar(listApp))")

            let client = rateLimitedWeather(retryAfter: "30") { url in url.path.hasSuffix("/v1/air-quality") }
            let (app, scheduler) = try launch(client, language: language)
            app.handle(.enter)
            scheduler.advance()
            // (The bar's right side is cut to the width: what is retried, and why, come first.)
            #expect(statusBar(app).contains(air.prefix(16)), "\(statusBar(app))")
            #expect(!statusBar(app).contains(rows), "\(statusBar(app))")
        }
    }
}
