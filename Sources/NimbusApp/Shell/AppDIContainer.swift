import Foundation
import NimbusData
import NimbusDomain
import NimbusPresentation
import NimbusUI
@preconcurrency import CombineSchedulers

/// Which city catalogue to load.
public enum CatalogChoice: Equatable, Sendable {
    /// The bundled cities15000 tier (~34k cities).
    case bundled
    /// The cities1000 tier generated into the user's data directory.
    case large
    /// A catalogue file given on the command line.
    case file(URL)
}

/// Builds and owns the long-lived services; per-tab containers make each tab's objects.
public final class AppDIContainer {
    public struct Configuration {
        public var environment: [String: String]
        public var catalog: CatalogChoice
        public var scheduler: AnySchedulerOf<DispatchQueue>
        public var colors: Bool

        public init(environment: [String: String], catalog: CatalogChoice = .bundled,
                    scheduler: AnySchedulerOf<DispatchQueue>, colors: Bool = true) {
            self.environment = environment
            self.catalog = catalog
            self.scheduler = scheduler
            self.colors = colors
        }
    }

    public let configuration: Configuration
    public let l10n: L10n
    public private(set) var theme: Theme
    public let cityRepository: CityRepository
    /// Country names in the UI language, shared by every screen that shows them.
    public let countryNames: CountryNames

    /// Loads the catalogue and strings; throws a `CityCatalogError` when the catalogue can't be read.
    public init(configuration: Configuration) throws {
        self.configuration = configuration
        l10n = L10n.bundled(Language.resolve(environment: configuration.environment))
        let noColor = !(configuration.environment["NO_COLOR"] ?? "").isEmpty
        theme = configuration.colors && !noColor ? .color : .monochrome
        countryNames = CountryNames(locale: l10n.locale)
        switch configuration.catalog {
        case .bundled: cityRepository = try CityCatalog.bundled()
        case .large: cityRepository = try CityCatalog(contentsOf: CityCatalog.largeTierURL(environment: configuration.environment))
        case .file(let url): cityRepository = try CityCatalog(contentsOf: url)
        }
    }

    /// One-off work the first keystrokes would otherwise pay for: folding tables for the scripts
    /// of the largest cities' names, and their country names. Safe to run on any queue.
    public func warmUp() {
        let cities = cityRepository
        for query in ["a", "e", "s", "서", "ソ", "東"] {
            for ref in cities.search(query).refs.prefix(40) {
                _ = cities.matchedName(ref, query: query)
                _ = countryNames.name(cities.city(ref).countryCode)
            }
        }
    }

    /// Switches to the colourless theme (the terminal has no colours).
    public func useMonochrome() { theme = .monochrome }

    /// Text on the right of the status bar: where the data comes from.
    var statusSource: String {
        l10n.format(.statusSourceCities, l10n.number(cityRepository.cityCount))
    }

    func makeCitiesSceneDIContainer() -> CitiesSceneDIContainer {
        CitiesSceneDIContainer(cities: cityRepository, countries: countryNames, l10n: l10n,
                               scheduler: configuration.scheduler)
    }
}

/// Makes the Cities tab's use cases, view models and screens.
final class CitiesSceneDIContainer: CitiesCoordinatorDependencies {
    private let cities: CityRepository
    private let countries: CountryNames
    private let l10n: L10n
    private let scheduler: AnySchedulerOf<DispatchQueue>

    init(cities: CityRepository, countries: CountryNames, l10n: L10n, scheduler: AnySchedulerOf<DispatchQueue>) {
        self.cities = cities
        self.countries = countries
        self.l10n = l10n
        self.scheduler = scheduler
    }

    func makeSearchCitiesUseCase() -> SearchCitiesUseCase {
        SearchCitiesUseCase(repository: cities)
    }

    func makeCityListViewModel() -> CityListViewModel {
        CityListViewModel(search: makeSearchCitiesUseCase(), totalCount: cities.cityCount, l10n: l10n,
                          countries: countries, scheduler: scheduler)
    }

    func makeCityListScreen(onRoute: @escaping (CityListRoute) -> Void) -> Screen {
        CityListScreen(viewModel: makeCityListViewModel(), l10n: l10n, onRoute: onRoute)
    }
}
