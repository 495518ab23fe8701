import Foundation
import Testing
import PropertyBased
import TestSupport
@testable import NimbusData

/// The feed reader keeps or drops each feature as Foundation's `JSONDecoder` would decode it into
/// the fields' types (`Int` for `tz`, `felt`, `tsunami` and `sig`, `Double` for the rest), over
/// features whose numbers come in every JSON form: whole, fractional, fractional that is whole
/// (`5.0`, `0.5e1`, `12.5e1`), exponents, twenty-digit mantissas, and integers past what a `Double`
/// holds exactly and past `Int`.
///
/// One difference is the reader's on purpose: an integer field beyond ±9×10¹⁵ (where a `Double`
/// stops holding every integer) drops the feature, while `JSONDecoder` reads it exactly up to
/// `Int.max`. No event has a felt count or significance that large; the test allows exactly that.
@Suite struct USGSScannerAgreementTests {
    struct Mirror: Decodable {
        struct Properties: Decodable {
            let mag: Double?, place: String?, time: Double?, updated: Double?, tz: Int?, url: String?, felt: Int?
            let alert: String?, status: String?, tsunami: Int?, sig: Int?, magType: String?, type: String?, title: String?
        }
        struct Geometry: Decodable { let coordinates: [Double] }
        let id: String
        let properties: Properties
        let geometry: Geometry
    }

    /// Number texts: the forms a server may send and the edges of `Int` and of `Double`'s exact integers.
    static let fixed = [
        "0", "7", "-3", "120", "5.0", "5.5", "-2.5", "1e3", "1E0", "-0", "-0.0", "0.5e1", "1.25e1", "12.5e1", "125e-1",
        "4.999999999999999999999", "5.00000000000000000001", "1e-5", "0.1", "9000000000000000", "-9000000000000000",
        "9007199254740993", "1e16", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
        "-9223372036854775809", "99999999999999999999", "1e300", "-1e300", "null",
    ]

    /// A number text from `n`: one of `fixed`, or a random whole, fractional or exponent form.
    static func number(_ n: [Int]) -> String {
        switch n[0] % 4 {
        case 0, 1: return fixed[n[1] % fixed.count]
        case 2:
            let fraction = n[3] % 3 == 0 ? String(repeating: "0", count: 1 + n[2] % 3) : String(n[2] % 1000)
            return "\(n[1] % 2 == 0 ? "-" : "")\(n[1] % 100_000).\(fraction)"
        default:
            return "\(n[1] % 1000)\(n[2] % 2 == 0 ? "" : ".\(n[2] % 10)")e\(n[3] % 2 == 0 ? "-" : "")\(n[3] % 25)"
        }
    }

    static func feature(_ id: Int, tz: String, felt: String, tsunami: String, sig: String, mag: String) -> String {
        #"{"type":"Feature","id":"e\#(id)","properties":{"mag":\#(mag),"place":"x","time":1781996400000,"updated":1781996500000,"tz":\#(tz),"url":"u","felt":\#(felt),"alert":null,"status":"reviewed","tsunami":\#(tsunami),"sig":\#(sig),"magType":"mb","type":"earthquake","title":"t"},"geometry":{"type":"Point","coordinates":[129.21,35.9,10]}}"#
    }

    /// Whether `text`, read as an integer by `JSONDecoder`, is one the reader may drop on purpose.
    static func beyondExactDoubles(_ text: String) -> Bool {
        guard let value = Double(text) else { return false }
        return abs(value) > 9.0e15
    }

    @Test func eachFeatureIsKeptOrDroppedAsJSONDecoderDecodesIt() async throws {
        let input = Gen.int(in: 0...99_999).array(of: 20)
        await propertyCheck(count: PropertyCount.scaled(default: 200), input: input) { n in
            var features: [String] = [], texts: [[String]] = []
            for k in 0..<4 {
                let fields = (0..<5).map { f in Self.number(Array(n[(k * 5 + f) % n.count..<n.count] + n)) }
                texts.append(fields)
                features.append(Self.feature(k, tz: fields[0], felt: fields[1], tsunami: fields[2], sig: fields[3], mag: fields[4]))
            }
            let body = Data(#"{"type":"FeatureCollection","features":[\#(features.joined(separator: ","))]}"#.utf8)
            guard let collection = try? USGSFeedScanner.scan(body) else {
                Issue.record("the feed did not scan: \(features)")
                return
            }
            #expect(collection.features.count == features.count)
            for (k, feature) in features.enumerated() where k < collection.features.count {
                let decoded = try? JSONDecoder().decode(Mirror.self, from: Data(feature.utf8))
                let raw = collection.features[k]
                let integers = Array(texts[k].prefix(4))
                switch (decoded, raw) {
                case (let decoded?, let raw?):
                    let p = decoded.properties
                    // `Int(exactly:)`: a value that is not an integer reads as nil here, not as a trap.
                    func int(_ d: Double?) -> Int? { d.flatMap { Int(exactly: $0) } }
                    #expect(int(raw.tz) == p.tz && int(raw.felt) == p.felt && int(raw.tsunami) == p.tsunami && int(raw.sig) == p.sig
                            && [raw.tz, raw.felt, raw.tsunami, raw.sig].allSatisfy { $0 == nil || int($0) != nil },
                            "integers \(integers): read \([raw.tz, raw.felt, raw.tsunami, raw.sig]), JSONDecoder \([p.tz, p.felt, p.tsunami, p.sig])")
                    #expect(raw.mag == p.mag, "mag \(texts[k][4]): read \(raw.mag as Any), JSONDecoder \(p.mag as Any)")
                case (_?, nil):
                    // Kept by JSONDecoder, dropped here: only for an integer it cannot hold exactly.
                    #expect(integers.contains(where: Self.beyondExactDoubles), "dropped \(texts[k]), which JSONDecoder reads")
                case (nil, let raw?):
                    Issue.record("kept \(texts[k]) as \([raw.tz, raw.felt, raw.tsunami, raw.sig, raw.mag]), which JSONDecoder refuses")
                case (nil, nil):
                    break
                }
            }
        }
    }
}
