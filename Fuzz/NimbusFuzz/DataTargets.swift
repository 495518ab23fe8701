import Foundation
@testable import NimbusData
import NimbusDomain
import TOMLKit

/// Text from servers: `clip` and `clean` hold their scalar limits and combining-mark caps, are
/// idempotent, and `clean` leaves no control character or bidirectional override.
func fuzzRemoteText(_ data: Data) {
    var input = Input(data)
    let limit = Int(input.byte())
    let s = input.text

    let clipped = RemoteText.clip(s, to: limit)
    require(clipped.unicodeScalars.count <= limit, "clip to \(limit) kept \(clipped.unicodeScalars.count)")
    require(RemoteText.clip(clipped, to: limit) == clipped, "clip is not idempotent")
    requireMarksCapped(clipped)

    let clean = RemoteText.clean(s, maxScalars: limit)
    require(clean.unicodeScalars.count <= limit, "clean to \(limit) kept \(clean.unicodeScalars.count)")
    requireMarksCapped(clean)
    for scalar in clean.unicodeScalars {
        let v = scalar.value
        require(!(v < 0x20 || (0x7F...0x9F).contains(v) || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
                  || v == 0x2028 || v == 0x2029), "clean kept U+\(String(v, radix: 16))")
    }
    require(RemoteText.clean(clean, maxScalars: limit) == clean, "clean is not idempotent")
}

private func requireMarksCapped(_ s: String) {
    var run = 0
    for scalar in s.unicodeScalars {
        if scalar.value >= 0x300, RemoteText.isCombiningMark(scalar) {
            run += 1
            require(run <= RemoteText.maxCombiningMarks, "\(run) combining marks in a row")
        } else {
            run = 0
        }
    }
}

/// config.toml's line editor: no change is the same document; a key set (to a string, an integer or
/// a boolean) or removed leaves a document TOMLKit reads with that key changed and every other
/// top-level value as it was; and the editor can follow its own output.
func fuzzConfig(_ data: Data) {
    var input = Input(data)
    let which = input.byte()
    let valueLength = Int(input.byte() % 32)
    let valueBytes = Array(input.bytes.prefix(valueLength))
    input.bytes.removeFirst(min(valueLength, input.bytes.count))
    let text = input.text
    // The app's reading: a problem, never a crash.
    _ = ConfigFile.parse(text)
    guard let editor = TOMLLineEditor(text) else { return }
    require(editor.setting([]) == text, "no change altered the document")
    // TOMLKit itself only for what ConfigFile hands it.
    guard ConfigFile.firstControl(in: text) == nil, ConfigFile.firstParserTrap(in: text) == nil,
          let before = try? TOMLTable(string: text) else { return }

    let keys = ["units", "theme", "language", "city", "refresh_minutes", "mouse"] + before.keys.filter { isBareKey($0) }
    let key = keys[Int(which) % keys.count]
    let value: TOMLLineEditor.Value?
    switch which >> 6 {
    // No NUL: TOMLKit hands strings over as C strings, so one ends a value it reads (the app's own
    // values never hold one).
    case 0: value = .string(String(decoding: valueBytes.filter { $0 != 0 }, as: UTF8.self))
    case 1: value = .integer(valueBytes.reduce(0) { ($0 &* 251) &+ Int($1) } &- 1_000_000)
    case 2: value = .boolean(valueBytes.first.map { $0 & 1 == 1 } ?? false)
    default: value = nil
    }
    // A key already holding a table is not one the app writes a plain value to.
    if let existing = before[key], existing.tomlValue.type == .table { return }

    let edited = editor.setting([(key: key, value: value)])
    require(TOMLLineEditor(edited) != nil, "the editor cannot follow its own output: \(edited.debugDescription)")
    let after: TOMLTable
    do { after = try TOMLTable(string: edited) } catch {
        require(false, "setting \(key) to \(String(describing: value)) made TOML that does not parse: \(edited.debugDescription) (\(error))")
        return
    }
    switch value {
    case .string(let s): require(after[key]?.string == s, "\(key) reads back as \(String(describing: after[key]))")
    case .integer(let n): require(after[key]?.int == n, "\(key) reads back as \(String(describing: after[key]))")
    case .boolean(let b): require(after[key]?.bool == b, "\(key) reads back as \(String(describing: after[key]))")
    case nil: require(after[key] == nil, "\(key) still set after its removal")
    }
    for other in before.keys where other != key {
        require(after[other]?.tomlValue == before[other]?.tomlValue, "setting \(key) changed \(other): \(edited.debugDescription)")
    }
    for other in after.keys where other != key {
        require(before[other] != nil, "setting \(key) added \(other): \(edited.debugDescription)")
    }
}

private func isBareKey(_ key: String) -> Bool {
    !key.isEmpty && key.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x5F || $0 == 0x2D }
}

