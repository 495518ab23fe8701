import XCTest
import TestSupport
@testable import NimbusData

/// Each warnings source's answers at their size caps, the worst shapes we know of, asked for through
/// the live repository and HTTP client in a process of its own (`warnings-peak`, which reads its own
/// VmHWM just before it exits): at most 150 MB each, and a few parts of JMA's geometry at most for
/// one city. The numbers are printed for the notes. The slowest shapes (a debug build takes seconds
/// over tens of megabytes) run with `NIMBUS_PEAK_ALL=1`; the others on every run.
final class WarningsPeakMemoryTests: XCTestCase {
    /// The budget for any one answer, the program around it included.
    static let limit = 150 << 20
    /// Every shape, or only the quicker ones.
    static let all = ProcessInfo.processInfo.environment["NIMBUS_PEAK_ALL"] == "1"

    private let tool = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("warnings-peak").path
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("nimbus-peak-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
    }

    private struct Measured {
        let peak: Int
        let result: String
        let requests: Int
    }

    /// Runs the tool for `source` with `files` (request path → body) served; its peak and answer.
    private func measure(_ label: String, _ source: String, _ files: [String: Data]) throws -> Measured {
        let served = folder.appendingPathComponent(label)
        try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
        for (path, body) in files {
            try body.write(to: served.appendingPathComponent(path.replacingOccurrences(of: "/", with: "_")))
        }
        let run = try ChildProcess.run(tool, [source, served.path], environment: ["PATH": "/usr/bin:/bin", "HOME": folder.path],
                                       timeout: 180)
        XCTAssertFalse(run.timedOut, label)
        XCTAssertEqual(run.status, 0, "\(label): \(run.stderr)")
        func field(_ name: String) -> String {
            run.stdout.split(separator: "\n").first { $0.hasPrefix(name + ": ") }.map { String($0.dropFirst(name.count + 2)) } ?? ""
        }
        let size = files.values.map(\.count).max() ?? 0
        // The tool's own VmHWM, read by it just before it exits.
        let peak = (Int(field("VmHWM").split(separator: " ").first ?? "") ?? Int.max / 2048) * 1024
        let measured = Measured(peak: peak, result: field("result"), requests: Int(field("requests")) ?? -1)
        print(String(format: "peak %@: %.1f MB (largest body %.1f MB, %d requests): %@, before the request %@",
                     label, Double(measured.peak) / 1_048_576, Double(size) / 1_048_576, measured.requests, measured.result,
                     field("VmHWM before")))
        // Not under AddressSanitizer (`Sanitizers.address`): its shadow, red zones and quarantine are
        // in the peak (JMA's 48 MB geometry peaks at 178 MB even without the quarantine); the answers
        // are still read there, for what it checks.
        if !Sanitizers.address {
            XCTAssertLessThanOrEqual(measured.peak, Self.limit, "\(label): \(measured.peak / 1_048_576) MB")
        }
        return measured
    }

    /// `prefix`, then `item(i)` for i = 0, 1, … joined by `separator` while the whole stays under `limit` bytes, then `suffix`.
    private func filled(_ prefix: String, _ suffix: String, limit: Int, separator: String = ",", _ item: (Int) -> String) -> Data {
        var out = Data(prefix.utf8)
        out.reserveCapacity(limit)
        var i = 0
        while true {
            let piece = Data(((i == 0 ? "" : separator) + item(i)).utf8)
            guard out.count + piece.count + suffix.utf8.count <= limit else { break }
            out.append(piece)
            i += 1
        }
        out.append(Data(suffix.utf8))
        return out
    }

    // MARK: The NWS

