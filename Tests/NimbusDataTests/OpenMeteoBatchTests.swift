import Foundation
import Testing
import PropertyBased
import NimbusDomain
@testable import NimbusData
import TestSupport

/// Open-Meteo's multi-location answers: items found by their coordinates, whatever their order, with
/// items missing, bad or added; and requests no larger than the server accepts.
@Suite struct OpenMeteoBatchTests {
    /// A place from two seeds: anywhere between 80°S and 80°N, to four decimals as the request writes it.
    static func place(_ a: Int, _ b: Int) -> Coordinate {
        Coordinate(latitude: (Double(abs(a % 1_600_000)) / 10_000 - 80).rounded(toPlaces: 4),
                   longitude: (Double(abs(b % 3_600_000)) / 10_000 - 180).rounded(toPlaces: 4))
    }

    /// The grid point of a regular `step`° grid nearest to `place`: what the server answers for.
    static func gridPoint(_ place: Coordinate, step: Double) -> Coordinate {
        Coordinate(latitude: ((place.latitude / step).rounded() * step).rounded(toPlaces: 6),
                   longitude: ((place.longitude / step).rounded() * step).rounded(toPlaces: 6))
    }

    /// `items` in an order made from `seeds` (a Fisher–Yates shuffle driven by them).
    static func shuffled<T>(_ items: [T], _ seeds: [Int]) -> [T] {
        var items = items
        guard items.count > 1 else { return items }
        for i in stride(from: items.count - 1, to: 0, by: -1) {
            let j = abs(seeds[i % seeds.count] &* 31 &+ i) % (i + 1)
            items.swapAt(i, j)
        }
        return items
    }

    // MARK: Properties

    /// However the items are ordered, with some missing and one added far away: every item matched is
    /// near its place (within the server's rounding), no item goes to two places, and places farther
    /// apart than twice the rounding each get exactly their own item.
    @Test func itemsAreMatchedToTheirOwnPlacesInAnyOrder() async {
        let gen = Gen.int().array(of: 2...40)
        await propertyCheck(count: PropertyCount.scaled(default: 200), input: gen, Gen.int().array(of: 1...8), Gen.int(in: 0...3)) { seeds, order, dropped in
            let places = stride(from: 0, to: seeds.count - 1, by: 2).map { Self.place(seeds[$0], seeds[$0 + 1]) }
            guard !places.isEmpty else { return }
            // Each place's item: its point on a 0.25° grid (at most 20 km away), tagged with its place.
            var items = places.enumerated().map { (owner: Optional($0.offset), at: Self.gridPoint($0.element, step: 0.25)) }
            items.removeLast(min(dropped, items.count - 1))
            items.append((owner: nil, at: Coordinate(latitude: -89.9, longitude: 0)))
            items = Self.shuffled(items, order)
            let matched = OpenMeteoBatch.match(places: places, items: items.map(\.at))
            let used = matched.compactMap { $0 }
            #expect(Set(used).count == used.count, "an item went to two places")
            for (place, index) in zip(places, matched) {
                guard let index else { continue }
                #expect(place.distance(to: items[index].at) <= OpenMeteoBatch.maxDistanceKilometres)
            }
            // Separated places: each with an item gets its own.
            let rounding = 0.25 * 111.2 * 0.75
            let separated = places.indices.allSatisfy { i in
                places.indices.allSatisfy { j in i == j || places[i].distance(to: places[j]) > 2 * rounding }
            }
            if separated {
                for (i, index) in matched.enumerated() {
                    let own = items.firstIndex { $0.owner == i }
                    #expect(index == own, "place \(i) got item \(String(describing: index)), its own is \(String(describing: own))")
                }
            }
        }
    }

    /// However a batch is split, every place is asked about once, in order, and each request holds
    /// at most 1,000 places and fits in the server's request line.
    @Test func chunksHoldEveryPlaceOnceAndNeverTooMany() async {
        await propertyCheck(count: PropertyCount.scaled(default: 40), input: Gen.int(in: 0...2600), Gen.int(in: 0...4000)) { count, fixed in
            let places = (0..<count).map { Self.place($0 &* 7919, $0 &* 104_729) }
            let text = { (c: Coordinate) in (String(format: "%.4f", c.latitude), String(format: "%.4f", c.longitude)) }
            let chunks = OpenMeteoBatch.chunks(places, fixedLength: fixed, text: text)
            #expect(chunks.flatMap { $0 } == places)
            func length(_ chunk: [Coordinate]) -> Int {
                fixed + chunk.map { text($0).0.utf8.count + text($0).1.utf8.count + 6 }.reduce(0, +)
            }
            for (i, chunk) in chunks.enumerated() {
                #expect(!chunk.isEmpty && chunk.count <= OpenMeteoBatch.maxLocations)
                #expect(length(chunk) <= OpenMeteoBatch.maxURLLength || chunk.count == 1)
                // As few requests as the limits allow: the next place would not have fitted.
                if i + 1 < chunks.count {
                    let more = chunk + [chunks[i + 1][0]]
                    #expect(more.count > OpenMeteoBatch.maxLocations || length(more) > OpenMeteoBatch.maxURLLength)
                }
            }
        }
    }