/// Wishlist files: what a file yields is within the caps, and exporting it (CSV and JSON) and
/// reading that back yields the same films.
func fuzzWishlist(_ data: Data) {
    guard let items = try? WishlistTransfer.parse(data) else { return }
    require(items.count <= WishlistTransfer.maxRows, "\(items.count) films")
    for item in items {
        require(!item.title.isEmpty, "an empty title")
        require(item.title.unicodeScalars.count <= WishlistTransfer.maxFieldLength + 1, "a title of \(item.title.unicodeScalars.count) scalars")
        require(WishlistTransfer.sanitize(item.title) == item.title, "an unsanitised title \(item.title.debugDescription)")
        if let year = item.year { require((1800...2200).contains(year), "year \(year)") }
    }
    let entries = items.enumerated().map { i, item in
        WishlistEntry(movie: MovieSummary(id: MovieID(source: .catalogue, value: i), title: item.title, year: item.year,
                                          genres: [], directors: []),
                      addedAt: Date(timeIntervalSince1970: 1_700_000_000))
    }
    for format in WishlistTransfer.Format.allCases {
        guard let exported = try? WishlistTransfer.export(entries, as: format) else {
            require(false, "export as \(format) failed")
            return
        }
        let again: [WishlistTransfer.Item]
        do { again = try WishlistTransfer.parse(Data(exported.utf8), format: format) } catch {
            require(false, "the \(format) export does not read back: \(error)")
            return
        }
        require(again == items, "the \(format) export reads back as \(again) not \(items)")
    }
}

/// The USGS feed scanner: never more events than the cap, every event's fields bounded; and a body
/// it accepts is JSON that Foundation accepts too (it claims to be as strict).
func fuzzUSGS(_ data: Data) {
    if (try? USGSFeedScanner.scan(data)) != nil, String(data: data, encoding: .utf8) != nil {
        require((try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil,
                "the scanner accepts JSON that Foundation refuses")
    }
    guard let feed = try? USGSQuakeRepository.decodeFeed(data) else { return }
    require(feed.quakes.count <= QuakeFeedSnapshot.limit, "\(feed.quakes.count) events kept")
    require(feed.dropped >= 0, "dropped \(feed.dropped)")
    for quake in feed.quakes {
        require(quake.place.unicodeScalars.count <= RemoteText.name, "a place of \(quake.place.unicodeScalars.count) scalars")
        require(quake.id.unicodeScalars.count <= 64 && !quake.id.isEmpty, "id \(quake.id.debugDescription)")
        require((-90...90).contains(quake.coordinate.latitude) && (-180...180).contains(quake.coordinate.longitude),
                "at \(quake.coordinate)")
        requireBounded(quake, maxScalars: 1_000)
    }
}

/// Warnings as the app keeps them: at most `maxWarnings`, one-line texts within `line` scalars and
/// on one line, bodies within `body`, ids within `id`, times believable.
func requireWarnings(_ warnings: [WeatherWarning]) {
    require(warnings.count <= WarningText.maxWarnings, "\(warnings.count) warnings")
    for w in warnings {
        require(w.id.unicodeScalars.count <= WarningText.id, "an id of \(w.id.unicodeScalars.count) scalars")
        for (name, text) in [("event", w.event), ("headline", w.headline), ("sender", w.sender), ("language", w.language)] {
            guard let text else { continue }
            require(text.unicodeScalars.count <= WarningText.line, "\(name) of \(text.unicodeScalars.count) scalars")
            require(!text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
                    "\(name) holds a control character: \(text.debugDescription)")
        }
        for (name, text) in [("description", w.description), ("instruction", w.instruction)] {
            guard let text else { continue }
            require(text.unicodeScalars.count <= WarningText.body, "\(name) of \(text.unicodeScalars.count) scalars")
            require(!text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) },
                    "\(name) holds a control character: \(text.debugDescription)")
        }
        for date in [w.effective, w.onset, w.expires] {
            guard let date else { continue }
            require(WeatherWarning.believableTimes.contains(date), "a time of \(date)")
        }
    }
}

func fuzzNWS(_ data: Data) {
    guard let warnings = try? NWSWarnings.decode(data) else { return }
    requireWarnings(warnings)
}

