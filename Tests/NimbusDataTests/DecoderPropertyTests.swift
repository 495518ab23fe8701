import Foundation
import Testing
import PropertyBased
import NimbusDomain
@testable import NimbusData
import TestSupport

/// Random and mutated JSON for every DTO: it decodes, or fails with a typed error, quickly; it never
/// traps; and what decodes is within physical ranges and cut to size.
@Suite struct DecoderPropertyTests {
    /// Fixture bodies to mutate.
    static let forecast = OpenMeteoWeatherRepositoryTests.seoulJSON
    static let searchPage = Data(TMDBMovieRepositoryTests.searchPage1.utf8)
    static let details = Data(TMDBMovieRepositoryTests.details.utf8)
    static let genres = Data(TMDBMovieRepositoryTests.genres.utf8)
    static let air = OpenMeteoAirQualityRepositoryTests.seoulJSON

    /// Seeds for a few mutations; the array shrinks to the fewest that still fail.
    static let mutations = Gen.int().array(of: 1...6)

    // MARK: Properties

    @Test func mutatedForecastsDecodeOrFailTyped() async {
        await propertyCheck(count: PropertyCount.scaled(default: 60), input: Self.mutations) { seeds in
            let body = Mutator(seeds: seeds).mutate(Self.forecast)
            Self.checkForecast(body)
        }
    }

