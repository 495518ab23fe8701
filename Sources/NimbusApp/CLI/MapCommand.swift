import ArgumentParser
import Foundation
import NimbusData
import NimbusDomain
import NimbusPresentation
import NimbusTerminal
import NimbusUI
import CombineSchedulers

/// `nimbus map QUERY`: prints the map of the first city matching the query.
struct MapCommand: MainActorCommand {
    static let configuration = CommandConfiguration(
        commandName: "map",
        abstract: "Print the map of the first city matching a query.",
        discussion: "Units follow --units, else NIMBUS_UNITS, else config.toml, else the locale (LC_ALL, LC_MEASUREMENT, LANG).")

    @OptionGroup var catalogue: CatalogueOptions
    @OptionGroup var units: UnitsOption
    @OptionGroup var language: LanguageOption

    @Argument(help: "City to look up, in any script (\"seoul\", \"서울\", \"são paulo\").", completion: CityCompletion.kind)
    var query: [String]

    /// What `--zoom` takes, by name, and its levels.
    static let zoomWords = ["world", "country", "city"] + MapZoom.range.map(String.init)

    @Option(help: ArgumentHelp("world, country, city or a number 0-12.", valueName: "zoom"), completion: .list(zoomWords))
    var zoom: String = "country"

    @Option(help: ArgumentHelp("Map size in terminal cells.", valueName: "COLSxROWS"))
    var size: String = "80x24"

    @Option(help: ArgumentHelp("braille (2×4 dots a cell) or blocks (2×2, for fonts without braille).", valueName: "style"),
            completion: .list([MapStyle.braille.rawValue, MapStyle.blocks.rawValue]))
    var style: String = "braille"

    @MainActor func runOnMainActor() throws {
        let environment = ProcessInfo.processInfo.environment
        guard let zoom = MapText.zoom(zoom) else { throw ValidationError("--zoom must be world, country, city or 0-12 (got '\(CLIOptions.shown(zoom))')") }
        guard let size = MapText.size(size) else { throw ValidationError("--size must look like 100x30 (1-500 × 1-200; got '\(CLIOptions.shown(size))')") }
        guard let style = MapStyle(rawValue: style.lowercased()) else { throw ValidationError("--style must be braille or blocks (got '\(CLIOptions.shown(style))')") }
        let configuration = CLIOptions.Values.command(catalogue: catalogue, units: units, language: language)
            .configuration(environment: environment, scheduler: .immediate, colors: false)
        let container: AppDIContainer
        do {
            container = try AppDIContainer(configuration: configuration)
        } catch let error as CityCatalogError {
            throw CommandFailure(message: error.message)
        }
        let text = try MapText.render(query: query.joined(separator: " "), zoom: zoom, size: size, style: style,
                                      container: container)
        print(text)
    }
}

/// The text `nimbus map` prints, shared with the golden tests.
enum MapText {
    enum Failure: Error, CustomStringConvertible {
        case noCity(String)
        case noMatch(CommandFailure)
        case map(MapError)

        var description: String {
            switch self {
            case .noCity(let query): return "no city matches \"\(query)\""
            case .noMatch(let failure): return failure.message
            case .map(.dataMissing(let path)): return MapDataError.missing(path).message
            case .map(.dataDamaged(let why)): return MapDataError.corrupt(why).message
            }
        }
    }

    static func zoom(_ text: String) -> MapZoom? {
        switch text.lowercased() {
        case "world": return .world
        case "country": return .country
        case "city": return .city
        default:
            guard let n = Int(text), MapZoom.range.contains(n) else { return nil }
            return MapZoom(n)
        }
    }

    static func size(_ text: String) -> MapSize? {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let cols = Int(parts[0]), let rows = Int(parts[1]),
              (1...500).contains(cols), (1...200).contains(rows) else { return nil }
        return MapSize(cols: cols, rows: rows)
    }

    /// The map rows (marker and label included), then a line with the scale bar and the place.
    static func render(query: String, zoom: MapZoom, size: MapSize, style: MapStyle,
                       container: AppDIContainer) throws -> String {
        let search = SearchCitiesUseCase(repository: container.cityRepository, language: container.l10n.language.cityNames)
        let matches = search.execute(query: query)
        guard let ref = matches.first else { throw Failure.noMatch(OneShot.noCity(matches, in: container)) }
        let city = search.city(ref)
        let request = MapRequest(city: city, zoom: zoom, size: size, style: style)
        let snapshot: MapSnapshot
        do {
            guard let drawn = try container.map.makeShowCityMapUseCase().snapshot(request) else { throw Failure.noCity(query) }
            snapshot = drawn
        } catch let error as MapError {
            throw Failure.map(error)
        }
        let canvas = Canvas(size: Size(cols: size.cols, rows: size.rows + 1))
        let p = canvas.painter()
        let l10n = container.l10n
        let towns = MapMarkerPlacement.place(container.mapTowns.towns(on: snapshot, language: l10n.language), on: snapshot,
                                             language: l10n.language)
        let name = CityNameChoice.name(city, language: l10n.language)
        MapSnapshotView.draw(snapshot, in: p.sub(Rect(x: 0, y: 0, width: size.cols, height: size.rows)),
                             palette: .monochrome, label: name, markers: towns)
        let units = container.display.value.system
        var footer = "\(name), \(container.l10n.countryNames.name(city.countryCode)) · "
            + l10n.format(.mapStatus, String(zoom.level), String(MapZoom.range.upperBound),
                          l10n[style == .braille ? .mapStyleBraille : .mapStyleBlocks])
        if let bar = MapScaleBar.make(kilometresPerColumn: snapshot.kilometresPerColumn,
                                      maxColumns: min(24, size.cols / 3), units: units, l10n: l10n),
           let scale = MapSnapshotView.scaleText(bar, maxWidth: size.cols) {
            footer = scale + "  " + footer
        }
        p.text(DisplayWidth.truncate(footer, to: size.cols), x: 0, y: size.rows)
        return trimmedLines(canvas.buffer.text())
    }

    private static func trimmedLines(_ text: String) -> String {
        text.components(separatedBy: "\n").map { line -> String in
            var l = Substring(line)
            while l.last == " " { l.removeLast() }
            return String(l)
        }.joined(separator: "\n")
    }
}
