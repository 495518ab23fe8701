import Foundation
import Testing
import PropertyBased
import TestSupport
@testable import NimbusData

/// JSON numbers in every form and at every size, well formed or not: signs, leading zeros, missing
/// digits, mantissas of hundreds of digits, exponents past what a `Double` holds either way. The
/// readers (`JSONLexeme.number`, under the warnings' `JSONScanner` and the USGS feed's scanner)
/// accept exactly the numbers Foundation's parser accepts, and read them correctly rounded: as the C
/// library's `strtod` does (through `Double(String)`), and within 10⁻¹⁴ of Foundation's value, which
/// is not always correctly rounded (`107418529630741E10`: Foundation 1.0741852963074099e24, Python,
/// `strtod` and the readers 1.07418529630741e24; `0.000000000000000041`: Foundation
/// 4.099999999999999e-17). The fuzzer found
/// the first difference (`1e999` read as an infinity where Foundation refuses the document);
/// `NIMBUS_PROPERTY_COUNT` raises the number of cases.
@Suite struct JSONNumberPropertyTests {
    /// A number text from `n`: a sign, an integer part, a fraction and an exponent, each chosen
    /// from well-formed and damaged forms, with lengths and exponents around a `Double`'s edges.
    static func text(_ n: [Int]) -> String {
        func digits(_ count: Int, _ salt: Int) -> String {
            String((0..<count).map { Character(String((salt &+ $0 &* 7) % 10)) })
        }
        let sign = ["", "", "-", "+"][n[0] % 4]
        let integer: String
        switch n[1] % 6 {
        case 0: integer = "0"
        case 1: integer = "00"
        case 2: integer = ""
        case 3: integer = "1" + digits(n[2] % 30, n[3])
        case 4: integer = "9" + digits(290 + n[2] % 40, n[3]) // around 10³⁰⁸
        default: integer = String(1 + n[2] % 999_999)
        }
        let fraction: String
        switch n[4] % 5 {
        case 0, 1: fraction = ""
        case 2: fraction = "."
        case 3: fraction = "." + digits(1 + n[5] % 25, n[3])
        default: fraction = "." + String(repeating: "0", count: n[5] % 400) + digits(1 + n[5] % 5, n[3])
        }
        let exponent: String
        switch n[6] % 7 {
        case 0, 1: exponent = ""
        case 2: exponent = ["e", "E+", "e-"][n[7] % 3]
        case 3: exponent = ["e", "E", "e+", "e-"][n[7] % 4] + String(n[8] % 30)
        case 4: exponent = ["e", "e-"][n[7] % 2] + String(280 + n[8] % 60) // around ±308 and 324
        case 5: exponent = ["e", "e-"][n[7] % 2] + String(n[8] % 100_000)
        default: exponent = "e" + String(repeating: "0", count: n[7] % 4) + String(n[8] % 400)
        }
        return sign + integer + fraction + exponent
    }

    /// What Foundation reads `text` as, alone in an array: nil when it refuses it.
    static func foundation(_ text: String) -> Double? {
        guard let array = try? JSONSerialization.jsonObject(with: Data("[\(text)]".utf8)) as? [Any],
              array.count == 1, let number = array[0] as? NSNumber else { return nil }
        return number.doubleValue
    }

    /// What the readers read `text` as: nil when they refuse it, or when it is not all one number.
    static func ours(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buffer -> Double? in
            var position = 0
            guard let value = try? JSONLexeme.number(buffer, at: &position), position == buffer.count else { return nil }
            return value
        }
    }

    @Test func numbersAreReadAsFoundationReadsThem() async {
        await propertyCheck(count: PropertyCount.scaled(default: 2_000), input: Gen.int(in: 0...999_999).array(of: 9)) { n in
            let text = Self.text(n)
            let theirs = Self.foundation(text), mine = Self.ours(text)
            let shown = text.count > 80 ? String(text.prefix(40)) + "…" + String(text.suffix(40)) : text
            #expect((mine == nil) == (theirs == nil), "\(shown): read \(mine as Any), Foundation \(theirs as Any)")
            if let mine, let theirs {
                #expect(mine == Double(text), "\(shown): read \(mine), strtod \(Double(text) as Any)")
                #expect(mine == theirs || abs(mine - theirs) <= abs(mine) * 1e-14,
                        "\(shown): read \(mine), Foundation \(theirs)")
            }
            // The feed's scanner takes or refuses the whole document as Foundation does.
            let feed = Data(#"{"type":"FeatureCollection","metadata":{"generated":\#(text)},"features":[]}"#.utf8)
            let scanned = (try? USGSFeedScanner.scan(feed)) != nil
            let parsed = (try? JSONSerialization.jsonObject(with: feed)) != nil
            #expect(scanned == parsed, "a feed generated at \(text.prefix(60)): scanned \(scanned), Foundation \(parsed)")
        }
    }

    /// The cases the fuzzer and this property found, kept as examples.
    @Test(arguments: ["1e999", "-1e999", "1e309", "9" + String(repeating: "9", count: 400), "1e99999999999999999999"])
    func numbersPastADoubleAreRefused(_ text: String) {
        #expect(Self.ours(text) == nil)
        #expect(Self.foundation(text) == nil)
    }
}
