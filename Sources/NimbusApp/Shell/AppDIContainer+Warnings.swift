import Foundation
import NimbusData
import NimbusDomain

/// The official warnings and climate normals services, made on demand from the container's shared
/// client and environment (the one-shot command uses them; the screens will).
extension AppDIContainer {
    /// The NWS, MeteoAlarm and JMA by the city's country (`NIMBUS_NWS_URL`, `NIMBUS_METEOALARM_URL`,
    /// `NIMBUS_JMA_URL`), kept under `$XDG_CACHE_HOME/nimbus/warnings`.
    public func makeWarningsRepository() -> WarningsRepository {
        let environment = configuration.environment
        return LiveWarningsRepository(
            client: httpClient(for: .warnings), environment: environment,
            cacheDirectory: WeatherCache.defaultDirectory(environment: environment), version: nimbusVersion,
            regions: MeteoAlarmRegions.bundled(), now: configuration.now,
            logger: logger(.weather))
    }

    /// Open-Meteo's archive (`NIMBUS_ARCHIVE_URL`), each place's normals kept under
    /// `$XDG_CACHE_HOME/nimbus/normals` for good.
    public func makeClimateNormalsRepository() -> ClimateNormalsRepository {
        let environment = configuration.environment
        return OpenMeteoArchiveRepository(
            client: httpClient(for: .normals), baseURL: OpenMeteoArchiveRepository.baseURL(environment: environment),
            cache: ClimateNormalsCache(directory: WeatherCache.defaultDirectory(environment: environment)))
    }
}