    func testTheNWSAtItsCap() throws {
        let cap = NWSWarnings.maxBytes
        _ = try measure("nws-empty-features", "nws", [
            "/alerts/active": filled(#"{"type":"FeatureCollection","features":["#, "]}", limit: cap) { _ in "{}" },
        ])
        _ = try measure("nws-empty-properties", "nws", [
            "/alerts/active": filled(#"{"type":"FeatureCollection","features":["#, "]}", limit: cap) { _ in #"{"properties":{}}"# },
        ])
        // Real alerts, each its own (ids differ): far more than any point has.
        let real = try JSONSerialization.jsonObject(with: WarningsFixtures.data("nws-active.json")) as! [String: Any]
        let feature = String(decoding: try JSONSerialization.data(withJSONObject: (real["features"] as! [Any])[0]), as: UTF8.self)
        let id = "urn:oid:2.49.0.1.840.0.6f1c5b2e0a8d4c7e9b3a1d2c4e5f6a7b8c9d0e1f.001.1"
        _ = try measure("nws-real-alerts", "nws", [
            "/alerts/active": filled(#"{"type":"FeatureCollection","features":["#, "]}", limit: cap) { i in
                feature.replacingOccurrences(of: id, with: "\(id).\(i)")
            },
        ])
        // Strings: one 4 MB description.
        _ = try measure("nws-one-huge-string", "nws", [
            "/alerts/active": Data((#"{"type":"FeatureCollection","features":[{"properties":{"event":"x","id":"a","expires":"2026-01-16T04:00:00-08:00","description":""#
                                    + String(repeating: "e\u{301}", count: (cap - 300) / 3) + #""}}]}"#).utf8),
        ])
    }

    // MARK: JMA

    /// JMA's files for Tokyo from the fixtures, with `replace` put over them.
    private func jma(_ replace: [String: Data]) -> [String: Data] {
        var files: [String: Data] = [
            "/bosai/common/const/relm.json": WarningsFixtures.data("jma-relm.json"),
            "/bosai/common/const/geojson/class20s_0.json": WarningsFixtures.data("jma-class20s_0.json"),
            "/bosai/common/const/geojson/class20s_1.json": WarningsFixtures.data("jma-class20s_1.json"),
            "/bosai/common/const/area.json": WarningsFixtures.data("jma-area.json"),
            "/bosai/warning/data/warning/130000.json": WarningsFixtures.data("jma-warning-130000.json"),
        ]
        for (path, body) in replace { files[path] = body }
        return files
    }

    /// A polygon feature of `points` vertices around (lat, lon), with a seven-digit code.
    private func polygon(code: Int, lat: Double, lon: Double, points: Int) -> String {
        var ring: [String] = []
        for k in 0..<points {
            let angle = Double(k) / Double(points - 1) * 2 * .pi
            ring.append(String(format: "[%.6f, %.6f]", lon + 0.05 * cos(angle), lat + 0.05 * sin(angle)))
        }
        return #"{"type": "Feature", "properties": {"code": "\#(String(format: "%07d", code))", "name": "x"}, "geometry": {"type": "Polygon", "coordinates": [["# + ring.joined(separator: ", ") + "]]}}"
    }

    func testJMAAtItsCaps() throws {
        let cap = JMAWarnings.maxTableBytes
        let part1 = "/bosai/common/const/geojson/class20s_1.json"
        let tokyoFeature = String(decoding: WarningsFixtures.data("jma-class20s_1.json"), as: UTF8.self)
        _ = try measure("jma-geometry-empty-features", "jma", jma([
            part1: filled(#"{"type":"FeatureCollection","features":["#, "]}", limit: cap) { _ in "{}" },
        ]))
        if Self.all { try jmaLargeGeometryAndTable(part1: part1, tokyoFeature: tokyoFeature, cap: cap) }
        // The report at its cap: thousands of areas.
        let report = "/bosai/warning/data/warning/130000.json"
        _ = try measure("jma-report-areas", "jma", jma([
            report: filled(#"{"reportDatetime":"2026-01-15T16:00:00+09:00","areaTypes":[{"areas":["#, "]}]}", limit: JMAWarnings.maxReportBytes) { i in
                #"{"code":"\#(String(format: "%07d", 4_000_000 + i))","warnings":[{"code":"14","status":"発表"},{"code":"15","status":"継続"}]}"#
            },
        ]))
        _ = try measure("jma-report-empty-objects", "jma", jma([
            report: filled(#"{"reportDatetime":"2026-01-15T16:00:00+09:00","areaTypes":["#, "]}", limit: JMAWarnings.maxReportBytes) { _ in "{}" },
        ]))
        // A thousand boxes, every one around Tokyo: a few parts are fetched, not a thousand.
        let boxes = "[" + Array(repeating: #"{"ne": [36.0, 140.0], "sw": [35.0, 139.0]}"#, count: 1_000).joined(separator: ", ") + "]"
        var empty = jma(["/bosai/common/const/relm.json": Data(boxes.utf8)])
        for part in 0..<1_000 {
            empty["/bosai/common/const/geojson/class20s_\(part).json"] = Data(#"{"type":"FeatureCollection","features":[]}"#.utf8)
        }
        let many = try measure("jma-relm-1000-boxes", "jma", empty)
        XCTAssertLessThanOrEqual(many.requests, 1 + JMAGeometry.maxParts, "parts fetched for one city")
    }

    /// 40 MB of 500-point polygons before Tokyo's, and an area table of 48 MB.
    private func jmaLargeGeometryAndTable(part1: String, tokyoFeature: String, cap: Int) throws {
        // 40 MB of 500-point polygons elsewhere in Japan, then the real part's features (Tokyo's among them).
        let real = try JSONSerialization.jsonObject(with: Data(tokyoFeature.utf8)) as! [String: Any]
        let realFeatures = (real["features"] as! [Any]).map { String(decoding: try! JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }
        var polygons = filled(#"{"type":"FeatureCollection","features":["#, "", limit: 40 << 20) { i in
            polygon(code: 2_000_000 + i, lat: 43 + Double(i % 100) * 0.01, lon: 142, points: 500)
        }
        polygons.append(Data(("," + realFeatures.joined(separator: ",") + "]}").utf8))
        let found = try measure("jma-geometry-polygons", "jma", jma([part1: polygons]))
        XCTAssertEqual(found.result, "2 warnings", "Tokyo's area found after 40 MB of others")
        // The area table at its cap: tens of thousands of made-up areas, then the real ones.
        var table = try JSONSerialization.jsonObject(with: WarningsFixtures.data("jma-area.json")) as! [String: Any]
        let realClass20s = String(decoding: try JSONSerialization.data(withJSONObject: table.removeValue(forKey: "class20s")!), as: UTF8.self)
        let rest = String(decoding: try JSONSerialization.data(withJSONObject: table), as: UTF8.self)
        var tableText = filled(#"{"class20s":{"#, "", limit: cap - 8192) { i in
            #""\#(String(format: "%07d", 3_000_000 + i))":{"name":"町\#(i)","enName":"Town","parent":"0000000"}"#
        }
        tableText.append(Data(("," + realClass20s.dropFirst() + "," + rest.dropFirst()).utf8))
        let tabled = try measure("jma-area-table", "jma", jma(["/bosai/common/const/area.json": tableText]))
        XCTAssertEqual(tabled.result, "2 warnings", "the real area after the made-up ones")
    }

    // MARK: MeteoAlarm

    func testMeteoAlarmAtItsCaps() throws {
        let cap = MeteoAlarmWarnings.maxFeedBytes
        let feedPath = "/feeds/meteoalarm-legacy-atom-germany"
        let documentPath = "/api/v1/warnings/feeds-germany/5d3c0a51-1e2b-4f7a-9c8d-0a1b2c3d4e5f"
        let fixture = String(decoding: WarningsFixtures.data("meteoalarm-germany.xml", base: "http://127.0.0.1:9"), as: UTF8.self)
        let head = String(fixture[..<fixture.range(of: "<entry>")!.lowerBound])
        let entry = String(fixture[fixture.range(of: "<entry>")!.lowerBound..<fixture.range(of: "</entry>")!.upperBound])
        let document = WarningsFixtures.data("meteoalarm-cap-berlin-wind.xml")
        // The most elements the reader takes, each with attributes.
        _ = try measure("meteoalarm-feed-attributes", "meteoalarm", [
            feedPath: filled(head + "<entry>", "</entry></feed>", limit: cap, separator: "") { i in
                "<link a=\"\(i)\" b=\"\" c=\"\" d=\"\" e=\"\" f=\"\" g=\"\" h=\"\" i=\"\" j=\"\" k=\"\" l=\"\"/>"
            },
        ])
        // Eight matching entries whose CAP documents are each at their cap.
        let bigDocument = String(decoding: document, as: UTF8.self).replacingOccurrences(
            of: "<description>", with: "<description>" + String(repeating: "x", count: MeteoAlarmWarnings.maxDocumentBytes - document.count - 64))
        var files: [String: Data] = [:]
        let entries = (0..<MeteoAlarmWarnings.maxDocuments).map { i -> String in
            files["/api/v1/warnings/feeds-germany/doc\(i)"] = Data(bigDocument.utf8)
            return entry.replacingOccurrences(of: "1a2b3c4d-0001", with: "d\(i)")
                .replacingOccurrences(of: "5d3c0a51-1e2b-4f7a-9c8d-0a1b2c3d4e5f", with: "doc\(i)")
        }
        files[feedPath] = Data((head + entries.joined(separator: "\n") + "</feed>").utf8)
        _ = try measure("meteoalarm-documents", "meteoalarm", files)
        guard Self.all else { return }
        // Entries for Berlin, each its own warning, to the size cap (past the element limit).
        _ = try measure("meteoalarm-feed-entries", "meteoalarm", [
            feedPath: filled(head, "</feed>", limit: cap, separator: "\n") { i in
                entry.replacingOccurrences(of: "1a2b3c4d-0001", with: "1a2b3c4d-\(i)")
            },
            documentPath: document,
        ])
        // As many entries as the reader's element limit lets through.
        let accepted = try measure("meteoalarm-feed-7000-entries", "meteoalarm", [
            feedPath: Data((head + (0..<7_000).map { entry.replacingOccurrences(of: "1a2b3c4d-0001", with: "e\($0)") }
                .joined(separator: "\n") + "</feed>").utf8),
            documentPath: document,
        ])
        XCTAssertEqual(accepted.result, "50 warnings")
        // Entries with 2,000-vertex polygons, to the size cap.
        _ = try measure("meteoalarm-feed-polygons", "meteoalarm", [
            feedPath: filled(head, "</feed>", limit: cap, separator: "\n") { i in
                let ring = (0..<2_000).map { k in String(format: "%.4f,%.4f", 52 + Double(k % 50) * 0.001, 13 + Double(k / 50) * 0.001) }
                return entry.replacingOccurrences(of: "<cap:areaDesc>", with: "<cap:polygon>" + ring.joined(separator: " ") + "</cap:polygon><cap:areaDesc>")
                    .replacingOccurrences(of: "1a2b3c4d-0001", with: "p\(i)")
            },
        ])
    }
}
