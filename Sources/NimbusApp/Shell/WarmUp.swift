import Foundation
import NimbusData
import NimbusDomain
import NimbusPresentation
import NimbusTerminal
import NimbusUI
import CombineSchedulers

/// One-off work the first keystrokes would otherwise pay for: the HTTP client (libcurl is loaded
/// here, not on the main queue when the list first asks for temperatures 300 ms after its rows
/// settle), the cities' own names sorted for ranking, the folded names of the largest cities
/// (their rows come first for short queries), the country names and the time zones of the
/// largest cities (each row shows its local time: a zone's file is read the first time a row in it
/// is drawn), the Today tab's k-d tree and the film ranking table.
///
/// Made of the container's shared, `Sendable` services only, so `run` can go to any queue; the
/// part that draws a screen is `TypingRehearsal`, on the main thread.
public struct WarmUp: Sendable {
    let client: HTTPClient
    let catalog: CityCatalog
    let countryNames: CountryNames
    let zones: any ZoneLookup
    let locator: CatalogCityLocator
    let movieCatalogue: MovieCatalogue
    /// The language city names are shown, so ranked, in.
    let cityNames: CityNameLanguage

    /// `rankingPrepared` is called (on this queue) once the cities' own names are sorted: what
    /// searches in the shown language would otherwise wait for.
    public func run(rankingPrepared: @Sendable () -> Void = {}) {
        let client = self.client
        DispatchQueue.global(qos: .utility).async { client.prepare() }
        catalog.prepareRanking(for: cityNames)
        rankingPrepared()
        catalog.foldNamesOfLargestCities()
        let sample = (0..<min(catalog.cityCount, 3000)).map { CityRef(Int32($0)) }
        var seen = Set<String>(), seenZones = Set<String>()
        for ref in sample {
            let summary = catalog.summary(ref)
            if seen.insert(summary.countryCode).inserted { _ = countryNames.name(summary.countryCode) }
            if seenZones.insert(summary.timeZone).inserted { _ = zones.zone(named: summary.timeZone) }
        }
        // The Today tab's k-d tree (18 ms at 34k cities, 100 ms at 170k), then the film ranking table.
        _ = locator.spatialIndex
        movieCatalogue.warmUp()
        // What a query naming a region ("springfield, il") and one that matches nothing ("pariss") read first.
        catalog.prepareQualifiers()
        catalog.prepareSuggestions()
        // The seismic regions, which the first quake far from any town reads.
        _ = FlinnEngdahlRegions.bundled()
    }
}

extension AppDIContainer {
    /// The background warm-up of the shared services.
    public var warmUp: WarmUp {
        WarmUp(client: httpClient(for: .forecast), catalog: catalog, countryNames: l10n.countryNames, zones: zones, locator: locator,
               movieCatalogue: movieCatalogue, cityNames: l10n.language.cityNames)
    }

    /// A Cities screen of its own, never shown, that rehearses the first keystrokes (see `TypingRehearsal`).
    /// Main thread only, after the first frame.
    @MainActor public func typingRehearsal() -> TypingRehearsal {
        let viewModel = CityListViewModel(
            search: SearchCitiesUseCase(repository: cityRepository, language: l10n.language.cityNames), totalCount: cityRepository.cityCount, l10n: l10n,
            scheduler: DispatchQueue.immediate.eraseToAnyScheduler())
        return TypingRehearsal(screen: CityListScreen(viewModel: viewModel, l10n: l10n, onRoute: { _ in }), theme: preferences.theme)
    }
}

/// Rehearses the first keystrokes on a Cities screen that is never shown: draws its frames and
/// encodes them, so that the first real keystrokes find the generic metadata, the code pages and the
/// caches of that path already made (cold, they were most of a first keystroke's time). The screen
/// has no likes and asks for no weather. In two parts: `openField` at once after the first frame
/// (the `/` that opens the search field and the frames of an empty field need nothing from the
/// background), `type` once the background has sorted the cities' own names (a search before that
/// would sort them on the main thread, tens of milliseconds the first real keys would wait for).
@MainActor public final class TypingRehearsal {
    private let screen: CityListScreen
    private let theme: Theme
    private let backend = RehearsalBackend()
    private lazy var renderer = Renderer(backend: backend)

    init(screen: CityListScreen, theme: Theme) {
        self.screen = screen
        self.theme = theme
    }

    /// `/` (the list's binding) and the frame of the open, empty field.
    public func openField() {
        _ = screen.press(.char("/"))
        draw()
    }

    /// A few queries typed into the field, one key per turn of the main queue: a real key that
    /// arrives meanwhile waits for one rehearsed key at most, not for all of them.
    public func type() {
        let keys: [Key] = [.char("m"), .char("a"), .char("r"), .backspace, .backspace, .char("ü"), .backspace,
                           .backspace, .char("東"), .backspace]
        func rehearse(from index: Int) {
            guard index < keys.count else { return }
            _ = screen.handle(keys[index])
            draw()
            DispatchQueue.main.async { MainActor.assumeIsolated { rehearse(from: index + 1) } }
        }
        rehearse(from: 0)
    }

    private func draw() {
        let canvas = Canvas(size: backend.size)
        screen.draw(canvas.painter(), theme: theme)
        renderer.render(canvas.buffer)
    }
}

/// A terminal that encodes frames and throws the bytes away (`TypingRehearsal`).
private final class RehearsalBackend: TerminalBackend {
    let size = Size(cols: 80, rows: 24)
    let supportsColor = true
    private var encoder = FrameEncoder(sequences: .init(
        moveTo: { x, y in Array("\u{1B}[\(y + 1);\(x + 1)H".utf8) }, style: { _ in Array("\u{1B}[0m".utf8) },
        reset: [], clear: [], showCursor: [], hideCursor: [], lastCellScrolls: false))
    private var cursor: Point?

    func draw(_ changes: [CellChange]) { encoder.draw(changes, size: size) }
    func setCursor(_ p: Point?) { cursor = p }
    func flush() { _ = encoder.finish(cursor: cursor, size: size) }
    func clearAll() { encoder.clear() }
}
