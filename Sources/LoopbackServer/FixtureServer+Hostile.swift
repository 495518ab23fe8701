import Foundation

extension FixtureServer {
    /// Answers meant to hurt a client, each built from a well-formed fixture body.
    public enum Hostile: String, CaseIterable, Sendable {
        /// Terminal escape sequences (CSI, OSC title, hyperlink, bidi override) in every string field.
        case escapesInStrings
        /// Invalid UTF-8 bytes inside every string field.
        case invalidUTF8
        /// Every number ±1e308 (alternating).
        case extremeNumbers
        /// Every number a bare `NaN`, `Infinity` or `-Infinity` (not JSON, but some servers send it).
        case nanAndInfinity
        /// 100,000 nested arrays.
        case nestingBomb
        /// A string of 300,000 letter + combining-mark pairs.
        case hugeStrings
        /// 64 MiB of body, announced.
        case hugeBody
        /// A Content-Length larger than the body sent.
        case lyingLength
        /// A gzip body that inflates to 64 MiB of zeros (`HostileHTTPTests` tries larger ones).
        case gzipBomb
        /// The body a byte at a time, slower than any deadline.
        case slowDrip
        /// The connection reset halfway through the body.
        case resetMidBody
        /// A redirect to the same path on `localhost` at another port (another origin).
        case redirectToOtherHost
        /// A redirect to `file:///etc/passwd`.
        case redirectToFile
        case notModified304
        case tooManyRequests429
        case serverError500
        case unauthorized401
        // A batch (a JSON array of per-place items, as Open-Meteo answers several places): an answer
        // that is not an array is sent as it is.
        /// The items in reverse order.
        case batchReversed
        /// The second item's `current` is `null`.
        case batchCurrentNull
        /// The second item's current temperature is a string.
        case batchStringTemperature
        /// The second item's `daily` has empty lists.
        case batchEmptyDaily
        /// The second item is `null`.
        case batchNullItem
        /// An item for a place nobody asked about, added at the end.
        case batchExtraItem
        /// Characters a terminal cannot print with a known width in every string field: the line and
        /// paragraph separators, an unassigned code point, noncharacters, a tag, a lone regional indicator.
        case invisibleCharacters
        /// 20,000 empty objects at the end of every array: what a decoder that builds every element
        /// pays for (the NWS's 4 MB of `{}` took 650 MB).
        case emptyObjectsInArrays
        /// A redirect to the same URL, for ever (the same origin, so it is followed).
        case redirectLoop
        /// Every number at the edge of the physical ranges: positive ones 69.9, negative ones −99.9
        /// (each believable alone, not all together: the archive's normals then say "62° below normal").
        case edgeOfRangeNumbers
    }

    /// What `invisibleCharacters` puts before and after every string.
    public static let invisible: (before: String, after: String) = (
        scalars([0x2028, 0x0378, 0xFFFF]), scalars([0xFDD0, 0xE0001, 0x1F1F0, 0x2029]))

    private static func scalars(_ values: [UInt32]) -> String {
        String(String.UnicodeScalarView(values.compactMap(Unicode.Scalar.init)))
    }

    /// The item the batch modes spoil (the first when there is only one).
    public static func spoiled(_ count: Int) -> Int { min(1, count - 1) }

