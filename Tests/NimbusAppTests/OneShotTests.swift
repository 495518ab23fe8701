import XCTest
@testable import NimbusApp
import NimbusTerminal
import NimbusData
import TestSupport

/// `nimbus weather`, `search` and `movies` against a loopback server, as a script or a status bar
/// would run them: golden output for `--print` and `--json`, and the one-line forms.
final class OneShotTests: XCTestCase {
    private static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tapes/fixtures")
    private static let snapshots = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("__snapshots__")
    /// 2026-06-21 09:12 in Seoul: the fixture's forecast is fresh then.
    private static let now = Date(timeIntervalSince1970: 1_782_000_720)

    private var server: FixtureServer!

    override func setUpWithError() throws {
        server = try FixtureServer()
        let body = try Data(contentsOf: Self.fixtures.appendingPathComponent("open-meteo-seoul.json"))
        server.route("/v1/forecast", FixtureServer.Response(body: body))
        let air = try Data(contentsOf: Self.fixtures.appendingPathComponent("open-meteo-air-seoul.json"))
        server.route("/v1/air-quality", FixtureServer.Response(body: air))
        let archive = try Data(contentsOf: Self.fixtures.appendingPathComponent("open-meteo-archive-seoul.json"))
        server.route("/v1/archive", FixtureServer.Response(body: archive))
    }