    @Test func mutatedBatchedForecastsDecodeOrFailTyped() async {
        let batch = Data("[".utf8) + Self.forecast + Data(",".utf8) + Self.forecast + Data("]".utf8)
        await propertyCheck(count: PropertyCount.scaled(default: 40), input: Self.mutations) { seeds in
            let body = Mutator(seeds: seeds).mutate(batch)
            guard body.count <= Mutator.weatherCap else { return }
            ThreadTime.within(3) {
                do {
                    let asked = Coordinate(latitude: 37.5, longitude: 127)
                    // Read item by item, each place with an answer of its own: a value, or why not.
                    let places = [asked, Coordinate(latitude: 35.1, longitude: 129)]
                    if let answers = try? OpenMeteoBatch.answers(body, places: places, { try $1.toPlaceWeather(at: $0) }) {
                        #expect(Set(answers.keys) == Set(places))
                    }
                    for dto in try OpenMeteoForecastDTO.decodeList(body) {
                        if let t = try? dto.toCurrentTemperature(at: asked) { #expect(t.temperature.isNaN || (-100...70).contains(t.temperature)) }
                        if let r = try? dto.toDayRange(at: asked) { #expect((-100...70).contains(r.high) && (-100...70).contains(r.low)) }
                        // The Today tab's places: the place asked about is kept, the values believed or not at all.
                        if let w = try? dto.toPlaceWeather(at: asked) {
                            #expect(w.coordinate == asked)
                            #expect(w.temperature.isNaN || (-100...70).contains(w.temperature))
                            #expect((-100...70).contains(w.high) && (-100...70).contains(w.low))
                        }
                    }
                } catch {
                    #expect(error is DecodingError)
                }
            }
        }
    }

    @Test func mutatedAirQualityAnswersDecodeOrFailTyped() async {
        await propertyCheck(count: PropertyCount.scaled(default: 60), input: Self.mutations) { seeds in
            Self.checkAir(Mutator(seeds: seeds).mutate(Self.air))
        }
    }

    @Test func mutatedTMDBAnswersDecodeOrFailTyped() async {
        await propertyCheck(count: PropertyCount.scaled(default: 60), input: Self.mutations) { seeds in
            let mutator = Mutator(seeds: seeds)
            let search = mutator.mutate(Self.searchPage), details = mutator.mutate(Self.details)
            let genres = mutator.mutate(Self.genres)
            ThreadTime.within(3) {
                Self.checkSearch(search)
                Self.checkDetails(details)
                _ = try? JSONDecoder().decode(TMDBGenreList.self, from: genres)
            }
        }
    }

    @Test func randomJSONDecodesOrFailsTyped() async {
        await propertyCheck(count: PropertyCount.scaled(default: 60), input: Gen.int().array(of: 1...40)) { seeds in
            var random = Mutator(seeds: seeds)
            let body = (try? JSONSerialization.data(withJSONObject: random.randomValue(depth: 0), options: [.fragmentsAllowed]))
                ?? Data("null".utf8)
            Self.checkForecast(body)
            Self.checkAir(body)
            ThreadTime.within(3) {
                Self.checkSearch(body)
                Self.checkDetails(body)
            }
        }
    }

    // MARK: Checks

    static func checkForecast(_ body: Data) {
        guard body.count <= Mutator.weatherCap else { return }
        ThreadTime.within(3) {
            let list: [OpenMeteoForecastDTO]
            do {
                list = try OpenMeteoForecastDTO.decodeList(body)
            } catch {
                #expect(error is DecodingError, "\(type(of: error))")
                return
            }
            for dto in list {
                do {
                    let f = try dto.toDomain()
                    #expect(!f.hourly.isEmpty && !f.daily.isEmpty)
                    #expect(f.hourly.allSatisfy { (-100...70).contains($0.temperature) })
                    #expect(f.hourly.allSatisfy { $0.precipitationProbability.map { (0...100).contains($0) } ?? true })
                    // What falls: water in mm (rain and showers together at most twice an hour's cap), snow in cm.
                    #expect(f.hourly.allSatisfy { $0.precipitation.map { (0...1000).contains($0) } ?? true })
                    #expect(f.hourly.allSatisfy { $0.rain.map { (0...2000).contains($0) } ?? true })
                    #expect(f.hourly.allSatisfy { $0.snowfall.map { (0...500).contains($0) } ?? true })
                    #expect(f.daily.allSatisfy { (-100...70).contains($0.high) && (-100...70).contains($0.low) })
                    let c = f.current
                    for (v, r) in [(c.temperature, -100.0...70), (c.apparentTemperature, -100...70), (c.humidity, 0...100),
                                   (c.pressure, 800...1100), (c.windSpeed, 0...500), (c.windDirection, 0...360),
                                   (c.precipitation, 0...1000)] {
                        #expect(v.isNaN || r.contains(v), "\(v) outside \(r)")
                    }
                    #expect(f.coordinate.isValid)
                    #expect(abs(f.utcOffsetSeconds) <= 18 * 3600)
                } catch {
                    #expect(error is OpenMeteoShapeError, "\(type(of: error))")
                }
            }
        }
    }

    /// An air-quality answer decodes or fails typed; what decodes has something to show, every value
    /// within its range or missing, and today's UV maximum at least the UV now.
    static func checkAir(_ body: Data) {
        guard body.count <= OpenMeteoAirQualityRepository.maxBytes else { return }
        ThreadTime.within(3) {
            let dto: OpenMeteoAirQualityDTO
            do {
                dto = try OpenMeteoAirQualityDTO.decode(body)
            } catch {
                #expect(error is DecodingError, "\(type(of: error))")
                return
            }
            do {
                let air = try dto.toDomain()
                let values: [(Double?, ClosedRange<Double>)] = [
                    (air.usIndex, 0...1000), (air.europeanIndex, 0...1000), (air.pm2_5, 0...2000), (air.pm10, 0...5000),
                    (air.ozone, 0...1000), (air.uvIndex, 0...50), (air.uvIndexMax, 0...50)]
                for (v, r) in values { #expect(v.map { r.contains($0) } ?? true, "\(String(describing: v)) outside \(r)") }
                #expect(values.contains { $0.0 != nil }, "nothing to show was accepted")
                if let now = air.uvIndex { #expect((air.uvIndexMax ?? -1) >= now) }
                #expect((0...7_258_118_400).contains(air.time.timeIntervalSince1970))
            } catch {
                #expect(error is OpenMeteoShapeError, "\(type(of: error))")
            }
        }
    }

    static func checkSearch(_ body: Data) {
        guard body.count <= Mutator.cap, let page = try? JSONDecoder().decode(TMDBSearchPage.self, from: body) else { return }
        do {
            let domain = try page.toDomain(query: "q", requestedPage: page.page, genres: [28: "Action"])
            #expect(domain.movies.count <= RemoteText.maxItems)
            #expect(domain.movies.allSatisfy { $0.title.unicodeScalars.count <= RemoteText.name })
            #expect((1...TMDBSearchPage.maxPages).contains(domain.totalPages) || domain.totalPages == domain.page)
        } catch {
            #expect(error as? MovieError == .badResponse)
        }
    }

    static func checkDetails(_ body: Data) {
        guard body.count <= Mutator.cap, let details = try? JSONDecoder().decode(TMDBMovieDetails.self, from: body) else { return }
        let movie = details.toDomain()
        #expect(movie.title.unicodeScalars.count <= RemoteText.name)
        #expect((movie.overview?.unicodeScalars.count ?? 0) <= RemoteText.overview)
        #expect((movie.cast + movie.directors + movie.writers + movie.genres + movie.languages + movie.countries)
            .allSatisfy { $0.unicodeScalars.count <= RemoteText.name })
        #expect(movie.ratings.voteAverage.map { (0...10).contains($0) } ?? true)
    }

}

/// Deterministic mutations of JSON from a list of seeds: each seed picks a node of the document and
/// replaces, deletes, nests, repeats or retypes it; a last seed may cut or corrupt the bytes.
struct Mutator {
    private var state: UInt64
    private let count: Int

    init(seeds: [Int]) {
        state = seeds.reduce(0x9E37_79B9_7F4A_7C15) { ($0 ^ UInt64(bitPattern: Int64($1))) &* 0xBF58_476D_1CE4_E5B9 }
        count = seeds.count
    }

    /// SplitMix64.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ n: Int) -> Int { n <= 0 ? 0 : Int(next() % UInt64(n)) }

    /// The largest bodies the HTTP client passes on: TMDB's cap, and the weather repository's.
    static let cap = 4 << 20
    static let weatherCap = 2 << 20

    static let numbers: [Double] = [1e308, -1e308, 0, -1, 1e20, -1e20, 9.3e18, 1.5, 7258118401, -7258118401, 360.5, 101, -101, 4e9]
    static let strings = ["", "\u{1B}[2J\u{1B}]0;x\u{07}", String(repeating: "a\u{301}", count: 3000), "\u{202E}evil",
                          "9999-99-99", "2005", "\u{0}", String(repeating: "x", count: 20_000)]

    mutating func randomValue(depth: Int) -> Any {
        switch below(depth > 4 ? 4 : 7) {
        case 0: return Self.numbers[below(Self.numbers.count)]
        case 1: return Self.strings[below(Self.strings.count)]
        case 2: return NSNull()
        case 3: return below(2) == 0
        case 4: return below(1_000_000) - 500_000
        case 5: return (0..<below(6)).map { _ in randomValue(depth: depth + 1) }
        default:
            let keys = ["time", "temperature_2m", "hourly", "daily", "current", "latitude", "longitude", "results", "page",
                        "us_aqi", "european_aqi", "pm2_5", "uv_index", "weather_code", "snowfall",
                        "total_pages", "total_results", "id", "title", "genres", "credits", "name", "job", "overview"]
            var object: [String: Any] = [:]
            for _ in 0..<below(6) { object[keys[below(keys.count)]] = randomValue(depth: depth + 1) }
            return object
        }
    }

    func mutate(_ json: Data) -> Data {
        var copy = self
        return copy.apply(json)
    }

    private mutating func apply(_ json: Data) -> Data {
        guard var root = try? JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed]) else { return json }
        for _ in 0..<count {
            var paths: [[PathStep]] = []
            Self.collect(root, [], into: &paths)
            guard !paths.isEmpty else { break }
            let path = paths[below(paths.count)]
            root = edit(root, path[...])
        }
        guard var data = try? JSONSerialization.data(withJSONObject: root, options: [.fragmentsAllowed]) else { return json }
        switch below(8) {
        case 0 where !data.isEmpty: data = data.prefix(below(data.count))      // cut short
        case 1 where !data.isEmpty: data[below(data.count)] = UInt8(truncatingIfNeeded: next()) // a stray byte
        default: break
        }
        return data
    }

    enum PathStep { case key(String), index(Int) }

    static func collect(_ value: Any, _ path: [PathStep], into paths: inout [[PathStep]]) {
        paths.append(path)
        guard paths.count < 5000 else { return }
        if let object = value as? [String: Any] {
            for (k, v) in object { collect(v, path + [.key(k)], into: &paths) }
        } else if let array = value as? [Any] {
            for (i, v) in array.enumerated().prefix(50) { collect(v, path + [.index(i)], into: &paths) }
        }
    }

    /// `value` with the node at `path` changed; nil from `change` deletes it.
    private mutating func edit(_ value: Any, _ path: ArraySlice<PathStep>) -> Any {
        guard let step = path.first else { return change(value) ?? NSNull() }
        let rest = path.dropFirst()
        switch (step, value) {
        case (.key(let k), var object as [String: Any]):
            if rest.isEmpty, let changed = change(object[k] ?? NSNull()) { object[k] = changed }
            else if rest.isEmpty { object[k] = nil }
            else { object[k] = edit(object[k] ?? NSNull(), rest) }
            return object
        case (.index(let i), var array as [Any]) where i < array.count:
            if rest.isEmpty, let changed = change(array[i]) { array[i] = changed }
            else if rest.isEmpty { array.remove(at: i) }
            else { array[i] = edit(array[i], rest) }
            return array
        default:
            return value
        }
    }

    /// A new node for `node`; nil deletes it.
    private mutating func change(_ node: Any) -> Any? {
        switch below(9) {
        case 0: return Self.numbers[below(Self.numbers.count)]
        case 1: return Self.strings[below(Self.strings.count)]
        case 2: return NSNull()
        case 3: return nil                                             // delete
        case 4: return [node, node, node]                              // a value becomes a list
        case 5: return Array(repeating: node, count: 1 + below(500))  // a list grows
        case 6: return ["x": node]                                     // nested one deeper
        case 7: return randomValue(depth: 2)
        default: return below(2) == 0
        }
    }
}
