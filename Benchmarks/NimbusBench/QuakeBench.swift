import Foundation
import Synchronization
import NimbusData
import NimbusDomain
import OpenCombineShim

/// Earthquake feed numbers: decoding an `all_month`-sized feed and placing its events near the
/// catalogue's cities, on a worker thread; and what a refresh answered 304 costs (no decoding).
enum QuakeBenchmark {
    /// The USGS fixture the tapes use, beside the sources.
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Tests/Tapes/fixtures/usgs-2.5_day.geojson")
    /// About as many events as `all_month` holds.
    static let events = 10_000
    static let rounds = 10

    static func run(catalog: CityCatalog, into table: inout Table) {
        let generated = Date(timeIntervalSince1970: 1_781_998_200)
        let body: Data
        do {
            body = try feed(events: events, generatedAt: generated)
        } catch {
            table.section("Earthquake feed")
            table.row("fixture", "error: \(error) (\(fixture.path))")
            return
        }
        let locator = CatalogCityLocator(catalog: catalog)
        _ = locator.spatialIndex
        let quakes = QuakesUseCase(repository: NoQuakes(), locator: locator, cities: catalog)

        table.section("Earthquake feed: all_month-sized (\(events) events, \(String(format: "%.1f", Double(body.count) / 1_048_576)) MB, made from the fixture), on a worker thread")
        table.header("", "median", "p95", "target")
        var decodeTimes: [Double] = [], placeTimes: [Double] = [], totals: [Double] = []
        var decoded = 0, dropped = 0, placed = 0
        var onMain = false
        for _ in 0..<rounds {
            let done = DispatchSemaphore(value: 0)
            nonisolated(unsafe) var result: (decode: Double, place: Double, count: Int, dropped: Int, placed: Int, main: Bool)?
            DispatchQueue.global(qos: .userInitiated).async {
                let t0 = NimbusBenchmark.now()
                let snapshot = try? USGSQuakeRepository.decodeFeed(body)
                let t1 = NimbusBenchmark.now()
                let places = snapshot?.quakes.compactMap { quakes.place(of: $0) } ?? []
                let t2 = NimbusBenchmark.now()
                result = (t1 - t0, t2 - t1, snapshot?.quakes.count ?? 0, snapshot?.dropped ?? 0, places.count, Thread.isMainThread)
                done.signal()
            }
            done.wait()
            guard let result else { continue }
            decodeTimes.append(result.decode)
            placeTimes.append(result.place)
            totals.append(result.decode + result.place)
            decoded = result.count
            dropped = result.dropped
            placed = result.placed
            onMain = onMain || result.main
        }
        func row(_ label: String, _ xs: [Double], _ target: String) {
            table.row(label, NimbusBenchmark.ms(NimbusBenchmark.pct(xs, 50)), NimbusBenchmark.ms(NimbusBenchmark.pct(xs, 95)), target)
        }
        row("decode (each event checked on its own)", decodeTimes, "")
        row("nearest city + distance + bearing, each kept event (k-d tree)", placeTimes, "")
        row("decode + nearest city", totals, "≤ 50 ms")
        table.row("events kept (newest \(QuakeFeedSnapshot.limit)) / left out / placed", "\(decoded) / \(dropped) / \(placed)",
                  onMain ? "ran on the MAIN thread" : "worker thread", "")
        // Were every event kept: the nearest city of all of them.
        if let template = try? USGSQuakeRepository.decodeFeed(body).quakes.first {
            var seed: UInt64 = 99
            func next() -> Double {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                return Double(seed >> 11) / Double(1 << 53)
            }
            let all = (0..<events).map { _ in
                Quake(id: template.id, magnitude: template.magnitude, place: template.place, time: template.time,
                      updated: template.updated, timeZoneOffsetMinutes: nil,
                      coordinate: Coordinate(latitude: next() * 140 - 70, longitude: next() * 360 - 180),
                      depthKilometres: 10, url: nil, felt: nil, alert: nil, tsunami: false, significance: nil,
                      magnitudeType: nil, kind: nil, reviewed: true)
            }
            var times: [Double] = []
            for _ in 0..<rounds {
                let t = NimbusBenchmark.now()
                for quake in all { _ = quakes.place(of: quake) }
                times.append(NimbusBenchmark.now() - t)
            }
            row("(nearest city of all \(events) events, were every one kept)", times, "")
        }

        refresh(body: body, generated: generated, into: &table)
    }