    private func context(_ extra: [String: String] = [:]) -> OneShot.Context {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-oneshot-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: home) }
        var environment = ["HOME": home.path, "XDG_CACHE_HOME": home.appendingPathComponent("cache").path,
                           "XDG_DATA_HOME": home.appendingPathComponent("data").path, "NIMBUS_LANG": "en",
                           "NIMBUS_UNITS": "metric", "TZ": "UTC", "NIMBUS_WEATHER_URL": server.baseURL.absoluteString,
                           "NIMBUS_AIR_URL": server.baseURL.absoluteString, "NIMBUS_ARCHIVE_URL": server.baseURL.absoluteString,
                           "NIMBUS_NWS_URL": server.baseURL.absoluteString, "NIMBUS_METEOALARM_URL": server.baseURL.absoluteString,
                           "NIMBUS_JMA_URL": server.baseURL.absoluteString]
        environment.merge(extra) { _, new in new }
        let now = Self.now
        return OneShot.Context(environment: environment, now: { now })
    }

    private func weather(_ query: String, _ mode: OneShot.Mode, _ extra: [String: String] = [:]) throws -> String {
        let context = context(extra)
        return try onMain { try OneShot.weather(query: query, mode: mode, options: .defaults, context: context) }
    }

    func testOneLineForStatusBarsInEveryLanguageAndFormat() throws {
        // wttr.in's codes, spaced and signed as wttr.in prints them (%c is the emoji and a space).
        XCTAssertEqual(try weather("seoul", .oneline("%l: %c %t %h %w")), "Seoul: ⛅  +23°C 64% →10km/h")
        XCTAssertEqual(try weather("서울", .oneline("%l %c%t"), ["NIMBUS_LANG": "ko"]), "서울 ⛅ +23°C")
        XCTAssertEqual(try weather("seoul", .oneline("%C, %h; 100%% %x %X %"), ["NIMBUS_LANG": "ja"]),
                       "一部曇り, 64%; 100% m %X %")
        // A format string's own control characters are not written to a status bar either.
        XCTAssertEqual(try weather("seoul", .oneline("%t\u{1B}]0;x\u{07}")), "+23°C")
        // A line without %u or %q asks for no air.
        XCTAssertFalse(server.requests.contains { $0.path == "/v1/air-quality" })
    }

    func testJSONIsTheForecastInStableKeysAndUnits() throws {
        let json = try weather("seoul", .json)
        assertSnapshot(of: json, named: "weather-seoul-json", in: Self.snapshots)
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        XCTAssertEqual((object?["current"] as? [String: Any])?["temperatureC"] as? Double, 23.4)
        XCTAssertEqual(object?["cached"] as? Bool, false)
        // A day is Seoul's calendar date, not the UTC instant of its midnight (the day before, 15:00Z).
        let days = try XCTUnwrap(object?["daily"] as? [[String: Any]])
        XCTAssertEqual(days.first?["date"] as? String, "2026-06-21")
        XCTAssertEqual(days.compactMap { $0["date"] as? String }.count, days.count)
    }

    /// Every date is the city's calendar date and every instant carries the city's offset at it, on
    /// the day summer time starts in Berlin (2026-03-29, 02:00 → 03:00): Open-Meteo dates the days
    /// with one offset (+02:00, the offset at the request), yet yesterday is 28 March and the hours
    /// before 03:00 are "+01:00". The offsets are checked against the toolkit's own zone (ICU), an
    /// independent reading of the zone's rules.
    func testEveryDateAndInstantInJSONIsTheCitysAcrossASummerTimeChange() throws {
        let hours = (0..<48).map { 1_774_738_800 + $0 * 3600 }       // 2026-03-29 00:00 (+01:00) on
        let days = [1_774_648_800, 1_774_735_200, 1_774_821_600]    // 28, 29, 30 March, each at 00:00 "+02:00"
        let body: [String: Any] = [
            "latitude": 52.52, "longitude": 13.41, "utc_offset_seconds": 7200, "timezone": "Europe/Berlin",
            "current": ["time": 1_774_778_400, "temperature_2m": 9.5, "weather_code": 2],
            "hourly": ["time": hours, "temperature_2m": hours.map { _ in 5.0 }],
            "daily": ["time": days, "temperature_2m_max": [9.1, 12.0, 13.0], "temperature_2m_min": [1.0, 2.0, 3.0],
                      "sunrise": days.map { $0 + 6 * 3600 }, "sunset": days.map { $0 + 19 * 3600 }],
        ]
        server.route("/v1/forecast", FixtureServer.Response(body: try JSONSerialization.data(withJSONObject: body)))
        let context = self.context()
        let json = try onMain {
            try OneShot.weather(query: "berlin", mode: .json, options: .defaults,
                                context: OneShot.Context(environment: context.environment, now: { Date(timeIntervalSince1970: 1_774_778_400) }))
        }
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        XCTAssertEqual((object["yesterday"] as? [String: Any])?["date"] as? String, "2026-03-28")
        XCTAssertEqual((object["daily"] as? [[String: Any]])?.compactMap { $0["date"] as? String }, ["2026-03-29", "2026-03-30"])
        let hourly = try XCTUnwrap(object["hourly"] as? [[String: Any]])
        XCTAssertEqual(hourly.first?["time"] as? String, "2026-03-29T00:00:00+01:00")
        XCTAssertEqual(hourly[1]["time"] as? String, "2026-03-29T01:00:00+01:00")
        XCTAssertEqual(hourly[2]["time"] as? String, "2026-03-29T03:00:00+02:00")
        // Every string that is a date or an instant anywhere in the answer has one of the two forms,
        // and an instant's offset is Berlin's at that instant.
        let berlin = try XCTUnwrap(TimeZone(identifier: "Europe/Berlin"))
        let parser = ISO8601DateFormatter()
        var dates = 0, instants = 0
        func walk(_ value: Any, _ path: String) {
            if let dictionary = value as? [String: Any] {
                for (key, child) in dictionary { walk(child, path + "." + key) }
            } else if let array = value as? [Any] {
                for (i, child) in array.enumerated() { walk(child, path + "[\(i)]") }
            } else if let text = value as? String, text.first?.isNumber == true, text.contains("-") {
                if text.wholeMatch(of: /[0-9]{4}-[0-9]{2}-[0-9]{2}/) != nil {
                    dates += 1
                } else if let m = text.wholeMatch(of: /[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}([+-])([0-9]{2}):([0-9]{2})/) {
                    instants += 1
                    let offset = (m.1 == "-" ? -1 : 1) * (Int(m.2)! * 3600 + Int(m.3)! * 60)
                    guard let date = parser.date(from: text) else { return XCTFail("\(path): \(text)") }
                    XCTAssertEqual(offset, berlin.secondsFromGMT(for: date), "\(path): \(text)")
                } else {
                    XCTFail("\(path): \(text) is neither a date nor an instant with its offset")
                }
            }
        }
        walk(object, "")
        XCTAssertEqual(dates, 3)
        XCTAssertEqual(instants, 1 + 1 + 48 + 4, "fetchedAt, current.time, the hours, two days' sunrise and sunset")
    }

    /// Printed, the screen is the whole output: at 80×24 it says the terminal is 80×24.
    func testPrintQuotesTheSizeItWasPrintedAt() throws {
        // What fits the size asked, and nothing only a screen needs: the warnings' row has the
        // warnings' note (Korea has no source yet), never a hint about the terminal's size.
        for size in [Size(cols: 80, rows: 24), Size(cols: 100, rows: 30), Size(cols: 40, rows: 10), Size(cols: 120, rows: 40)] {
            let text = try weather("seoul", .print(size))
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            XCTAssertLessThanOrEqual(lines.count, size.rows, "\(size)")
            XCTAssertLessThanOrEqual(lines.map { DisplayWidth.of(String($0)) }.max() ?? 0, size.cols, "\(size)")
            XCTAssertFalse(text.contains("The map needs"), "\(size): \(text)")
            XCTAssertFalse(text.contains("columns"), "\(size): \(text)")
        }
    }

    func testOneLineTellsWarningsYesterdayAndTheNormal() throws {
        let pastDay = try Data(contentsOf: Self.fixtures.appendingPathComponent("open-meteo-seoul-past-day.json"))
        server.route("/v1/forecast", FixtureServer.Response(body: pastDay))
        XCTAssertEqual(try weather("seoul", .oneline("%t, %y; %n")), "+23°C, 3° warmer than yesterday; normal 31° / 22°")
        XCTAssertEqual(try weather("seoul", .oneline("%y; %n"), ["NIMBUS_LANG": "ko", "NIMBUS_UNITS": "imperial"]),
                       "어제보다 5° 따뜻함; 평년 87° / 71°")
        XCTAssertEqual(try weather("seoul", .oneline("%y"), ["NIMBUS_LANG": "ja"]), "昨日より3°高い")
        // No warnings source for Korea: nothing to say in a status bar, and no service asked.
        XCTAssertEqual(try weather("seoul", .oneline("[%a]")), "[]")
        // Tokyo: JMA's advisories in force, as JMA names them.
        let warnings = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Tapes/fixtures/warnings")
        for (path, file) in [("/bosai/common/const/relm.json", "jma-relm.json"), ("/bosai/common/const/area.json", "jma-area.json"),
                             ("/bosai/common/const/geojson/class20s_1.json", "jma-class20s_1.json"),
                             ("/bosai/warning/data/warning/130000.json", "jma-warning-130000.json")] {
            server.route(path, FixtureServer.Response(body: try Data(contentsOf: warnings.appendingPathComponent(file))))
        }
        XCTAssertEqual(try weather("tokyo", .oneline("%a")), "強風注意報 +1 more")
        XCTAssertEqual(try weather("tokyo", .oneline("%a"), ["NIMBUS_LANG": "ko"]), "強風注意報 외 1건")
        // The warnings service down: the line still comes, without them.
        server.route("/bosai/warning/data/warning/130000.json", FixtureServer.Response(status: 500, json: "{}"))
        XCTAssertEqual(try weather("tokyo", .oneline("%t|%a")), "+23°C|")
    }

    /// `%a` is a service's event name: what a terminal cannot print with a known width (a line
    /// separator, unassigned code points, noncharacters) never reaches the status bar's line.
    func testTheWarningsLineHasOnlyPrintableCharacters() throws {
        let alert = #"{"type":"FeatureCollection","features":[{"id":"x","properties":{"id":"w1","#
            + #""event":"Heat Advisory͸￿﷐ ","severity":"Moderate","#
            + #""effective":"2026-06-21T00:00:00Z","expires":"2026-06-22T12:00:00Z","status":"Actual","messageType":"Alert"}}]}"#
        server.route("/alerts/active", FixtureServer.Response(body: Data(alert.utf8)))
        let line = try weather("seattle", .oneline("%a"))
        XCTAssertTrue(line.hasPrefix("Heat Advisory"), line.debugDescription)
        let unprintable = line.unicodeScalars.filter { DisplayWidth.knownWidth($0) == nil }
        XCTAssertEqual(unprintable.map { String(format: "U+%04X", $0.value) }, [], line.debugDescription)
    }

    func testJSONHasYesterdayTheNormalAndTheWarningsBesideTheForecast() throws {
        let pastDay = try Data(contentsOf: Self.fixtures.appendingPathComponent("open-meteo-seoul-past-day.json"))
        server.route("/v1/forecast", FixtureServer.Response(body: pastDay))
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try weather("seoul", .json).utf8)) as? [String: Any])
        XCTAssertEqual((object["yesterday"] as? [String: Any])?["highC"] as? Double, 25)
        XCTAssertEqual((object["todayAgainstYesterday"] as? [String: Any])?["comparison"] as? String, "warmer")
        XCTAssertEqual((object["todayAgainstYesterday"] as? [String: Any])?["differenceC"] as? Double, 3)
        let normal = try XCTUnwrap(object["normal"] as? [String: Any])
        XCTAssertEqual(try XCTUnwrap(normal["highC"] as? Double), 30.632, accuracy: 0.001)
        XCTAssertNotNil(normal["todayHigh"])
        let warnings = try XCTUnwrap(object["warnings"] as? [String: Any])
        XCTAssertEqual(warnings["covered"] as? Bool, false)
        XCTAssertNil(warnings["source"])
        XCTAssertEqual((object["daily"] as? [Any])?.count, 7, "yesterday is not one of the forecast's days")
        // The archive and the warnings failing change nothing of the forecast.
        server.route("/v1/archive", FixtureServer.Response(status: 500, json: "{}"))
        let failing = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try weather("seoul", .json).utf8)) as? [String: Any])
        XCTAssertNil(failing["normal"])
        for key in ["current", "hourly", "daily", "yesterday", "city"] {
            XCTAssertEqual(try JSONSerialization.data(withJSONObject: failing[key] as Any, options: [.sortedKeys, .fragmentsAllowed]),
                           try JSONSerialization.data(withJSONObject: object[key] as Any, options: [.sortedKeys, .fragmentsAllowed]), key)
        }
    }

    func testPrintDrawsTheDetailScreenOnce() throws {
        let text = try weather("seoul", .print(Size(cols: 100, rows: 30)))
        assertSnapshot(of: text, named: "weather-seoul-print", in: Self.snapshots)
        XCTAssertTrue(text.contains("Partly cloudy"))
        XCTAssertTrue(text.contains("US AQI 57 moderate"), "the printed screen waits for the air")
        XCTAssertFalse(text.contains("\u{1B}"))
    }

    func testNoCityOrNoWeatherIsOneLineAndStatusOne() throws {
        XCTAssertThrowsError(try weather("zzqqxx", .oneline("%t"))) { error in
            // Nothing within two edits either: what the catalogue holds, and how to search a larger one.
            XCTAssertEqual(NimbusCommand.outcome(of: error).line, "nimbus: no city matches \"zzqqxx\". The catalogue lists "
                           + "places of 15,000 or more people. For places of 1,000 or more, build the large tier with "
                           + "python3 scripts/build-resources.py --tier 1000 and start nimbus --tier large.")
            XCTAssertEqual(NimbusCommand.outcome(of: error).status, 1)
        }
        XCTAssertThrowsError(try weather("pariss", .oneline("%t"))) { error in
            XCTAssertEqual(NimbusCommand.outcome(of: error).line,
                           "nimbus: no city matches \"pariss\" — did you mean Paris (France), Paris (United States) or Paris 15 Vaugirard (France)?")
            XCTAssertEqual(NimbusCommand.outcome(of: error).status, 1)
        }
        XCTAssertThrowsError(try weather("paris, xx", .oneline("%t"))) { error in
            XCTAssertEqual(NimbusCommand.outcome(of: error).line, "nimbus: no region or country is called \"xx\" (in \"paris, xx\")")
        }
        XCTAssertThrowsError(try weather("seoul", .json, ["NIMBUS_WEATHER_URL": "http://127.0.0.1:9"])) { error in
            XCTAssertEqual(NimbusCommand.outcome(of: error).line, "nimbus: Cannot reach the weather server.")
        }
    }

    /// A command line has no keys: offline with nothing kept, the line says so without "Press r".
    func testOfflineMessagesNeverMentionKeys() throws {
        for language in ["en", "ko", "ja"] {
            XCTAssertThrowsError(try weather("seoul", .oneline(OneShot.defaultFormat),
                                             ["NIMBUS_WEATHER_URL": "http://127.0.0.1:9", "NIMBUS_LANG": language])) { error in
                let line = NimbusCommand.outcome(of: error).line
                for key in ["Press r", "r 키", "r キー", "r を", "r을", "r를"] {
                    XCTAssertFalse(line.contains(key), "\(language): \(line)")
                }
                XCTAssertEqual(NimbusCommand.outcome(of: error).status, 1)
            }
        }
        XCTAssertThrowsError(try weather("seoul", .oneline("%t"), ["NIMBUS_WEATHER_URL": "http://127.0.0.1:9"])) { error in
            XCTAssertEqual(NimbusCommand.outcome(of: error).line, "nimbus: Cannot reach the weather server.")
        }
    }

    /// The kept copy, the server out of reach three hours later: the default line says how old it
    /// is; a format without %k leaves the mark out.
    func testOneLineFromTheKeptCopySaysItIsStale() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-oneshot-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: home) }
        func run(_ format: String, at now: Date, url: String, language: String = "en") throws -> String {
            let environment = ["HOME": home.path, "XDG_CACHE_HOME": home.appendingPathComponent("cache").path,
                               "XDG_DATA_HOME": home.appendingPathComponent("data").path, "NIMBUS_LANG": language,
                               "NIMBUS_UNITS": "metric", "TZ": "UTC", "NIMBUS_WEATHER_URL": url]
            let context = OneShot.Context(environment: environment, now: { now })
            return try onMain { try OneShot.weather(query: "seoul", mode: .oneline(format), options: .defaults, context: context) }
        }
        let fresh = try run(OneShot.defaultFormat, at: Self.now, url: server.baseURL.absoluteString)
        XCTAssertEqual(fresh, "Seoul: ⛅  +23°C →10km/h", "fresh: no mark")
        let later = Self.now.addingTimeInterval(3 * 3600)
        XCTAssertEqual(try run(OneShot.defaultFormat, at: later, url: "http://127.0.0.1:9"), "Seoul: ⛅  +23°C →10km/h (cached 3 h ago)")
        XCTAssertEqual(try run("%t", at: later, url: "http://127.0.0.1:9"), "+23°C", "a format without %k leaves it out")
        XCTAssertEqual(try run("%t%k", at: later, url: "http://127.0.0.1:9", language: "ko"), "+23°C (3시간 전 저장본)")
    }

    func testSearchAndMoviesPrintOneLineEach() throws {
        let context = context()
        let cities = try onMain { try OneShot.cities(query: "sao paulo", limit: 2, options: .defaults, context: context) }
        XCTAssertEqual(cities, "São Paulo\tSão Paulo\tBrazil\t12,400,232\t23.55°S 46.64°W\t\n"
                       + "São Paulo de Olivença\tAmazonas\tBrazil\t35,196\t3.38°S 68.87°W\t",
                       "own names first: Luanda, larger, matches only as «São Paulo da Assunção de Loanda»")
        // Ranked as the Cities tab ranks them, with the name typed beside a city matched by another.
        let paris = try onMain { try OneShot.cities(query: "par", limit: 1, options: .defaults, context: context) }
        XCTAssertTrue(paris.hasPrefix("Paris\tÎle-de-France\tFrance\t"), paris)
        let peking = try onMain { try OneShot.cities(query: "peking", limit: 1, options: .defaults, context: context) }
        XCTAssertTrue(peking.hasPrefix("Beijing\tBeijing\tChina\t") && peking.hasSuffix("\tPeking"), peking)
        let koreanContext = self.context(["NIMBUS_LANG": "ko"])
        let korean = try onMain {
            try OneShot.cities(query: "서", limit: 1, options: .defaults, context: koreanContext)
        }
        XCTAssertTrue(korean.hasPrefix("서울\t서울특별시\t대한민국\t"), korean)
        let films = try onMain { try OneShot.movies(query: "oldboy", json: false, options: .defaults, context: context) }
        XCTAssertTrue(films.hasPrefix("Oldboy\t2003\tPark Chan-wook"), films)
        let json = try onMain { try OneShot.movies(query: "oldboy", json: true, options: .defaults, context: context) }
        XCTAssertTrue(json.contains("\"title\" : \"Oldboy\""), json)
        XCTAssertThrowsError(try onMain {
            try OneShot.movies(query: "qqqzzzxxx", json: false, options: .defaults, context: context)
        })
    }
}