    // MARK: Reference: every city of the catalogue

    /// Every catalogue city, asked about with its neighbours (the catalogue sorted by place, in
    /// requests of 200: the most crowded batches there are), answered in reverse order at the
    /// nearest point of a 0.25° grid and of a 0.1° grid: each city must get an item for its own grid
    /// point (the same forecast as its own item), whatever the order.
    @Test func everyCatalogueCityGetsAnItemForItsOwnGridPoint() throws {
        let catalog = try CityCatalog.bundled()
        let cities = (0..<catalog.cityCount).map { catalog.city(CityRef(Int32($0))).coordinate }
            .sorted { ($0.latitude.rounded(), $0.longitude) < ($1.latitude.rounded(), $1.longitude) }
        var checked = 0, passed = 0
        for step in [0.25, 0.1] {
            for start in stride(from: 0, to: cities.count, by: 200) {
                // The same place twice is asked about once (the use cases see to it).
                var seen = Set<Coordinate>()
                let places = cities[start..<min(start + 200, cities.count)].filter { seen.insert($0).inserted }
                let items = places.map { Self.gridPoint($0, step: step) }.reversed() as [Coordinate]
                let matched = OpenMeteoBatch.match(places: places, items: items.map(Optional.some))
                for (place, index) in zip(places, matched) {
                    checked += 1
                    if let index, items[index] == Self.gridPoint(place, step: step) { passed += 1 }
                }
            }
        }
        print("reference: \(passed) of \(checked) cities matched to an item of their own grid point (0.25° and 0.1° grids)")
        #expect(passed == checked)
    }

    // MARK: Items

    @Test func eachItemIsReadOnItsOwn() throws {
        let body = Data("""
            [{"latitude":37.55,"longitude":127.0,"current":{"time":1782000000,"temperature_2m":23}},
             null, 5, {"latitude":"north","longitude":1},
             {"latitude":31.25,"longitude":121.5,"current":{"time":1782000000,"temperature_2m":"31"}},
             {"latitude":91,"longitude":0}]
            """.utf8)
        let items = try OpenMeteoBatch.items(body)
        #expect(items.map(\.coordinate) == [Coordinate(latitude: 37.55, longitude: 127.0), nil, nil, nil,
                                            Coordinate(latitude: 31.25, longitude: 121.5), nil])
        #expect(items.map { $0.forecast != nil } == [true, false, false, false, false, true])
        #expect(throws: (any Error).self) { try OpenMeteoBatch.items(Data("[1, 2".utf8)) }
    }

    @Test func aPlaceWhoseItemIsBadOrMissingIsABadResponseAlone() throws {
        let seoul = Coordinate(latitude: 37.566, longitude: 126.9784), shanghai = Coordinate(latitude: 31.2222, longitude: 121.4581)
        let tokyo = Coordinate(latitude: 35.6895, longitude: 139.6917)
        let body = Data("""
            [{"latitude":35.7,"longitude":139.7,"current":{"time":1782000000,"temperature_2m":30}},
             {"latitude":31.2,"longitude":121.5,"current":null},
             {"latitude":37.55,"longitude":127.0,"current":{"time":1782000000,"temperature_2m":23}}]
            """.utf8)
        let answers = try OpenMeteoBatch.answers(body, places: [seoul, shanghai, tokyo, Coordinate(latitude: 0, longitude: 0)]) {
            try $1.toCurrentTemperature(at: $0)
        }
        #expect(try answers[seoul]?.get().temperature == 23)
        #expect(try answers[tokyo]?.get().temperature == 30)
        #expect(try answers[seoul]?.get().coordinate == seoul, "kept as asked, not as the server's grid point")
        for place in [shanghai, Coordinate(latitude: 0, longitude: 0)] {
            guard case .failure(let error)? = answers[place] else { Issue.record("\(place) has a value"); continue }
            #expect(error == .badResponse)
        }
    }
}

extension OpenMeteoBatchTests {
    /// Not a forecast at all (a quake feed, an empty list, items for other places): the request
    /// failed, not each place on its own.
    @Test func anAnswerWithNothingUsableIsABadResponseAsAWhole() throws {
        let places = [Coordinate(latitude: 37.566, longitude: 126.9784), Coordinate(latitude: 35.1, longitude: 129.0)]
        for body in [#"{"type":"FeatureCollection","features":[]}"#, "[]", "[null, null]",
                     #"[{"latitude":-45,"longitude":170,"current":{"time":1782000000,"temperature_2m":3}}]"#] {
            #expect(throws: WeatherError.badResponse, "\(body)") {
                try OpenMeteoBatch.answers(Data(body.utf8), places: places) { try $1.toCurrentTemperature(at: $0) }
            }
        }
    }
}

private extension Double {
    func rounded(toPlaces places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (self * scale).rounded() / scale
    }
}