/// MeteoAlarm: the Atom feed's entries and a CAP document, both through `XMLReader`.
func fuzzMeteoAlarm(_ data: Data) {
    if let entries = try? MeteoAlarmFeed.entries(data) {
        require(entries.count <= MeteoAlarmFeed.maxEntries, "\(entries.count) entries")
        for entry in entries {
            for polygon in entry.polygons {
                require(polygon.count <= MeteoAlarmFeed.maxVertices, "a polygon of \(polygon.count) vertices")
            }
            if let warning = entry.warning() { requireWarnings([warning]) }
        }
        let matching = MeteoAlarmFeed.matching(entries, codes: ["DE413", "FR75"], point: Coordinate(latitude: 48.85, longitude: 2.35))
        require(matching.count <= entries.count, "more matches than entries")
    }
    if let document = try? MeteoAlarmFeed.document(data) {
        require(document.infos.count <= 40, "\(document.infos.count) infos")
        let entry = MeteoAlarmFeed.Entry(identifier: "x", event: "e", severity: "Moderate", sent: nil, effective: nil, onset: nil,
                                         expires: nil, status: "Actual", messageType: "Alert", areaDesc: nil, title: nil,
                                         geocodes: [], polygons: [], documentLink: nil)
        if let warning = entry.warning(document: document) { requireWarnings([warning]) }
    }
}

/// XMLReader with small limits: a document it returns is within them (depth, elements, attributes, text).
func fuzzXML(_ data: Data) {
    var limits = XMLReader.Limits()
    limits.depth = 8
    limits.elements = 200
    limits.attributes = 100
    limits.text = 4_000
    guard let root = try? XMLReader.parse(data, limits: limits) else { return }
    var elements = 0, attributes = 0, text = 0, deepest = 0
    func walk(_ e: XMLReader.Element, depth: Int) {
        elements += 1
        deepest = max(deepest, depth)
        attributes += e.attributes.pairs.count
        text += e.text.count + e.attributes.pairs.reduce(0) { $0 + $1.value.count }
        require(!e.name.isEmpty, "an element without a name")
        for child in e.children { walk(child, depth: depth + 1) }
    }
    walk(root, depth: 1)
    require(deepest <= limits.depth, "depth \(deepest)")
    require(elements <= limits.elements, "\(elements) elements")
    require(attributes <= limits.attributes, "\(attributes) attributes")
    require(text <= limits.text, "\(text) characters of text")
}

/// JMA: the report, the area table and the boundaries (the input's first byte picks which).
func fuzzJMA(_ data: Data) {
    var input = Input(data)
    let which = input.byte() % 4
    let body = Data(input.bytes)
    let area = JMAArea(class20: "1310100", office: "130000", name: "千代田区")
    let point = Coordinate(latitude: 35.69, longitude: 139.75)
    switch which {
    case 0:
        if let warnings = try? JMAReport.warnings(body, area: area) {
            requireWarnings(warnings)
            require(warnings.count <= JMAReport.maxAreaWarnings, "\(warnings.count) warnings")
        }
    case 1:
        if let found = try? JMATable.area(class20: "1310100", table: body) {
            require(JMAArea.code(found.class20, digits: 7...7) != nil && JMAArea.code(found.office, digits: 6...6) != nil,
                    "codes \(found.class20) \(found.office)")
            if let name = found.name { require(name.unicodeScalars.count <= WarningText.line, "a name of \(name.unicodeScalars.count) scalars") }
        }
    case 2:
        if let parts = try? JMAGeometry.parts(containing: point, relm: body) {
            require(parts.count <= JMAGeometry.maxParts, "\(parts.count) parts")
        }
    default:
        if let code = try? JMAGeometry.area(containing: point, features: body) {
            require(JMAArea.code(code, digits: 7...7) != nil, "area code \(code.debugDescription)")
        }
    }
}

/// Open-Meteo: forecast, batch, air-quality and archive answers (the first byte picks which); what
/// is decoded holds only finite numbers and bounded texts and lists.
func fuzzOpenMeteo(_ data: Data) {
    var input = Input(data)
    let which = input.byte() % 4
    let body = Data(input.bytes)
    let place = Coordinate(latitude: 52.52, longitude: 13.41)
    switch which {
    case 0:
        guard let list = try? OpenMeteoForecastDTO.decodeList(body) else { return }
        for dto in list {
            if let forecast = try? dto.toDomain() { requireBounded(forecast) }
            if let current = try? dto.toCurrentTemperature(at: place) { requireBounded(current) }
            if let weather = try? dto.toPlaceWeather(at: place) { requireBounded(weather) }
            if let range = try? dto.toDayRange(at: place) { requireBounded(range) }
        }
    case 1:
        let places = [place, Coordinate(latitude: 37.57, longitude: 126.98), Coordinate(latitude: 35.68, longitude: 139.69)]
        guard let answers = try? OpenMeteoBatch.answers(body, places: places, { try $1.toCurrentTemperature(at: $0) }) else { return }
        require(Set(answers.keys).isSubset(of: places), "answers for places not asked")
        for case .success(let value) in answers.values { requireBounded(value) }
    case 2:
        guard let dto = try? OpenMeteoAirQualityDTO.decode(body), let air = try? dto.toDomain() else { return }
        requireBounded(air)
    default:
        guard let normals = try? ArchiveDTO.normals(body, at: place) else { return }
        requireBounded(normals, maxItems: 400)
    }
}