/// `nimbus wishlist export` and `import`, into the same user database the app uses.
final class WishlistCommandTests: XCTestCase {
    private func context() -> OneShot.Context {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-wishlist-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: home) }
        let environment = ["HOME": home.path, "XDG_CACHE_HOME": home.appendingPathComponent("cache").path,
                           "XDG_DATA_HOME": home.appendingPathComponent("data").path, "NIMBUS_LANG": "en", "TZ": "UTC"]
        return OneShot.Context(environment: environment, now: { Date(timeIntervalSince1970: 1_782_000_000) })
    }

    private func write(_ text: String, _ name: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-\(UUID().uuidString)-\(name)")
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        try Data(text.utf8).write(to: url)
        return url.path
    }

    func testExportThenImportIntoAnEmptyWishlistGivesTheSameFilms() throws {
        let first = context()
        let list = try write("Title,Year\nHeat,1995\nThe Matrix,1999\n\"Crouching Tiger, Hidden Dragon\",2000\nOldboy,2003\n", "in.csv")
        let report = try onMain { try OneShot.importWishlist(file: list, options: .defaults, context: first) }
        XCTAssertEqual(report.added, 4, report.text)
        for format in WishlistTransfer.Format.allCases {
            let exported = try onMain { try OneShot.exportWishlist(format: format, options: .defaults, context: first) }
            let file = try write(exported, "out.\(format.rawValue)")
            let second = context()
            let again = try onMain { try OneShot.importWishlist(file: file, options: .defaults, context: second) }
            XCTAssertEqual(again.added, 4, again.text)
            XCTAssertEqual(again.unmatched, [])
            let reexported = try onMain { try OneShot.exportWishlist(format: format, options: .defaults, context: second) }
            XCTAssertEqual(reexported, exported, "the same films in the same order")
        }
    }

    func testWhatDidNotMatchIsReportedAndNothingImportedFails() throws {
        let context = context()
        let mixed = try write("Title,Year\nHeat,1995\nNo Such Film,2001\nHeat,1901\n", "mixed.csv")
        let report = try onMain { try OneShot.importWishlist(file: mixed, options: .defaults, context: context) }
        XCTAssertEqual(report.text, "not found: No Such Film (2001)\nnot found: Heat (1901)\nadded 1 film, 2 not found")
        let again = try onMain { try OneShot.importWishlist(file: mixed, options: .defaults, context: context) }
        XCTAssertEqual(again.added + again.already, 1, "saved already: still a match")
        let none = try write("Title,Year\nNo Such Film,2001\n", "none.csv")
        let nothing = try onMain { try OneShot.importWishlist(file: none, options: .defaults, context: context) }
        XCTAssertEqual(nothing.added + nothing.already, 0)
        let big = try write(String(repeating: "x", count: WishlistTransfer.maxBytes + 1), "big.csv")
        XCTAssertThrowsError(try onMain { try OneShot.importWishlist(file: big, options: .defaults, context: context) }) {
            XCTAssertTrue(NimbusCommand.outcome(of: $0).line.hasSuffix("is larger than 5 MB"), NimbusCommand.outcome(of: $0).line)
        }
        XCTAssertThrowsError(try onMain {
            try OneShot.importWishlist(file: "/nonexistent/file.csv", options: .defaults, context: context)
        })
    }
}

