import Foundation
import Testing
import PropertyBased
import NimbusDomain
@testable import NimbusData
import TestSupport

/// Mutated answers of every warnings service and of the archive: each decodes or fails with a typed
/// error, quickly; never traps; and what decodes is clean, cut to size and believable.
@Suite struct WarningsDecoderPropertyTests {
    static let mutations = Gen.int().array(of: 1...6)
    static let nws = WarningsFixtures.data("nws-active.json")
    static let jmaReport = WarningsFixtures.data("jma-warning-130000.json")
    static let jmaArea = WarningsFixtures.data("jma-area.json")
    static let jmaGeometry = WarningsFixtures.data("jma-class20s_1.json")
    static let jmaRelm = WarningsFixtures.data("jma-relm.json")
    static let feed = WarningsFixtures.data("meteoalarm-germany.xml")
    static let ukFeed = WarningsFixtures.data("meteoalarm-united-kingdom.xml")
    static let document = WarningsFixtures.data("meteoalarm-cap-berlin-wind.xml")
    static let archive = YesterdayAndNormalsTests.archiveAnswer().0
    static let tokyo = JMAArea(class20: "1310400", office: "130000", name: "新宿区")

    static func check(_ warnings: [WeatherWarning]) {
        #expect(warnings.count <= WarningText.maxWarnings)
        for w in warnings {
            #expect(!w.event.isEmpty && w.event.unicodeScalars.count <= WarningText.line)
            #expect(!w.id.isEmpty && w.id.unicodeScalars.count <= WarningText.id)
            for text in [w.event, w.headline, w.sender, w.description, w.instruction, w.language].compactMap({ $0 }) {
                #expect(text.unicodeScalars.count <= WarningText.body)
                #expect(!text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value)
                    || (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) })
            }
            for date in [w.effective, w.onset, w.expires].compactMap({ $0 }) {
                #expect(WeatherWarning.believableTimes.contains(date))
            }
            if let expires = w.expires, let start = [w.effective, w.onset].compactMap({ $0 }).min() {
                #expect(expires >= start && expires.timeIntervalSince(start) <= WeatherWarning.longestValidity)
            }
            #expect(w.source != .jma || w.expires == nil)
            #expect(w.source == .jma || w.expires != nil)
        }
    }

    static func typed(_ error: Error) {
        #expect(error is WarningsError)
    }

    @Test func mutatedNWSAnswersDecodeOrFailTyped() async {
        await propertyCheck(count: PropertyCount.scaled(default: 80), input: Self.mutations) { seeds in
            let body = Mutator(seeds: seeds).mutate(Self.nws)
            ThreadTime.within(3) {
                do { Self.check(try NWSWarnings.decode(body)) } catch { Self.typed(error) }
            }
        }
    }

    @Test func mutatedJMAAnswersDecodeOrFailTyped() async {
        await propertyCheck(count: PropertyCount.scaled(default: 80), input: Self.mutations) { seeds in
            let mutator = Mutator(seeds: seeds)
            let report = mutator.mutate(Self.jmaReport), area = mutator.mutate(Self.jmaArea)
            let geometry = mutator.mutate(Self.jmaGeometry), relm = mutator.mutate(Self.jmaRelm)
            let point = Coordinate(latitude: 35.6895, longitude: 139.69171)
            ThreadTime.within(3) {
                do { Self.check(try JMAReport.warnings(report, area: Self.tokyo)) } catch { Self.typed(error) }
                do {
                    let found = try JMATable.area(class20: "1310400", table: area)
                    #expect(JMAArea.code(found.office, digits: 6...6) != nil)
                } catch { Self.typed(error) }
                do {
                    if let code = try JMAGeometry.area(containing: point, features: geometry) { #expect(JMAArea.code(code, digits: 7...7) != nil) }
                } catch { Self.typed(error) }
                do { #expect(try JMAGeometry.parts(containing: point, relm: relm).allSatisfy { $0 >= 0 && $0 < 1_000 }) } catch { Self.typed(error) }
            }
        }
    }

    @Test func mutatedMeteoAlarmFeedsAndDocumentsParseOrFailTyped() async {
        await propertyCheck(count: PropertyCount.scaled(default: 120), input: Self.mutations) { seeds in
            var bytes = ByteMutator(seeds: seeds)
            let feed = bytes.mutate(seeds.count % 2 == 0 ? Self.feed : Self.ukFeed)
            let document = bytes.mutate(Self.document)
            ThreadTime.within(3) {
                let parsed = try? MeteoAlarmFeed.document(document)
                do {
                    let entries = try MeteoAlarmFeed.entries(feed)
                    let matching = MeteoAlarmFeed.matching(entries, codes: ["DE202"], point: Coordinate(latitude: 51.5, longitude: -0.12))
                    Self.check(try WarningChecks.kept(matching.compactMap { $0.warning(document: parsed) }, of: 0))
                } catch { Self.typed(error) }
            }
        }
    }

    @Test func mutatedArchivesMakeBelievableNormalsOrFailTyped() async {
        await propertyCheck(count: PropertyCount.scaled(default: 30), input: Self.mutations) { seeds in
            let body = Mutator(seeds: seeds).mutate(Self.archive)
            ThreadTime.within(5) {
                do {
                    let normals = try ArchiveDTO.normals(body, at: Coordinate(latitude: 37.5, longitude: 127))
                    #expect(normals.days.count == 366)
                    #expect(normals.days.allSatisfy { (-100...70).contains($0.high) && (-100...70).contains($0.low) && $0.low <= $0.high })
                } catch {
                    #expect(error is ClimateError)
                }
            }
        }
    }
}

/// Byte-level mutations for XML: cut, repeat, splice in markup and references, corrupt bytes.
struct ByteMutator {
    private var random: Mutator
    private let count: Int

    init(seeds: [Int]) {
        random = Mutator(seeds: seeds)
        count = seeds.count
    }

    static let pieces = ["<", ">", "</entry>", "<entry>", "&amp;", "&#0;", "&#x1B;", "&bogus;", "<![CDATA[", "]]>", "<!--",
                         "<!DOCTYPE x>", "\"", "'", "\u{202E}", "\u{1B}[2J", "9999-12-31T00:00:00Z", "NaN", "1e308",
                         "<cap:expires>2099-01-01T00:00:00Z</cap:expires>", "<cap:polygon>90,180 -90,-180 0,0</cap:polygon>",
                         "<cap:geocode><valueName>EMMA_ID</valueName><value>DE202</value></cap:geocode>",
                         String(repeating: "<a>", count: 100), String(repeating: "x", count: 30_000)]

    mutating func mutate(_ data: Data) -> Data {
        var bytes = [UInt8](data)
        for _ in 0..<count {
            guard !bytes.isEmpty else { break }
            let at = random.below(bytes.count)
            switch random.below(5) {
            case 0: bytes.removeSubrange(at..<min(bytes.count, at + random.below(200)))
            case 1: bytes.insert(contentsOf: Array(Self.pieces[random.below(Self.pieces.count)].utf8), at: at)
            case 2: bytes[at] = UInt8(random.below(256))
            case 3:
                let end = min(bytes.count, at + random.below(2_000))
                bytes.insert(contentsOf: Array(bytes[at..<end]), at: end)
            default: bytes.removeSubrange(at..<bytes.count)
            }
        }
        return Data(bytes)
    }
}
