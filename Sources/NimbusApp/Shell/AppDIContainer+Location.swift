import Foundation
import NimbusData
import NimbusDomain
import NimbusPresentation
import OpenCombineShim

/// Where the user is, and the catalogue's towns for the maps.
extension AppDIContainer {
    /// Where the user is: `--location`, `NIMBUS_LOCATION`, the home setting, then the system time zone.
    public var locationProvider: DeviceLocationProviding {
        var home: GeoPoint?
        switch preferences.home {
        case .point(let p)?: home = p
        case .city(let id)?: home = city(id: id).flatMap { GeoPoint(latitude: $0.latitude, longitude: $0.longitude) }
        case nil: break
        }
        return SystemLocationProvider(argument: configuration.location, environment: configuration.environment, home: home)
    }

    /// A location that follows the Home setting as the settings store changes it.
    func followHome() -> HomeFollowingLocation {
        let following = HomeFollowingLocation(locationProvider)
        let environment = configuration.environment
        homeChanges = settings.contents.map { ResolvedSettings($0.effective, environment: environment).home }
            .removeDuplicates().dropFirst()
            .sink { [unowned self] _ in following.replace(locationProvider) }
        return following
    }

    func makeLocateCurrentCityUseCase() -> LocateCurrentCityUseCase {
        LocateCurrentCityUseCase(provider: homeFollowingLocation, locator: locator, cities: catalog)
    }

    /// The catalogue's cities for the maps' town dots.
    public var mapTowns: MapTownFinder {
        let catalog = self.catalog
        return MapTownFinder(count: catalog.cityCount, position: { catalog.position(at: $0) },
                             city: { catalog.city(CityRef(Int32($0))) })
    }
}