/// `nimbus wishlist import` on hostile ground: a data directory that can't be used, a write that
/// fails, a file that lies about its size, and files at the limits.
final class WishlistImportHostileTests: XCTestCase {
    private var home: URL!

    override func setUpWithError() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: home)
    }

    private func context(_ extra: [String: String] = [:]) -> OneShot.Context {
        var environment = ["HOME": home.path, "XDG_CACHE_HOME": home.appendingPathComponent("cache").path,
                           "XDG_DATA_HOME": home.appendingPathComponent("data").path, "NIMBUS_LANG": "en", "TZ": "UTC"]
        environment.merge(extra) { _, new in new }
        return OneShot.Context(environment: environment, now: { Date(timeIntervalSince1970: 1_782_000_000) })
    }

    private func write(_ text: String, _ name: String) throws -> String {
        let url = home.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    private func importing(_ file: String, _ context: OneShot.Context) throws -> OneShot.ImportReport {
        try onMain { try OneShot.importWishlist(file: file, options: .defaults, context: context) }
    }

    private func exported(_ context: OneShot.Context) throws -> String {
        try onMain { try OneShot.exportWishlist(format: .csv, options: .defaults, context: context) }
    }

    func testAnUnusableDataDirectoryIsAFailureWithItsReasonNotAnAddedCount() throws {
        let blocker = home.appendingPathComponent("blocker")
        try Data("x".utf8).write(to: blocker)
        let context = context(["XDG_DATA_HOME": blocker.path])
        let two = try write("Title,Year\nHeat,1995\nOldboy,2003\n", "two.csv")
        XCTAssertThrowsError(try importing(two, context)) { error in
            let outcome = NimbusCommand.outcome(of: error)
            XCTAssertEqual(outcome.status, 1)
            XCTAssertTrue(outcome.line.contains("Not a directory"), outcome.line)
            XCTAssertFalse(outcome.line.contains("added 2"), outcome.line)
        }
        XCTAssertEqual(try exported(context).split(whereSeparator: \.isNewline).count, 1, "nothing was saved, and nothing is said to be")
    }

    func testAWriteThatFailsCountsNothingAndSaysWhy() throws {
        let context = context()
        // The database exists and opens, but refuses every new film, as a full disk would.
        let prepare = try write("Title,Year\nHeat,1995\n", "one.csv")
        XCTAssertEqual(try importing(prepare, context).added, 1)
        let database = try UserDatabase(directory: home.appendingPathComponent("data/nimbus"),
                                        migrations: [WishlistStore.migration, MovieHistoryStore.migration, LikesStore.migration])
        try database.writer.write { db in
            try db.execute(sql: "CREATE TRIGGER full BEFORE INSERT ON wishlist BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END")
        }
        let two = try write("Title,Year\nOldboy,2003\nThe Matrix,1999\n", "two.csv")
        XCTAssertThrowsError(try importing(two, context)) { error in
            let outcome = NimbusCommand.outcome(of: error)
            XCTAssertEqual(outcome.status, 1)
            XCTAssertTrue(outcome.line.contains("could not be saved"), outcome.line)
        }
        XCTAssertEqual(try exported(context).split(whereSeparator: \.isNewline).count, 2, "Heat alone, as before")
    }

    func testTheSizeIsCheckedOnTheOpenedFileNotTheName() throws {
        let sparse = home.appendingPathComponent("sparse.csv")
        XCTAssertTrue(FileManager.default.createFile(atPath: sparse.path, contents: Data("Title\n".utf8)))
        let handle = try FileHandle(forWritingTo: sparse)
        try handle.truncate(atOffset: 2 << 30)
        try handle.close()
        let link = home.appendingPathComponent("link.csv")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: sparse)
        let start = Date()
        XCTAssertThrowsError(try importing(link.path, context())) { error in
            XCTAssertTrue(NimbusCommand.outcome(of: error).line.hasSuffix("is larger than 5 MB"), NimbusCommand.outcome(of: error).line)
        }
        // (Reading the 2 GB took 17 s before; refusing it is a stat.)
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
        // A device has no size to trust: it is read with a cap.
        let zero = home.appendingPathComponent("zero.csv")
        try FileManager.default.createSymbolicLink(atPath: zero.path, withDestinationPath: "/dev/zero")
        XCTAssertThrowsError(try importing(zero.path, context())) { error in
            XCTAssertTrue(NimbusCommand.outcome(of: error).line.hasSuffix("is larger than 5 MB"), NimbusCommand.outcome(of: error).line)
        }
        XCTAssertThrowsError(try importing(home.path, context())) { error in
            XCTAssertTrue(NimbusCommand.outcome(of: error).line.hasSuffix(": Is a directory"), NimbusCommand.outcome(of: error).line)
        }
    }

    func testTwentyThousandRowsOfAnUnknownFilmAreMatchedByLookupNotByScan() throws {
        let rows = "Title,Year\n" + String(repeating: "No Such Film At All,2001\n", count: WishlistTransfer.maxRows)
        let file = try write(rows, "unknown.csv")
        let start = Date()
        let report = try importing(file, context())
        XCTAssertEqual(report.unmatched.count, WishlistTransfer.maxRows)
        // 83 s before (a scan of the catalogue for each row); the figures are nimbus-bench's --wishlist.
        XCTAssertLessThan(Date().timeIntervalSince(start), 15)
    }

    func testAFiveMegabyteFieldIsCutWithoutCountingItAgainAndAgain() throws {
        let text = "Title,Year\n\"" + String(repeating: "a", count: WishlistTransfer.maxBytes - 20) + "\",1995\n"
        let start = Date()
        let items = try WishlistTransfer.parse(Data(text.utf8))
        XCTAssertEqual(items.first?.title.count, WishlistTransfer.maxFieldLength)
        // 18.5 s before (the field's length counted for each character).
        XCTAssertLessThan(Date().timeIntervalSince(start), 3)
    }
}
