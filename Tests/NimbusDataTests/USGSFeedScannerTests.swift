import XCTest
import NimbusDomain
@testable import NimbusData

/// The feed reader: strict JSON, each feature typed on its own, only the newest events' text made.
final class USGSFeedScannerTests: XCTestCase {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tapes/fixtures/usgs-2.5_day.geojson")

    private func feature(id: String = "\"a\"", mag: String = "5.1", place: String = "\"23 km SW of Pohang\"",
                         time: String = "1781996400000", extra: String = "", coordinates: String = "[129.21, 35.9, 10]") -> String {
        #"{"type":"Feature","id":\#(id),"properties":{"mag":\#(mag),"place":\#(place),"time":\#(time),"updated":1781996500000,"tz":null,"url":"https://earthquake.usgs.gov/x","felt":120,"alert":"green","status":"reviewed","tsunami":0,"sig":420,"magType":"mb","type":"earthquake","title":"M 5.1"\#(extra)},"geometry":{"type":"Point","coordinates":\#(coordinates)}}"#
    }

    private func feed(_ features: [String], metadata: String = #"{"generated":1781998000000,"count":1}"#) -> Data {
        Data(#"{"type":"FeatureCollection","metadata":\#(metadata),"features":[\#(features.joined(separator: ","))],"bbox":[1,2,3]}"#.utf8)
    }

    private func decode(_ body: Data) -> Result<QuakeFeedSnapshot, QuakeError> {
        Result { try USGSFeedDTO.decode(body) }.mapError { $0 as? QuakeError ?? .badResponse }
    }

    func testTheFixtureReadsAsItDid() throws {
        let snapshot = try USGSFeedDTO.decode(Data(contentsOf: Self.fixture))
        XCTAssertEqual(snapshot.quakes.map(\.id), ["us7000bad3", "us7000pk01", "us7000pk02", "us7000pk03", "ci40000001"])
        XCTAssertEqual(snapshot.dropped, 3)
        XCTAssertNotNil(snapshot.generated)
    }

    func testEachFieldIsTakenAsJSONSaysIt() throws {
        let snapshot = try decode(feed([feature(place: #""M\u00e9xico \"Norte\" \ud83c\udf0b\n\/""#, extra: #","unknown":{"deep":[1,[2,{"x":null}]],"t":true}"#)])).get()
        let quake = try XCTUnwrap(snapshot.quakes.first)
        XCTAssertEqual(quake.place, "México \"Norte\" 🌋 /", "escapes decoded, the line break made a space")
        XCTAssertEqual(quake.magnitude, 5.1)
        XCTAssertEqual(quake.coordinate, Coordinate(latitude: 35.9, longitude: 129.21))
        XCTAssertEqual(quake.depthKilometres, 10)
        XCTAssertEqual(quake.felt, 120)
        XCTAssertEqual(quake.significance, 420)
        XCTAssertEqual(quake.alert, .green)
        XCTAssertEqual(quake.kind, "earthquake")
        XCTAssertEqual(quake.magnitudeType, "mb")
        XCTAssertTrue(quake.reviewed)
        XCTAssertEqual(quake.time, Date(timeIntervalSince1970: 1_781_996_400))
        XCTAssertEqual(snapshot.generated, Date(timeIntervalSince1970: 1_781_998_000))
        // Numbers in every JSON form, read exactly.
        for (text, value) in [("5.1", 5.1), ("-1.25e0", -1.25), ("4E0", 4.0), ("0.1", 0.1), ("45e-1", 4.5), ("3.000000000000000001", 3.0)] {
            XCTAssertEqual(try decode(feed([feature(mag: text)])).get().quakes.first?.magnitude, value, text)
        }
    }

    func testAFeatureOfTheWrongTypesIsDroppedAndCountedTheOthersStay() throws {
        let bad = [
            feature(id: "\"m\"", mag: "\"5.1\""),                       // a magnitude that is a string
            feature(id: "7"),                                           // an id that is a number
            feature(id: "\"c\"", coordinates: "[129, null, 10]"),        // a coordinate that is null
            feature(id: "\"t\"", extra: #","tz":1.5"#),                  // a time zone that is not whole
            feature(id: "\"p\"", place: "[\"x\"]"),                      // a place that is a list
            #"{"id":"g","properties":{"mag":3,"time":1781996400000},"geometry":null}"#,
            #"{"id":"q","geometry":{"coordinates":[1,2]}}"#,             // no properties
            "42", "null", "[1,2]",
            feature(id: "\"r\"", mag: "11"),                             // no earthquake is that strong
            feature(id: "\"\\u0007\\u202e\""),                           // an id of nothing once sanitised
        ]
        let snapshot = try decode(feed(bad + [feature(id: "\"ok\"")])).get()
        XCTAssertEqual(snapshot.quakes.map(\.id), ["ok"])
        XCTAssertEqual(snapshot.dropped, bad.count)
    }

    func testWhatIsNotACollectionOrNotJSONIsABadResponse() {
        let ok = String(decoding: feed([feature()]), as: UTF8.self)
        var bodies = [
            "", "[]", "null", "{}", #"{"type":"FeatureCollection"}"#, #"{"type":"Feature","features":[]}"#,
            #"{"type":"FeatureCollection","features":null}"#, #"{"type":7,"features":[]}"#,
            #"{"type":"FeatureCollection","metadata":{"generated":"soon"},"features":[]}"#,
            String(ok.dropLast()), ok + "x", ok + ",", ok.replacingOccurrences(of: "\"mag\":5.1", with: "\"mag\":05.1"),
            ok.replacingOccurrences(of: "\"mag\":5.1", with: "\"mag\":5."),
            ok.replacingOccurrences(of: "\"mag\":5.1", with: "\"mag\":+5"),
            ok.replacingOccurrences(of: "\"mag\":5.1", with: "mag:5.1"),
            ok.replacingOccurrences(of: "\"mag\":5.1", with: "\"mag\":5.1,"),
            ok.replacingOccurrences(of: "Pohang", with: "Po\u{01}hang"),
            ok.replacingOccurrences(of: "Pohang", with: "Po\\xhang"),
            ok.replacingOccurrences(of: "Pohang", with: "Po\\ud800hang"),
            ok.replacingOccurrences(of: "\"bbox\":[1,2,3]", with: "\"bbox\":tru"),
            ok.replacingOccurrences(of: "\"bbox\":[1,2,3]", with: "\"bbox\":[1,2,3"),
        ]
        // Nesting a hostile server might send: refused, not a crash.
        bodies.append(ok.replacingOccurrences(of: "\"bbox\":[1,2,3]",
                                              with: "\"bbox\":" + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)))
        for body in bodies {
            XCTAssertEqual(decode(Data(body.utf8)), .failure(.badResponse), String(body.prefix(120)))
        }
        XCTAssertEqual(try decode(feed([], metadata: "null")).get().quakes, [], "no metadata is fine")
    }

    func testTheNewestAreKeptOnePerIdAndTheLaterUpdateWins() throws {
        var features = (0..<600).map { i in feature(id: "\"e\(i)\"", time: String(1_781_000_000_000 + i * 60_000)) }
        features += (0..<10).map { _ in feature(mag: "null") }
        // The same event twice: the one updated later stands, wherever it comes.
        let newer = feature(id: "\"e599\"", time: String(1_781_000_000_000 + 599 * 60_000), extra: #","felt":9999"#)
            .replacingOccurrences(of: "\"updated\":1781996500000", with: "\"updated\":1781999999999")
        features.insert(newer, at: 0)
        let snapshot = try decode(feed(features)).get()
        XCTAssertEqual(snapshot.quakes.count, QuakeFeedSnapshot.limit)
        XCTAssertEqual(snapshot.quakes.first?.id, "e599")
        XCTAssertEqual(snapshot.quakes.first?.felt, 9999)
        XCTAssertEqual(snapshot.quakes.last?.id, "e100")
        XCTAssertEqual(snapshot.dropped, 10)
    }

    /// The reader agrees with Foundation's JSON parser about what is JSON, over damaged copies of the fixture.
    func testItAcceptsExactlyWhatFoundationDoesOnDamagedFeeds() throws {
        let original = Array(try Data(contentsOf: Self.fixture))
        var seed: UInt64 = 7
        func next(_ n: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(n))
        }
        let inserts: [UInt8] = Array("{}[],:\"\\0-1.eE tnf".utf8)
        var disagreements: [String] = []
        for round in 0..<400 {
            var bytes = original
            for _ in 0...next(3) {
                let at = next(bytes.count)
                switch next(3) {
                case 0: bytes.remove(at: at)
                case 1: bytes.insert(inserts[next(inserts.count)], at: at)
                default: bytes[at] = inserts[next(inserts.count)]
                }
            }
            let data = Data(bytes)
            let foundation = (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil
            let ours: Bool
            do { _ = try USGSFeedScanner.scan(data); ours = true } catch { ours = false }
            if foundation != ours { disagreements.append("round \(round): Foundation \(foundation), scanner \(ours)") }
        }
        XCTAssertEqual(disagreements, [])
    }
}