    /// A refresh answered 304 against one answered 200, through the repository and its conditional GET.
    static func refresh(body: Data, generated: Date, into table: inout Table) {
        let decodes = Atomic<Int>(0)
        let server = ConditionalServer(body: body, lastModified: "Sat, 20 Jun 2026 23:29:00 GMT")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-bench-quakes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let repository = USGSQuakeRepository(
            client: server, baseURL: "http://bench.invalid", cache: QuakeFeedCache(directory: directory),
            now: { generated },
            decode: { body in
                decodes.add(1, ordering: .relaxed)
                return try USGSQuakeRepository.decodeFeed(body)
            })
        let feed = QuakeFeed(magnitude: .all, period: .month)
        func load() -> (time: Double, origin: QuakeFeedOrigin?) {
            var origin: QuakeFeedOrigin?
            let t = NimbusBenchmark.now()
            let c = repository.feed(feed).sink(receiveCompletion: { _ in }, receiveValue: { origin = $0.origin })
            let elapsed = NimbusBenchmark.now() - t
            c.cancel()
            return (elapsed, origin)
        }
        let first = load()
        let afterFirst = decodes.load(ordering: .relaxed)
        var notModified: [Double] = []
        var origins: Set<String> = []
        for _ in 0..<20 {
            let r = load()
            notModified.append(r.time)
            origins.insert(r.origin.map { "\($0)" } ?? "none")
        }
        let afterRefreshes = decodes.load(ordering: .relaxed)
        table.section("Earthquake feed refresh (repository → conditional GET, in-process server, disk cache)")
        table.header("", "median", "decodes", "target")
        table.row("first load, 200 (decode, merge, keep newest \(QuakeFeedSnapshot.limit), write cache)",
                  NimbusBenchmark.ms(first.time), "\(afterFirst)", "")
        table.row("refresh answered 304 (20 runs; last origin \(origins.sorted().joined(separator: ",")))",
                  NimbusBenchmark.ms(NimbusBenchmark.pct(notModified, 50)), "\(afterRefreshes - afterFirst)", "0 decodes")
        table.row("requests carrying If-Modified-Since", "\(server.conditionalRequests) of \(server.requests)", "", "")
    }

    /// A feed of `events` events: the fixture's events again and again, each with its own id, place
    /// on the globe and time within the month before `generatedAt`; one in 200 is a broken one.
    static func feed(events: Int, generatedAt: Date) throws -> Data {
        let source = try Data(contentsOf: fixture)
        guard var document = try JSONSerialization.jsonObject(with: source) as? [String: Any],
              let features = document["features"] as? [[String: Any]] else { throw CocoaError(.fileReadCorruptFile) }
        // Sorted into the features the app keeps and the ones it drops.
        var good: [[String: Any]] = [], bad: [[String: Any]] = []
        for feature in features {
            var single = document
            single["features"] = [feature]
            let data = try JSONSerialization.data(withJSONObject: single)
            let kept = (try? USGSQuakeRepository.decodeFeed(data))?.quakes.count == 1
            if kept { good.append(feature) } else { bad.append(feature) }
        }
        guard !good.isEmpty else { throw CocoaError(.fileReadCorruptFile) }
        var seed: UInt64 = 0x5eed
        func next() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Double(seed >> 11) / Double(1 << 53)
        }
        let end = generatedAt.timeIntervalSince1970 * 1000
        var out: [[String: Any]] = []
        out.reserveCapacity(events)
        for i in 0..<events {
            if i % 200 == 199, let broken = bad.first {
                out.append(broken)
                continue
            }
            var feature = good[i % good.count]
            feature["id"] = "bench\(i)"
            if var properties = feature["properties"] as? [String: Any] {
                let time = (end - next() * 30 * 86_400_000).rounded()
                properties["time"] = time
                properties["updated"] = time + 60_000
                properties["mag"] = ((next() * 6.5 - 0.5) * 10).rounded() / 10
                feature["properties"] = properties
            }
            // As USGS writes them: four decimals of a degree, two of a kilometre.
            func round(_ x: Double, _ places: Double) -> Double { (x * places).rounded() / places }
            feature["geometry"] = ["type": "Point", "coordinates": [round(next() * 360 - 180, 10_000), round(next() * 140 - 70, 10_000),
                                                                    round(next() * 100, 100)]]
            out.append(feature)
        }
        document["features"] = out
        if var metadata = document["metadata"] as? [String: Any] {
            metadata["generated"] = end
            metadata["count"] = events
            document["metadata"] = metadata
        }
        return try JSONSerialization.data(withJSONObject: document)
    }
}

/// No feed: the benchmark only places events.
private struct NoQuakes: QuakeRepository {
    func feed(_ feed: QuakeFeed) -> AnyPublisher<QuakeFeedUpdate, QuakeError> { Empty().eraseToAnyPublisher() }
}

/// Answers 200 with the body and its Last-Modified, and 304 to a request that sends it back; at once.
private final class ConditionalServer: HTTPClient, Sendable {
    private let body: Data
    private let lastModified: String
    private let counts = Mutex((requests: 0, conditional: 0))

    init(body: Data, lastModified: String) {
        self.body = body
        self.lastModified = lastModified
    }

    var requests: Int { counts.withLock { $0.requests } }
    var conditionalRequests: Int { counts.withLock { $0.conditional } }

    func send(_ request: HTTPRequest,
              completion: @escaping @Sendable (Result<HTTPResponse, HTTPError>) -> Void) -> HTTPCancellable {
        let conditional = request.headers["If-Modified-Since"] == lastModified
        counts.withLock {
            $0.requests += 1
            if conditional { $0.conditional += 1 }
        }
        if conditional {
            completion(.failure(.server(status: 304)))
        } else {
            completion(.success(HTTPResponse(status: 200, headers: ["last-modified": lastModified], body: body)))
        }
        return Done()
    }

    private final class Done: HTTPCancellable {
        func cancel() {}
    }
}
