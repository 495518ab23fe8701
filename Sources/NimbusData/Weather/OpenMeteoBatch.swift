import Foundation
import NimbusDomain

/// Open-Meteo's multi-location requests (`latitude=a,b,c&longitude=x,y,z`): how many places one
/// request may carry, reading the answer's items one by one, and finding which item is whose.
///
/// The server answers each place for the grid point it used, not for the place as asked (Seoul at
/// 37.566,126.978 comes back as 37.55,127.0), and nothing in an item names the place it is for but
/// those coordinates: the items are matched to the places by them, never by position, so an answer
/// in another order, with an item missing, bad or added, still gives every place its own weather.
enum OpenMeteoBatch {
    /// The server refuses more ("Only up to 1000 locations can be requested at once").
    static let maxLocations = 1000
    /// A request line longer than this is refused by the server's front end (HTTP 414): about 400
    /// places with four decimals.
    static let maxURLLength = 8000
    /// How far from a place its item may be: the server answers for a grid point near it (the
    /// nearest, or one of the eight around it that suits the place better: at most about 60 km away
    /// on the coarsest grid it uses); farther than this, an item is for some other place.
    static let maxDistanceKilometres = 100.0

    /// `coordinates` split into requests the server accepts: at most `maxLocations` each, and a URL
    /// of at most `maxURLLength` with `fixedLength` characters besides the coordinates.
    static func chunks(_ coordinates: [Coordinate], fixedLength: Int,
                       text: (Coordinate) -> (latitude: String, longitude: String)) -> [[Coordinate]] {
        var chunks: [[Coordinate]] = []
        var chunk: [Coordinate] = []
        var length = fixedLength
        for coordinate in coordinates {
            let (latitude, longitude) = text(coordinate)
            // Each place adds its two numbers and a comma (`%2C` at worst) to each list.
            let added = latitude.utf8.count + longitude.utf8.count + 6
            if !chunk.isEmpty, chunk.count == maxLocations || length + added > maxURLLength {
                chunks.append(chunk)
                chunk = []
                length = fixedLength
            }
            chunk.append(coordinate)
            length += added
        }
        if !chunk.isEmpty { chunks.append(chunk) }
        return chunks
    }

    /// One item of an answer, read on its own: where the server says it is for (nil when it does
    /// not say: a `null` item, or coordinates that are not numbers) and the item itself (nil when it
    /// is not a forecast of the expected shape).
    struct Item: Decodable {
        let coordinate: Coordinate?
        let forecast: OpenMeteoForecastDTO?

        private enum Keys: String, CodingKey { case latitude, longitude }

        init(from decoder: Decoder) throws {
            let keyed = try? decoder.container(keyedBy: Keys.self)
            if let latitude = try? keyed?.decode(Double.self, forKey: .latitude),
               let longitude = try? keyed?.decode(Double.self, forKey: .longitude) {
                let coordinate = Coordinate(latitude: latitude, longitude: longitude)
                self.coordinate = coordinate.isValid ? coordinate : nil
            } else {
                coordinate = nil
            }
            forecast = try? OpenMeteoForecastDTO(from: decoder)
        }
    }