    /// The answer `mode` makes of `fixture` (a JSON body the client would accept); `otherPort` is where
    /// redirects to another host point.
    public static func hostile(_ mode: Hostile, fixture: Data, otherPort: UInt16 = 9) -> Response {
        switch mode {
        case .escapesInStrings:
            return Response(body: rewrite(fixture, string: { "\u{1B}[2J\u{1B}]0;pwned\u{07}\u{1B}]8;;http://x\u{1B}\\" + $0 + "\u{202E}\u{9B}31m" }))
        case .invalidUTF8:
            return Response(body: replacing(rewrite(fixture, string: { "\u{E000}" + $0 }), "\u{E000}", with: [0xC3, 0x28, 0xFF, 0xFE, 0xED, 0xA0, 0x80]))
        case .extremeNumbers:
            var flip = false
            return Response(body: rewrite(fixture, number: { _ in flip.toggle(); return flip ? "1e308" : "-1e308" }))
        case .nanAndInfinity:
            let words = ["NaN", "Infinity", "-Infinity"]
            var n = 0
            return Response(body: rewrite(fixture, number: { _ in n += 1; return words[n % 3] }))
        case .nestingBomb:
            return Response(body: Data(String(repeating: "[", count: 100_000).utf8) + Data(String(repeating: "]", count: 100_000).utf8))
        case .hugeStrings:
            // One string of 300,000 letter + mark pairs (under the size caps), the rest as they were.
            var first = true
            return Response(body: rewrite(fixture, string: { text in
                defer { first = false }
                return first ? String(repeating: "e\u{301}", count: 300_000) : text
            }))
        case .hugeBody:
            return Response(behaviour: .huge(bytes: 64 << 20, announced: true))
        case .lyingLength:
            return Response(body: fixture, behaviour: .truncate(bytes: fixture.count / 2))
        case .gzipBomb:
            return Response(behaviour: .gzipZeros(decodedBytes: 64 << 20))
        case .slowDrip:
            return Response(body: fixture, behaviour: .drip(chunk: 1, interval: 0.2))
        case .resetMidBody:
            return Response(body: fixture, behaviour: .reset(afterBytes: fixture.count / 2))
        case .redirectToOtherHost:
            return Response(status: 302, headers: ["Location": "http://localhost:\(otherPort)/stolen"])
        case .redirectToFile:
            return Response(status: 302, headers: ["Location": "file:///etc/passwd"])
        case .notModified304:
            return Response(status: 304, headers: [:])
        case .tooManyRequests429:
            return Response(status: 429, json: #"{"status_code":25,"status_message":"slow down"}"#)
        case .serverError500:
            return Response(status: 500, json: #"{"error":true}"#)
        case .unauthorized401:
            return Response(status: 401, json: #"{"status_code":7,"status_message":"Invalid API key"}"#)
        case .batchReversed:
            return Response(body: batch(fixture) { $0.reversed() })
        case .batchCurrentNull:
            return Response(body: batch(fixture) { items in
                var items = items
                if var item = items[spoiled(items.count)] as? [String: Any] {
                    item["current"] = NSNull()
                    items[spoiled(items.count)] = item
                }
                return items
            })
        case .batchStringTemperature:
            return Response(body: batch(fixture) { items in
                var items = items
                if var item = items[spoiled(items.count)] as? [String: Any], var current = item["current"] as? [String: Any] {
                    current["temperature_2m"] = "\(current["temperature_2m"] ?? "31")"
                    item["current"] = current
                    items[spoiled(items.count)] = item
                }
                return items
            })
        case .batchEmptyDaily:
            return Response(body: batch(fixture) { items in
                var items = items
                if var item = items[spoiled(items.count)] as? [String: Any], let daily = item["daily"] as? [String: Any] {
                    item["daily"] = daily.mapValues { _ in [Any]() }
                    items[spoiled(items.count)] = item
                }
                return items
            })
        case .batchNullItem:
            return Response(body: batch(fixture) { items in
                var items = items
                items[spoiled(items.count)] = NSNull()
                return items
            })
        case .invisibleCharacters:
            return Response(body: rewrite(fixture, string: { invisible.before + $0 + invisible.after }))
        case .emptyObjectsInArrays:
            return Response(body: rewrite(fixture, array: { $0 + Array(repeating: [String: Any](), count: 20_000) }))
        case .redirectLoop:
            return Response(status: 302, headers: [:], behaviour: .redirectToItself)
        case .edgeOfRangeNumbers:
            return Response(body: rewrite(fixture, number: { text in
                guard let value = Double(text), value != 0 else { return text }
                return value > 0 ? "69.9" : "-99.9"
            }))
        case .batchExtraItem:
            return Response(body: batch(fixture) { items in
                guard var extra = items.first as? [String: Any] else { return items }
                extra["latitude"] = -45.0
                extra["longitude"] = 170.0
                return items + [extra]
            })
        }
    }

    /// `json`'s items changed by `change` when it is a non-empty array, else `json` as it is.
    private static func batch(_ json: Data, _ change: ([Any]) -> [Any]) -> Data {
        guard let items = try? JSONSerialization.jsonObject(with: json) as? [Any], !items.isEmpty,
              let data = try? JSONSerialization.data(withJSONObject: change(items)) else { return json }
        return data
    }

    /// `json` with every string passed through `string` and every number's text replaced by `number`.
    public static func rewrite(_ json: Data, string: (String) -> String = { $0 },
                               number: ((String) -> String)? = nil, array: (([Any]) -> [Any])? = nil) -> Data {
        guard let root = try? JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed]) else { return json }
        var numbers: [String] = []
        let marker = "\u{E001}n"
        func walk(_ value: Any) -> Any {
            switch value {
            case let s as String: return string(s)
            case let a as [Any]:
                let walked = a.map(walk)
                return array?(walked) ?? walked
            case let d as [String: Any]: return d.mapValues(walk)
            case let n as NSNumber where number != nil && String(cString: n.objCType) != "c":
                numbers.append(number!(n.stringValue))
                return marker
            default: return value
            }
        }
        guard var data = try? JSONSerialization.data(withJSONObject: walk(root), options: [.fragmentsAllowed]) else { return json }
        for text in numbers {
            data = replacingFirst(data, Data("\"\(marker)\"".utf8), with: Data(text.utf8))
        }
        return data
    }

    private static func replacing(_ data: Data, _ marker: String, with bytes: [UInt8]) -> Data {
        // The marker as JSONSerialization writes it: raw UTF-8 (or escaped, which is then left alone).
        let needle = Data(marker.utf8)
        var out = Data()
        var rest = data[...]
        while let range = rest.range(of: needle) {
            out += rest[..<range.lowerBound]
            out += bytes
            rest = rest[range.upperBound...]
        }
        return out + rest
    }

    private static func replacingFirst(_ data: Data, _ needle: Data, with replacement: Data) -> Data {
        guard let range = data.range(of: needle) else { return data }
        var out = data
        out.replaceSubrange(range, with: replacement)
        return out
    }
}
