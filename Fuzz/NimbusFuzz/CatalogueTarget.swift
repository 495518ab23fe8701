import Foundation
@testable import NimbusData
import NimbusDomain

/// The city catalogue (NMBC, versions 2 and 3) as the app opens it, from a file: refused as
/// `CityCatalogError.corrupt` or opened, never a crash, a read outside the file (AddressSanitizer
/// sees one: a file this small is read into memory) or an allocation the file's size does not pay
/// for. What opens gives every city, summary and region with strings no longer than the file, the
/// same city by both readers (`city` and `summary`), and searches, suggestions and lookups that
/// name only its own cities, each once.
func fuzzCatalogue(_ data: Data) {
    let url = scratchFile("catalogue.bin")
    guard (try? data.write(to: url)) != nil else { return }
    guard let catalog = openedOrCorrupt({ try CityCatalog(contentsOf: url) }) else { return }
    let size = data.count
    // Every city is a record of at least 36 bytes in the file: the count (and the search buffers,
    // a few bits per city) is bounded by the file's size.
    require(catalog.cityCount >= 0 && catalog.cityCount * 36 <= size, "\(catalog.cityCount) cities in \(size) bytes")
    let regions = catalog.regions
    require(regions.count * 4 <= size, "\(regions.count) regions in \(size) bytes")
    for region in regions {
        for field in [region.country, region.region.code, region.region.english, region.region.korean ?? "",
                      region.region.japanese ?? ""] {
            require(field.utf8.count <= size, "a region field of \(field.utf8.count) bytes")
        }
    }

    let shown = min(catalog.cityCount, 64)
    var words: [String] = []
    for index in 0..<shown {
        let ref = CityRef(Int32(index))
        let city = catalog.city(ref), summary = catalog.summary(ref)
        let names = [city.name] + city.alternateNames
        require(names.count <= size && names.allSatisfy { $0.utf8.count <= size }, "city \(index): names beyond the file")
        require(city.timeZone.utf8.count <= size, "city \(index): a time zone of \(city.timeZone.utf8.count) bytes")
        require(city.countryCode.unicodeScalars.count <= 2, "city \(index): country \(city.countryCode.debugDescription)")
        require(city.latitude.isFinite && city.longitude.isFinite, "city \(index) at \(city.latitude), \(city.longitude)")
        for local in [city.localNames.japanese, city.localNames.korean] {
            require(local.map { !$0.isEmpty && names.contains($0) } ?? true, "city \(index): a local name not among its names")
        }
        require(summary.id == city.id && summary.name == city.name && summary.countryCode == city.countryCode
                && summary.population == city.population && summary.timeZone == city.timeZone
                && summary.localNames == city.localNames && summary.region == city.region
                && summary.namesakes == city.namesakes,
                "city \(index): the summary and the city differ")
        let position = catalog.position(at: index)
        require(abs(position.latitude) <= 90 && abs(position.longitude) <= 180, "city \(index) placed off the globe")
        if let word = city.name.split(separator: " ").first, words.count < 6 { words.append(String(word.prefix(12))) }
    }

    let queries = ["", "s", "to", "tokyo", "東京", "とうきょう", "서울", "paris, fr", "springfield il", "san jose ca",
                   "pariss", "seuol", "new y"] + words + words.prefix(2).map { String($0.prefix(1)) + ", " }
    // Each query in one language, the three in turn: a third of the searches, and the
    // language changes only which own names a search ranks first.
    let languages = [CityNameLanguage.geoNames, .japanese, .korean]
    for (number, query) in queries.enumerated() {
        let language = languages[number % languages.count]
        let matches = catalog.search(query, in: language)
        let refs = matches.refs
        require(refs.count <= catalog.cityCount, "\(refs.count) matches of \(catalog.cityCount) cities")
        require(refs.allSatisfy { $0.index >= 0 && Int($0.index) < catalog.cityCount }, "a match out of the catalogue")
        require(Set(refs.map(\.index)).count == refs.count, "a city matched twice for \(query.debugDescription)")
        for ref in refs.prefix(8) {
            if let name = catalog.matchedName(ref, query: query, in: language) {
                require(name.utf8.count <= size, "a matched name of \(name.utf8.count) bytes")
            }
        }
        let suggestions = catalog.suggestions(for: query, in: language, limit: 5)
        require(suggestions.count <= 5 && suggestions.allSatisfy { Int($0.index) < catalog.cityCount },
                "\(suggestions.count) suggestions, or one out of the catalogue")
    }

    guard catalog.cityCount > 0 else { return }
    let first = catalog.city(CityRef(0))
    if let ref = catalog.ref(forID: first.id) {
        require(ref.index == 0, "the first city's id found at \(ref.index)")
    } else {
        require(false, "the first city's id \(first.id) not found")
    }
    if let ref = catalog.largestCity(inTimeZone: first.timeZone) {
        require(catalog.city(ref).timeZone == first.timeZone, "the largest city of a zone is in another")
    }
}