    /// The items of an answer: an array of them, or one object (a single place). Throws only when
    /// the body is not JSON of either shape.
    static func items(_ data: Data) throws -> [Item] {
        let decoder = JSONDecoder()
        if let first = data.first(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }), first == UInt8(ascii: "[") {
            return try decoder.decode([Item].self, from: data)
        }
        return [try decoder.decode(Item.self, from: data)]
    }

    /// Two items whose distances from a place differ by less than this are equally near to it (the
    /// request gives places to four decimals, 11 m, so no nearer tie can be told apart): the place is
    /// on the edge between their grid cells.
    static let tieKilometres = 0.02

    /// For each place, the index of its item among `items` (the coordinates each item says it is
    /// for), or nil when none is near enough.
    ///
    /// The nearest pairs are matched first (a stable matching: the server answers each place for a
    /// grid point near it), except that a place on the edge between two cells, equally near to two
    /// free items, waits until the places that are clearly in one cell have taken theirs; then it
    /// takes what is left, its own position first. Each item goes to one place at most.
    ///
    /// When the places are farther apart than twice the distance of any item from its own place,
    /// every place gets exactly its own item, whatever the order (`OpenMeteoBatchTests` checks it,
    /// and checks every catalogue city, in crowded batches, against a grid).
    static func match(places: [Coordinate], items: [Coordinate?]) -> [Int?] {
        // A degree of latitude is 111 km, one of longitude 111 km · cos(latitude) (at most, over the
        // window's latitudes): pairs further apart in either are never measured.
        let latitudeWindow = maxDistanceKilometres / 111.0
        typealias Pair = (distance: Double, moved: Bool, place: Int, item: Int)
        var pairs: [Pair] = []
        var candidates = [[Pair]](repeating: [], count: places.count)
        for (i, place) in places.enumerated() {
            let nearestPole = min(90, abs(place.latitude) + latitudeWindow)
            let longitudeWindow = latitudeWindow / max(cos(nearestPole * .pi / 180), 1e-9)
            for (j, item) in items.enumerated() {
                guard let item, abs(item.latitude - place.latitude) <= latitudeWindow else { continue }
                let east = abs(item.longitude - place.longitude)
                guard min(east, 360 - east) <= longitudeWindow else { continue }
                let distance = place.distance(to: item)
                guard distance <= maxDistanceKilometres else { continue }
                let pair = (distance, i != j, i, j)
                pairs.append(pair)
                candidates[i].append(pair)
            }
        }
        let order = { (a: Pair, b: Pair) -> Bool in
            if a.distance != b.distance { return a.distance < b.distance }
            if a.moved != b.moved { return !a.moved }
            return (a.place, a.item) < (b.place, b.item)
        }
        pairs.sort(by: order)
        var matched = [Int?](repeating: nil, count: places.count)
        var taken = Set<Int>()
        // Places on an edge take nothing farther meanwhile: they choose once the others have.
        var waiting = Set<Int>()
        for pair in pairs where matched[pair.place] == nil && !waiting.contains(pair.place) && !taken.contains(pair.item) {
            // (Items at the same point are the same answer: a choice between them is no edge.)
            let onEdge = candidates[pair.place].contains { other in
                items[other.item] != items[pair.item] && !taken.contains(other.item)
                    && abs(other.distance - pair.distance) < tieKilometres
            }
            if onEdge { waiting.insert(pair.place); continue }
            matched[pair.place] = pair.item
            taken.insert(pair.item)
        }
        // The places on an edge: the nearest of what is left, their own position first between equals.
        let rest = pairs.filter { waiting.contains($0.place) }.sorted { a, b in
            if abs(a.distance - b.distance) >= tieKilometres { return a.distance < b.distance }
            if a.moved != b.moved { return !a.moved }
            return order(a, b)
        }
        for pair in rest where matched[pair.place] == nil && !taken.contains(pair.item) {
            matched[pair.place] = pair.item
            taken.insert(pair.item)
        }
        return matched
    }

    /// Each place's value from an answer's body: made by `map` from its own item, or `.badResponse`
    /// when it has none or `map` refuses it. Throws `WeatherError.badResponse` when the body is not
    /// JSON of an answer's shape, or when no place has a value (not a forecast at all: the request
    /// failed, rather than every place on its own).
    static func answers<T>(_ body: Data, places: [Coordinate],
                           _ map: (Coordinate, OpenMeteoForecastDTO) throws -> T) throws -> [Coordinate: Result<T, WeatherError>] {
        let items = try items(body)
        let matched = match(places: places, items: items.map(\.coordinate))
        var answers: [Coordinate: Result<T, WeatherError>] = [:]
        for (place, index) in zip(places, matched) {
            guard let index, let forecast = items[index].forecast, let value = try? map(place, forecast) else {
                answers[place] = .failure(.badResponse)
                continue
            }
            answers[place] = .success(value)
        }
        guard answers.values.contains(where: { if case .success = $0 { true } else { false } }) else {
            throw WeatherError.badResponse
        }
        return answers
    }
}
